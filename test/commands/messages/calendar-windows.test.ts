// Calendar words for --since/--until (issue 21: "this week" had to be --since 7d), against a real
// sandbox: the window is read in --tz, and the messages listed are exactly those created in it.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { pageForward } from "../../sandbox/http-helpers.js";
import { cli, NOW, useTestSandbox } from "../../support/cli-helpers.js";

let sandbox: Sandbox;
let all: Message[];
useTestSandbox(async (started) => {
  sandbox = started;
  all = (await pageForward(sandbox.url, "/campaigns/cmp-spring-sale/messages", 1000)).messages;
});

const idsBetween = (from: string, to: string) =>
  all
    .filter((m) => Date.parse(m.createdAt) >= Date.parse(from) && Date.parse(m.createdAt) < Date.parse(to))
    .map((m) => m.id);

describe("--since and --until with calendar words", () => {
  // NOW is Thursday 1 May 2025, 12:00 UTC: 14:00 in Paris (+02:00).
  it.each([
    [["--since", "yesterday", "--until", "yesterday"], "2025-04-29T22:00:00Z", "2025-04-30T22:00:00Z"],
    [["--since", "monday"], "2025-04-27T22:00:00Z", "2025-05-01T12:00:00Z"],
    [["--since", "last week", "--until", "last week"], "2025-04-20T22:00:00Z", "2025-04-27T22:00:00Z"],
    [["--since", "last-month", "--until", "yesterday"], "2025-03-31T22:00:00Z", "2025-04-30T22:00:00Z"],
  ])("%j in Europe/Paris lists the messages created in that window", async (args, from, to) => {
    const expected = idsBetween(from, to);
    expect(expected.length).toBeGreaterThan(0);
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      ...args,
      "--tz",
      "Europe/Paris",
      "--all",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual(expected);
  });

  it("stats says the window it read, in the zone", async () => {
    const result = await cli(sandbox, ["stats", "cmp-spring-sale", "--since", "this week", "--tz", "Asia/Kolkata"], {
      columns: 100,
    });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[1]).toBe("Filtered by created since 2025-04-28 00:00");
    const json = await cli(sandbox, [
      "stats",
      "cmp-spring-sale",
      "--since",
      "this week",
      "--tz",
      "Asia/Kolkata",
      "--json",
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      filters: { since: "2025-04-27T18:30:00.000Z" },
      totals: { messages: idsBetween("2025-04-27T18:30:00Z", "2025-05-01T12:00:01Z").length },
    });
    expect(NOW).toBe(Date.parse("2025-05-01T12:00:00Z"));
  });

  it("a word it does not know is a usage error that points to the dates topic", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--since", "tomorrow"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: --since "tomorrow" is not a time: use an ISO date (2026-11-01), a date-time ' +
        "(2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, " +
        '"this week", "last month")\n  Every form, with examples: msgstat help dates\n',
    });
  });
});
