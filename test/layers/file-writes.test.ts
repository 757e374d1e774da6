// Every byte msgstat writes to a file goes through src/output/: a search of src/ finds no rename, no
// write stream, no open for writing, no append, no hard link (how a lock is taken) and no file
// written whole anywhere else. And no test hook is read from the environment by production code:
// tests inject their hooks through the Context.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const OUTPUT = "output/";

/** What writes a file, as Node's fs API spells it. */
const WRITES: Record<string, RegExp> = {
  rename: /\brename(Sync)?\(/,
  "a write stream": /\bcreateWriteStream\(/,
  "an open for writing": /(\bopen\w*\(|\bflags?:)[^;]*["'](w|wx|a|ax|w\+|a\+|wx\+|r\+)["']/,
  "an append": /\bappendFile(Sync)?\(/,
  "a file written whole": /\bwriteFile(Sync)?\(/,
  "a hard link (a lock)": /\.link(Sync)?\(|\blinkSync\(/,
};

/** A test hook in the environment: MSGSTAT_…TEST…, the form the export's pause once took. */
const ENV_TEST_HOOK = /MSGSTAT_\w*TEST\w*/;

function sources(): Array<{ file: string; lines: string[] }> {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .map((file) => ({
      file: file.split(path.sep).join("/"),
      lines: readFileSync(path.join(SRC, file), "utf8").split("\n"),
    }));
}

/** Lines of code (not comments) matching `pattern`, as `file:line: text`. */
function found(pattern: RegExp, where: (file: string) => boolean): string[] {
  const hits: string[] = [];
  for (const { file, lines } of sources()) {
    if (!where(file)) continue;
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      if (pattern.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

describe("file writes live in src/output/", () => {
  it.each(Object.entries(WRITES))("no %s outside it", (_name, pattern) => {
    expect(found(pattern, (file) => !file.startsWith(OUTPUT))).toEqual([]);
  });

  it("the search finds each of them in src/output/ itself, so it would find one elsewhere", () => {
    for (const [name, pattern] of Object.entries(WRITES))
      expect(found(pattern, (file) => file.startsWith(OUTPUT)).length, name).toBeGreaterThan(0);
  });
});

describe("test hooks", () => {
  it("none is read from the environment in src/", () => {
    expect(found(ENV_TEST_HOOK, () => true)).toEqual([]);
    expect(ENV_TEST_HOOK.test("env.MSGSTAT_EXPORT_TEST_PAUSE")).toBe(true);
  });
});
