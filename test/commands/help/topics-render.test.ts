// Every help topic and every command's full help as a user reads them at 80 columns: no line wider,
// no Markdown left raw, nothing for the workshop (issue numbers, source or test paths).
import { describe, expect, it } from "vitest";
import { TOPICS } from "../../../src/commands/help/topics.js";
import { EVERY_COMMAND } from "../../support/help-texts.js";
import { runCli } from "../../support/run-cli.js";
import { problemsOf } from "../../support/shipped-text.js";

describe("what msgstat help shows, rendered at 80 columns", () => {
  for (const { name } of TOPICS) {
    it(`help ${name}: every line fits, none raw, none for the workshop`, async () => {
      const { code, stdout, stderr } = await runCli(["help", name], { columns: 80 });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(problemsOf(stdout, 80)).toEqual([]);
    });
  }

  for (const command of EVERY_COMMAND) {
    it(`msgstat ${[...command, "--help"].join(" ")} and help ${command.join(" ") || "(the list)"}: the same`, async () => {
      const asked =
        command.length === 1 ? ["help", ...command] : command.length === 0 ? ["help"] : [...command, "--help"];
      for (const args of [[...command, "--help"], asked]) {
        const { code, stdout } = await runCli(args, { columns: 80 });
        expect(code).toBe(0);
        expect(problemsOf(stdout, 80)).toEqual([]);
      }
    });
  }

  it("has no bench topic: the benchmark is the workshop's", async () => {
    expect(TOPICS.map((topic) => topic.name)).not.toContain("bench");
    const { code, stderr } = await runCli(["help", "bench"], { columns: 80 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^msgstat: no help topic "bench"/);
  });
});
