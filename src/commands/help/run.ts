// `msgstat help <topic>`: docs/<topic>.md, from the package msgstat runs from, rewrapped to the width.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { getAsset, isSea } from "node:sea";
import { UsageError } from "../../core/errors.js";
import { renderMarkdown } from "../../terminal/markdown.js";
import { wrapText } from "../../terminal/wrap.js";
import { TOPICS, topicNamed } from "./topics.js";

export interface HelpTopicContext {
  stdout: { write(text: string): unknown };
  columns: number;
}

/** Writes the topic at the context's width, or throws a usage error naming the topics. */
export function runHelpTopic(name: string, commandNames: readonly string[], ctx: HelpTopicContext): void {
  const topic = topicNamed(name);
  if (topic === undefined) {
    // Hints are indented by two cells: the lists are wrapped to fit beside that.
    const listed = (label: string, names: readonly string[]) =>
      wrapText(`${label} ${names.join(", ")}`, Math.max(20, ctx.columns - 2)).join("\n");
    throw new UsageError(`no help topic "${name}"`)
      .withHint(
        listed(
          "topics:",
          TOPICS.map((each) => each.name),
        ),
      )
      .withHint(listed("or a command (every option):", commandNames));
  }
  const markdown = topicMarkdown(topic.name);
  const width = Math.max(20, ctx.columns);
  ctx.stdout.write(
    `${renderMarkdown(markdown, width)
      .map((line) => line.text)
      .join("\n")}\n`,
  );
}

/** The topics as `msgstat help` lists them: name and summary, aligned. */
export function topicList(): string {
  const nameWidth = Math.max(...TOPICS.map((topic) => topic.name.length));
  return TOPICS.map((topic) => `  ${topic.name.padEnd(nameWidth)}  ${topic.summary}`).join("\n");
}

/** A topic's text: carried inside the single executable (scripts/package.mjs), else read from the package. */
function topicMarkdown(name: string): string {
  if (isSea()) return getAsset(`docs/${name}.md`, "utf8");
  return readFileSync(path.join(docsFolder(), `${name}.md`), "utf8");
}

/**
 * The package's docs/ folder: up from this module to the folder whose package.json is msgstat's. The
 * same walk serves src/ (tests), dist/ and dist/chunks/ (the built program), and an installed copy.
 */
function docsFolder(): string {
  // __dirname: the bundle is CommonJS (scripts/build.mjs), and vitest provides it for the source.
  for (let folder = __dirname; ; folder = path.dirname(folder)) {
    const manifest = path.join(folder, "package.json");
    if (existsSync(manifest) && isMsgstat(manifest)) return path.join(folder, "docs");
    if (path.dirname(folder) === folder) throw new Error(`no docs/ folder above ${__dirname}`);
  }
}

function isMsgstat(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "msgstat";
  } catch {
    return false;
  }
}
