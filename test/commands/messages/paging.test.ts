// Tier 2: paging, filters and limits against a real sandbox: what is printed, the continuation hint
// and following it, --since with data in order (early stop) and out of order, and what is sent.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import {
  cli,
  cliWithRequests,
  cursorAt,
  hintCursor,
  ids,
  jsonlText,
  moreHint,
  NOW,
  serverListing,
  startTestSandbox,
  useListingSandbox,
} from "../../support/cli-helpers.js";

const CAMPAIGN = "/campaigns/cmp-spring-sale/messages";
const HOUR = 3_600_000;
let sandbox: Sandbox;
let all: Message[];

useListingSandbox(CAMPAIGN, (started, messages) => {
  sandbox = started;
  all = messages;
});

const parseJsonl = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Message);
const at = (message: Message) => Date.parse(message.createdAt);
/** "success 120, failure 50, created 30": each latestStatus with its count, most first. */
const statusCounts = (messages: Message[]) => {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(message.latestStatus, (counts.get(message.latestStatus) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status} ${n}`)
    .join(", ");
};

describe("filters with --limit across pages", () => {
  it.each<[string, string[], (m: Message) => boolean, number]>([
    ["--status failure --limit 7", ["--status", "failure"], (m) => m.latestStatus === "failure", 7],
    [
      "--status failure,created (one flag) --limit 9",
      ["--status", "failure,created"],
      (m) => m.latestStatus === "failure" || m.latestStatus === "created",
      9,
    ],
    [
      "--status success --status created (repeated) --limit 30",
      ["--status", "success", "--status", "created"],
      (m) => m.latestStatus !== "failure",
      30,
    ],
    [
      "--since 7d --status success --limit 12",
      ["--since", "7d", "--status", "success"],
      (m) => at(m) >= NOW - 7 * 24 * HOUR && m.latestStatus === "success",
      12,
    ],
    [
      "--until 10d --status failure --limit 3",
      ["--until", "10d", "--status", "failure"],
      (m) => at(m) <= NOW - 10 * 24 * HOUR && m.latestStatus === "failure",
      3,
    ],
  ])(
    "%s: the first matches in order, then a hint that continues without skipping or repeating",
    async (_name, filter, keep, limit) => {
      const matching = all.filter(keep);
      expect(matching.length).toBeGreaterThan(2 * limit);
      const args = ["messages", "cmp-spring-sale", ...filter, "-n", String(limit), "--page-size", "5", "--jsonl"];
      const first = await cliWithRequests(sandbox, args);
      expect(first.code).toBe(0);
      expect(first.stdout).toBe(jsonlText(matching.slice(0, limit)));
      // Pages of --page-size 5, and at most one more request: the probe for the cursor of a message inside a page.
      const pages = first.urls.filter((url) => /[?&]limit=5(&|$)/.test(url));
      expect(pages.length).toBeGreaterThan(1);
      expect(first.urls.length - pages.length).toBeLessThanOrEqual(1);
      const cursor = hintCursor(first.stderr, "after");
      expect(first.stderr).toBe(moreHint(["--base-url", sandbox.url, ...args], limit, "after", cursor));

      const second = await cli(sandbox, [
        "messages",
        "cmp-spring-sale",
        ...filter,
        "-n",
        String(limit),
        "--page-size",
        "5",
        "--jsonl",
        "--after",
        cursor,
      ]);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe(jsonlText(matching.slice(limit, 2 * limit)));
    },
  );

  it("unfiltered --limit: exactly one request of that size, and the hint's cursor continues exactly", async () => {
    const first = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", "-n", "13", "--jsonl"]);
    expect(first.urls).toEqual([`${CAMPAIGN}?limit=13`]);
    expect(first.stdout).toBe(jsonlText(all.slice(0, 13)));
    const cursor = hintCursor(first.stderr, "after");
    expect(first.stderr).toBe(
      moreHint(["--base-url", sandbox.url, "messages", "cmp-spring-sale", "-n", "13", "--jsonl"], 13, "after", cursor),
    );
    const second = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "13", "--jsonl", "--after", cursor]);
    expect(second.stdout).toBe(jsonlText(all.slice(13, 26)));
  });

  it("walking the whole campaign by following hints prints every message once, in order", async () => {
    const seen: Message[] = [];
    let after: string[] = [];
    for (let run = 0; run < 20; run++) {
      const result = await cli(sandbox, [
        "messages",
        "cmp-spring-sale",
        "-n",
        "37",
        "--page-size",
        "10",
        "--status",
        "failure,success,created",
        "--jsonl",
        ...after,
      ]);
      expect(result.code).toBe(0);
      seen.push(...parseJsonl(result.stdout));
      if (!result.stderr.includes("--after")) break;
      after = ["--after", hintCursor(result.stderr, "after")];
    }
    expect(ids(seen)).toEqual(ids(all));
  });

  it("no hint when the limit is reached exactly at the end of the listing", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "200", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(all), stderr: "" });
  });
});

describe("--before", () => {
  it.each([
    ["one request", ["--page-size", "1000"]],
    ["several pages walked backwards", ["--page-size", "2"]],
  ])("--before C --limit 5 gives the 5 messages just before C, newest first (%s)", async (_name, paging) => {
    const cursor = await cursorAt(sandbox, CAMPAIGN, 40);
    const args = ["messages", "cmp-spring-sale", "--before", cursor, "-n", "5", "--jsonl", ...paging];
    const first = await cliWithRequests(sandbox, args);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(jsonlText(all.slice(35, 40)));
    expect(first.urls.every((url) => url.includes(`before=${cursor}`) || url.includes("before="))).toBe(true);
    // The hint walks further back: the five before those, again newest first.
    const back = hintCursor(first.stderr, "before");
    expect(first.stderr).toBe(moreHint(["--base-url", sandbox.url, ...args], 5, "before", back));
    const second = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--before",
      back,
      "-n",
      "5",
      "--jsonl",
      ...paging,
    ]);
    expect(second.stdout).toBe(jsonlText(all.slice(30, 35)));
  });

  it("--before near the start gives what there is, and no hint", async () => {
    const cursor = await cursorAt(sandbox, CAMPAIGN, 3);
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--before", cursor, "-n", "10", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(all.slice(0, 3)), stderr: "" });
  });

  it("--before with --status keeps the n matches just before C", async () => {
    const cursor = await cursorAt(sandbox, CAMPAIGN, 120);
    const failures = all.slice(0, 120).filter((m) => m.latestStatus === "failure");
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--before",
      cursor,
      "-n",
      "4",
      "--status",
      "failure",
      "--page-size",
      "7",
      "--jsonl",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(jsonlText(failures.slice(-4)));
  });

  it("--after C gives the messages that follow C", async () => {
    const cursor = await cursorAt(sandbox, CAMPAIGN, 99);
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--after",
      cursor,
      "--all",
      "--jsonl",
      "--page-size",
      "33",
    ]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(all.slice(100)), stderr: "" });
  });
});

describe("--since", () => {
  const since = NOW - 3 * 24 * HOUR;

  it("in order: stops paging once past --since, and prints exactly the window", async () => {
    const inWindow = all.filter((m) => at(m) >= since);
    const firstOutside = all.findIndex((m) => at(m) < since);
    expect(firstOutside).toBeGreaterThan(10);
    const stopPage = Math.floor(firstOutside / 5) + 1;
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--since",
      "3d",
      "--all",
      "--page-size",
      "5",
      "--jsonl",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(jsonlText(inWindow));
    // The page that crossed --since, plus at most the one already prefetched; the campaign has 40.
    expect(urls.length).toBeGreaterThanOrEqual(stopPage);
    expect(urls.length).toBeLessThanOrEqual(stopPage + 1);
  });

  it("an ISO date works as a bound, and --until bounds the other end, inclusively", async () => {
    const lower = all[60]!.createdAt;
    const upper = all[20]!.createdAt;
    const expected = all.filter((m) => at(m) >= Date.parse(lower) && at(m) <= Date.parse(upper));
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--since",
      lower,
      "--until",
      upper,
      "--all",
      "--jsonl",
      "--page-size",
      "25",
    ]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(expected), stderr: "" });
    expect(ids(expected)).toContain(all[60]!.id);
    expect(ids(expected)).toContain(all[20]!.id);
  });

  it("out of order: no early stop, and nothing inside the window is lost", async () => {
    // Page 1 comes reversed (oldest first), and a message far past the window claims to be new.
    const late = all[150]!;
    const shuffled = await startTestSandbox({
      transform: (body, req) => {
        const page = body as { data: Message[] };
        if (req.query.get("limit") !== "5") return page;
        if (!req.query.has("after")) page.data.reverse();
        for (const message of page.data)
          if (message.id === late.id) message.createdAt = new Date(NOW - HOUR).toISOString().replace("Z", "+00:00");
        return page;
      },
    });
    try {
      const served = await serverListing(shuffled, CAMPAIGN, 5);
      expect(ids(served.slice(0, 5))).toEqual(ids(all.slice(0, 5)).reverse());
      const inWindow = served.filter((m) => at(m) >= since);
      expect(ids(inWindow)).toContain(late.id);
      const before = shuffled.requests.length;
      const { code, stdout, stderr } = await cli(shuffled, [
        "messages",
        "cmp-spring-sale",
        "--since",
        "3d",
        "--all",
        "--page-size",
        "5",
        "--jsonl",
      ]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toBe(jsonlText(inWindow));
      expect(shuffled.requests.length - before).toBe(40);
    } finally {
      await shuffled.close();
    }
  });

  it("a page crossing --since out of order is read on, and its in-window messages kept", async () => {
    const firstOutside = all.findIndex((m) => at(m) < since);
    const crossing = Math.floor(firstOutside / 5);
    const shuffled = await startTestSandbox({
      transform: (body, req) => {
        const page = body as { data: Message[] };
        if (req.query.get("limit") === "5" && page.data[0]?.id === all[crossing * 5]!.id) page.data.reverse();
        return page;
      },
    });
    try {
      const before = shuffled.requests.length;
      const { code, stdout } = await cli(shuffled, [
        "messages",
        "cmp-spring-sale",
        "--since",
        "3d",
        "--all",
        "--page-size",
        "5",
        "--jsonl",
      ]);
      expect(code).toBe(0);
      expect(new Set(ids(parseJsonl(stdout)))).toEqual(new Set(ids(all.filter((m) => at(m) >= since))));
      expect(shuffled.requests.length - before).toBe(40);
    } finally {
      await shuffled.close();
    }
  });
});

describe("--search and --status as sent and as warned", () => {
  it('--search "+1 (555)" sends 1555', async () => {
    const { code, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--search",
      "+1 (555)",
      "--jsonl",
    ]);
    expect(code).toBe(0);
    expect(urls).toEqual([`${CAMPAIGN}?limit=1000&search=1555`]);
  });

  it("--search 11 prints the server's matches, every recipient containing 11", async () => {
    const expected = await serverListing(sandbox, CAMPAIGN, 1000, { search: "11" });
    expect(expected.length).toBeGreaterThan(3);
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--search",
      "1-1",
      "--all",
      "--jsonl",
      "--page-size",
      "3",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(jsonlText(expected));
    expect(parseJsonl(stdout).every((m) => m.recipient.includes("11"))).toBe(true);
    expect(urls.every((url) => url.includes("search=11"))).toBe(true);
  });

  it("the hint after a search continues the search", async () => {
    const expected = await serverListing(sandbox, CAMPAIGN, 1000, { search: "11" });
    const first = await cli(sandbox, ["messages", "cmp-spring-sale", "--search", "11", "-n", "2", "--jsonl"]);
    const second = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--search",
      "11",
      "-n",
      "2",
      "--jsonl",
      "--after",
      hintCursor(first.stderr, "after"),
    ]);
    expect(first.stdout + second.stdout).toBe(jsonlText(expected.slice(0, 4)));
  });

  it("an unknown --status is used, with a warning on stderr", async () => {
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--status",
      "failure,bounced",
      "--status",
      "queued",
      "--all",
      "--jsonl",
    ]);
    expect(result).toEqual({
      code: 0,
      stdout: jsonlText(all.filter((m) => m.latestStatus === "failure")),
      stderr:
        "warning: --status bounced: not a status the service is known to send (created, success, failure); filtering on it anyway\n" +
        "warning: --status queued: not a status the service is known to send (created, success, failure); filtering on it anyway\n",
    });
  });

  it("a status nobody has: empty result, the warning and the note", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--status", "bounced", "--all", "--csv"]);
    expect(result).toEqual({
      code: 0,
      stdout: "id,recipient,latestStatus,createdAt,attemptCount,lastErrorType,lastErrorCode,batchId,fullMessage\r\n",
      stderr: `warning: --status bounced: not a status the service is known to send (created, success, failure); filtering on it anyway\nNo messages matched. Statuses of the messages read: ${statusCounts(all)}.\n`,
    });
  });
});
