// Writes the man page, dist/msgstat.1 (package.json `man`), from the same sources as the rest of the
// docs: the README's opening for DESCRIPTION, each command's full help (every option, as `msgstat help
// <command>` prints it) at 72 columns, the exit-codes and environment topics in full, docs/man/ for
// FILES and EXAMPLES, and every help topic's name and summary for SEE ALSO. scripts/build.mjs runs it
// after building dist/, so the page always matches the build.
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough } from "node:stream";

export async function writeManPage(root) {
  // The roff writer and the topic list are TypeScript of src/: bundled here for this one use.
  const { outputFiles } = await build({
    stdin: {
      contents:
        'export { manPage } from "./src/commands/help/man-page.ts";\n' +
        'export { TOPICS } from "./src/commands/help/topics.ts";\n',
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "warning",
  });
  const { manPage, TOPICS } = await import(
    `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`
  );

  const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const { buildProgram, fullHelpText } = createRequire(import.meta.url)(path.join(root, "dist", "cli.js"));
  const program = await buildProgram({
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    // man indents a section by 7 cells: the help is laid out for what is left of an 80-column page.
    columns: 72,
    env: {},
    now: () => 0,
    signal: new AbortController().signal,
  });
  const commands = [{ name: "msgstat", help: fullHelpText(program) }];
  const visit = (command, prefix) => {
    for (const sub of command.commands) {
      const name = `${prefix} ${sub.name()}`;
      commands.push({ name, help: fullHelpText(sub) });
      visit(sub, name);
    }
  };
  visit(program, "msgstat");

  const docs = (name) => readFileSync(path.join(root, "docs", name), "utf8");
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const page = manPage({
    version: packageJson.version,
    summary: "inspect the delivery status of SMS campaigns",
    // The README up to its first section, then where to read on.
    description: `${readme.replace(/^# .*\n/, "").split(/^## /m)[0]}\n${HELP_PARAGRAPH}`,
    commands,
    sections: [
      { title: "Exit status", markdown: docs("exit-codes.md") },
      { title: "Environment", markdown: docs("environment.md") },
      { title: "Files", markdown: docs("man/files.md") },
      { title: "Examples", markdown: docs("man/examples.md") },
    ],
    topics: TOPICS,
  });
  writeFileSync(path.join(root, "dist", "msgstat.1"), page);
}

const HELP_PARAGRAPH =
  "stdout carries data only; hints, progress and errors go to stderr. `msgstat <command> --help` shows " +
  "a command's most used options, with examples that run against the sandbox; `msgstat help <command>` " +
  "shows every option, as COMMANDS below does; `msgstat help <topic>` shows one of the topics under SEE ALSO.\n";
