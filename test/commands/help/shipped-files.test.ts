// The package's own Markdown files, as a user finds them in node_modules or on the registry's page:
// README.md and the docs/ topics as written (the rendered topics are checked in topics-render.test.ts).
// None names an issue, a source or test path, or imports from the sources; and what is for the
// workshop (the contributors' guide, the benchmark, docs/dev/) is not in the package at all.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { workshopLinesOf } from "../../support/shipped-text.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** The files `npm pack` would put in the package, as package.json's "files" says. */
function packed(): string[] {
  const report = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
  });
  return (JSON.parse(report) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path);
}

describe("the Markdown the package ships", () => {
  const files = packed();
  const markdown = files.filter((file) => file.endsWith(".md"));

  it("is the README and the help topics, and nothing for the workshop", () => {
    expect(markdown).toContain("README.md");
    expect(markdown).toContain("docs/exit-codes.md");
    expect(markdown.filter((file) => !/^(README\.md|docs\/[a-z-]+\.md)$/.test(file))).toEqual([]);
    for (const workshop of ["CONTRIBUTING.md", "docs/bench.md", "bench/HISTORY.md"]) {
      expect(files).not.toContain(workshop);
    }
    expect(files.filter((file) => /^docs\/(dev|man)\//.test(file))).toEqual([]);
  });

  it("names no issue, no src/ or test/ path, no import from the sources", () => {
    const problems = markdown.flatMap((file) =>
      workshopLinesOf(readFileSync(path.join(root, file), "utf8")).map((problem) => `${file}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });
});
