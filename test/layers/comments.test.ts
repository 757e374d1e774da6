// Comments say why; what was measured when lives in docs/bench.md, bench/HISTORY.md and commit bodies.
// This catches the mechanical forms of a diary in the code's comments: an issue number (in the
// program, its build, the benchmark and the tests' shared code; a scenario test may still name the
// issue it came from), a pointer to a section the documents do not have, and a file that does not
// exist. Figures are not banned: a limit such as 64 MiB is a reason.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Where no comment names an issue: the program, its build and benchmark, and the tests' shared code. */
const NO_ISSUES = /^(src|scripts|bench|bin|test\/support|test\/layers)\/|^\.ci\/run$/;
/**
 * Files a comment may name that a run or the build makes, not kept in the repository: npm run package
 * makes the executable's main.js and program.js.
 */
const MADE_BY_A_RUN = /^(bench\/results|dist|release)\/|^latest\.(md|json)$|^(main|program)\.js$/;
/** Files of other projects a comment names, in their own repositories, and names that only look like files. */
const ELSEWHERE = new Set(["doc/specs/thrift-compact-protocol.md", "Node.js"]);

interface Comment {
  file: string;
  line: number;
  /** The comment's text with its markers (`//`, `/*`, `*`, `#`) taken off, its lines joined by spaces. */
  text: string;
}

function codeFiles(): string[] {
  const files = [".ci/run"];
  for (const folder of ["src", "scripts", "bench", "test", "bin"]) {
    for (const file of readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })) {
      if (CODE.test(file) && !file.split(path.sep).includes("node_modules")) {
        files.push(path.join(folder, file).split(path.sep).join("/"));
      }
    }
  }
  return files.sort();
}

/** Every comment of a JavaScript or TypeScript file, found by the parser (not in strings or templates). */
function scriptComments(file: string, source: string): Comment[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, Comment>();
  const add = (pos: number, end: number) => {
    if (seen.has(pos)) return;
    const raw = source.slice(pos, end);
    const text = raw
      .replace(/^\/\*+|\*+\/$/g, "")
      .split("\n")
      .map((line) => line.replace(/^\s*(\/\/+|\*+(?!\/))?\s?/, "").trim())
      .join(" ")
      .trim();
    seen.set(pos, { file, line: parsed.getLineAndCharacterOfPosition(pos).line + 1, text });
  };
  const visit = (node: ts.Node) => {
    for (const at of [node.getFullStart(), node.getEnd()]) {
      ts.forEachLeadingCommentRange(source, at, (pos, end) => add(pos, end));
      ts.forEachTrailingCommentRange(source, at, (pos, end) => add(pos, end));
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  ts.forEachLeadingCommentRange(source, parsed.endOfFileToken.getFullStart(), (pos, end) => add(pos, end));
  // A run of `//` lines is one comment: a pointer may wrap from one line to the next.
  const lines = source.split("\n");
  const joined: Array<Comment & { last: number }> = [];
  for (const comment of [...seen.values()].sort((a, b) => a.line - b.line)) {
    const previous = joined.at(-1);
    const lineComment = /^\s*\/\//.test(lines[comment.line - 1] ?? "");
    if (previous && lineComment && previous.last === comment.line - 1) {
      previous.text += ` ${comment.text}`;
      previous.last = comment.line;
    } else joined.push({ ...comment, last: lineComment ? comment.line : -1 });
  }
  return joined.map(({ file, line, text }) => ({ file, line, text }));
}

/** A shell script's comments: each run of `#` lines, the first line (`#!`) aside. */
function shellComments(file: string, source: string): Comment[] {
  const comments: Comment[] = [];
  let open: Comment | undefined;
  source.split("\n").forEach((line, index) => {
    const match = /^\s*#(?!!)\s?(.*)$/.exec(line) ?? /\s#\s(.*)$/.exec(line);
    if (!match) return void (open = undefined);
    if (open && /^\s*#/.test(line)) open.text += ` ${match[1]!.trim()}`;
    else comments.push((open = { file, line: index + 1, text: match[1]!.trim() }));
    if (!/^\s*#/.test(line)) open = undefined;
  });
  return comments;
}

function comments(): Comment[] {
  return codeFiles().flatMap((file) => {
    const source = readFileSync(path.join(ROOT, file), "utf8");
    return CODE.test(file) ? scriptComments(file, source) : shellComments(file, source);
  });
}

const ALL = comments();

function where(comment: Comment, what: string): string {
  return `${comment.file}:${comment.line}: ${what}`;
}

/** The headings of a Markdown file, and the bold leads of its list items (`- **Name**: ...`). */
function sectionsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [
    ...[...text.matchAll(/^#{1,6} +(.+?)\s*$/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s*- \*\*(.+?)\*\*/gm)].map((match) => match[1]!),
  ];
}

/** The names of the repository's files (a comment often names a neighbour by its name alone). */
function fileNames(): Set<string> {
  const names = new Set(readdirSync(ROOT));
  for (const folder of ["src", "scripts", "bench", "test", "bin", "docs", ".ci"]) {
    for (const file of readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })) {
      names.add(path.basename(file));
    }
  }
  return names;
}

describe("code comments say why, not what was measured when", () => {
  it("finds the comments it checks, and only comments", () => {
    expect(ALL.length).toBeGreaterThan(1000);
    expect(ALL.some((comment) => comment.file === ".ci/run")).toBe(true);
    expect(ALL.some((comment) => comment.file.startsWith("scripts/"))).toBe(true);
    const source = [
      "// A pointer that wraps (bench/HISTORY.md,",
      '// "A section").',
      'const url = "http://example.com/#1"; // issue 1',
      "const text = `// not a comment ${url}`;",
      "/**",
      " * A block, its stars taken off.",
      " */",
    ].join("\n");
    expect(scriptComments("example.ts", source)).toEqual([
      { file: "example.ts", line: 1, text: 'A pointer that wraps (bench/HISTORY.md, "A section").' },
      { file: "example.ts", line: 3, text: "issue 1" },
      { file: "example.ts", line: 5, text: "A block, its stars taken off." },
    ]);
  });

  it("no comment names an issue", () => {
    const found = ALL.filter((comment) => NO_ISSUES.test(comment.file)).filter((comment) =>
      /\b[Ii]ssues? #?\d+|(?:^|[\s(,])#\d+\b/.test(comment.text),
    );
    expect(found.map((comment) => where(comment, comment.text))).toEqual([]);
  });

  it("every section of a document a comment quotes is there (docs/bench.md, bench/HISTORY.md, docs/)", () => {
    const missing: string[] = [];
    let quoted = 0;
    for (const comment of ALL) {
      for (const [, file, name] of comment.text.matchAll(/((?:docs\/[\w/-]+|bench\/HISTORY)\.md)[,:]? "([^"]+)"/g)) {
        quoted++;
        if (!existsSync(path.join(ROOT, file!))) missing.push(where(comment, `names ${file}, which does not exist`));
        else if (!sectionsOf(file!).some((section) => section.startsWith(name!))) {
          missing.push(where(comment, `${file} has no section "${name}"`));
        }
      }
    }
    expect(missing).toEqual([]);
    expect(quoted).toBeGreaterThan(5);
  });

  it("every file of the repository a comment names exists", () => {
    const missing: string[] = [];
    for (const comment of ALL) {
      for (const [named] of comment.text.matchAll(
        /(?<![\w./-])(?:src|test|scripts|bench|docs|bin)\/[\w./-]*\w\.(?:ts|mjs|cjs|js|md|json)\b/g,
      )) {
        if (!MADE_BY_A_RUN.test(named) && !existsSync(path.join(ROOT, named)))
          missing.push(where(comment, `names ${named}, which does not exist`));
      }
    }
    expect(missing).toEqual([]);
  });

  it("every file a comment of the program, its build or its test support names by name alone exists", () => {
    const names = fileNames();
    const missing: string[] = [];
    for (const comment of ALL.filter((comment) => NO_ISSUES.test(comment.file))) {
      for (const [named] of comment.text.matchAll(/(?<![\w@./-])[\w.-][\w./-]*\.(?:ts|mts|cts|js|mjs|cjs|md)\b/g)) {
        const name = path.basename(named);
        if (ELSEWHERE.has(named) || MADE_BY_A_RUN.test(named) || MADE_BY_A_RUN.test(name) || names.has(name)) continue;
        missing.push(where(comment, `names ${named}, which is no file of the repository`));
      }
    }
    expect(missing).toEqual([]);
  });
});
