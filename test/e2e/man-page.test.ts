// The man page as `man` shows it at 80 columns: a manual of its own (the usual sections, every command's
// options, a pointer to each help topic), under 2,000 lines, with no line wider than the page, no
// Markdown left raw and nothing for the workshop. Without man and groff this fails rather than passing
// unchecked (.ci/run installs man-db and groff-base).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TOPICS } from "../../src/commands/help/topics.js";
import { problemsOf } from "../support/shipped-text.js";

const page = fileURLToPath(new URL("../../dist/msgstat.1", import.meta.url));

function manAt80(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const shown = spawnSync("man", ["-l", page], {
    env: { PATH: process.env.PATH!, MANWIDTH: "80", MANPAGER: "cat", ...env },
    encoding: "utf8",
  });
  // Overstrike bold and underline, should a man still use them.
  return { status: shown.status, stdout: shown.stdout.replace(/.\x08/g, ""), stderr: shown.stderr };
}

describe("man msgstat at 80 columns", () => {
  it("is a manual: its sections, every command, each topic named; clean, and under 2,000 lines", () => {
    expect(spawnSync("sh", ["-c", "command -v man && command -v groff"]).status).toBe(0);
    const { status, stdout, stderr } = manAt80({ LANG: "C.UTF-8" });
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    const lines = stdout.split("\n");
    const sections = lines.filter((line) => /^[A-Z][A-Z ]+$/.test(line));
    expect(sections).toEqual([
      "NAME",
      "SYNOPSIS",
      "DESCRIPTION",
      "COMMANDS",
      "EXIT STATUS",
      "ENVIRONMENT",
      "FILES",
      "EXAMPLES",
      "SEE ALSO",
    ]);
    for (const command of ["messages", "batch", "find", "message", "stats", "export", "sandbox", "auth", "config"])
      expect(lines).toContain(`   msgstat ${command}`);
    const seeAlso = stdout.slice(stdout.indexOf("\nSEE ALSO\n"));
    for (const { name, summary } of TOPICS) {
      expect(seeAlso).toContain(`msgstat help ${name}`);
      expect(seeAlso.replace(/\s+/g, " ")).toContain(summary);
    }
    expect(problemsOf(stdout, 80)).toEqual([]);
    expect(lines.length).toBeLessThan(2000);
  });

  it("reads the same without a UTF-8 locale, with no warning", () => {
    const { status, stdout, stderr } = manAt80({});
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(problemsOf(stdout, 80)).toEqual([]);
  });
});
