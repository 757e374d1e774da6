// How --search is sent: the formatting of a phone number dropped, the digits kept; what is not digits refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseSearch } from "../../../src/commands/shared/filters.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { cliWithRequests, startTestSandbox } from "../../support/cli-helpers.js";

describe("normaliseSearch", () => {
  it.each([
    ["+1 (555)", "1555"],
    ["+44 20-7946.0958", "442079460958"],
    ["  11  ", "11"],
    ["555", "555"],
    ["(0) 12 34", "01234"],
    // Only a leading + is formatting; a later one is kept, and refused (below) before anything is sent.
    ["1+2", "1+2"],
  ])("%j searches %j", (input, sent) => {
    expect(normaliseSearch(input)).toBe(sent);
  });

  it("a plus inside brackets is formatting too", () => {
    expect(normaliseSearch("(+44) 7700")).toBe("447700");
    expect(normaliseSearch("+1 (555) 010-99.1")).toBe("1555010991");
  });
});

// Issue 21, defect 8: the reference's recipients are digits only, so a search with a letter in it could match
// nothing; it is refused before anything is sent, saying what --search takes.
describe("--search that is not a phone number", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ messages: 20 });
  });
  afterAll(() => sandbox.close());

  const refusal = (typed: string) =>
    `msgstat: --search "${typed}" is not a phone number or part of one: recipients are digits only\n` +
    "  It takes digits as people write them (spaces, dashes, dots, brackets, a leading + or 00), or *digits for " +
    `the numbers ending in them: --search "+44 7700", --search '*0779'\n`;

  it.each<[string, string[]]>([
    ["abc", ["messages", "cmp-spring-sale"]],
    ["alice@example.com", ["batch", "cmp-spring-sale", "bat-spring-w1"]],
    ["0779x", ["stats", "cmp-spring-sale"]],
    ["1+2", ["messages", "cmp-spring-sale", "--json"]],
    ["*abc", ["messages", "cmp-spring-sale"]],
  ])("%j is exit 2 with what is accepted, nothing sent", async (typed, command) => {
    for (const columns of [80, 160]) {
      const result = await cliWithRequests(sandbox, [...command, "--search", typed], { columns });
      expect(result).toEqual({ code: 2, stdout: "", stderr: refusal(typed), urls: [] });
    }
  });

  it("digits as people write them are still searched", async () => {
    const result = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", "--search", "+44 (0)7700", "--json"]);
    expect(result.code).toBe(0);
    expect(result.urls).toEqual(["/campaigns/cmp-spring-sale/messages?limit=1000&search=447700"]);
  });
});
