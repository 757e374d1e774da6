// Listings that bend the paging rules: pages in an order msgstat must not trust unseen, the same ids
// page after page, empty pages that say more follow, and an interrupt while msgstat looks for a cursor.
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/core/errors.js";
import { EMPTY_PAGES_FOLLOWED } from "../../../src/service/paging.js";
import { startSandbox } from "../../../src/sandbox/index.js";
import { jsonlText, NOW } from "../../support/cli-helpers.js";
import { chainedPages, messageAt, startListingServer } from "../../support/listing-server.js";
import { runCli, type CliOptions } from "../../support/run-cli.js";

const run = (url: string, args: string[], options: CliOptions = {}) =>
  runCli(["--base-url", url, "--retries", "0", ...args], { now: NOW, ...options });

describe("--since with pages that come oldest-first (each newest-first inside)", () => {
  // 50 messages an hour apart, m0 the newest, in 5 pages of 10; the 6 newest are inside --since 6h.
  const messages = Array.from({ length: 50 }, (_, k) =>
    messageAt(`m${k}`, NOW, k + 0.5, k % 3 === 0 ? "failure" : "success"),
  );
  const inWindow = messages.slice(0, 6);
  const newestFirst = Array.from({ length: 5 }, (_, page) => messages.slice(page * 10, page * 10 + 10));
  const oldestFirst = [...newestFirst].reverse();

  it("messages --since finds all 6 messages in the window", async () => {
    const server = await startListingServer(chainedPages(oldestFirst));
    const result = await run(server.url, ["messages", "cmp", "--since", "6h", "--all", "--page-size", "10", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(inWindow), stderr: "" });
    expect(server.requests).toHaveLength(5);
  });

  it("stats --since counts all 6", async () => {
    const server = await startListingServer(chainedPages(oldestFirst));
    const result = await run(server.url, ["stats", "cmp", "--since", "6h", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { totals: { messages: number }; delivery: { failure: number } };
    expect(report.totals.messages).toBe(6);
    expect(report.delivery.failure).toBe(2);
  });

  it("newest-first pages still stop early, once a page boundary has been seen in order", async () => {
    const server = await startListingServer(chainedPages(newestFirst));
    const result = await run(server.url, ["messages", "cmp", "--since", "6h", "--all", "--page-size", "10", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: jsonlText(inWindow), stderr: "" });
    // Page 1 already ends before --since, but alone it proves no order; page 2 checks the boundary.
    // Page 3 was already asked for when page 2 arrived (whether that request reached the server before
    // msgstat closed its connections is the network's timing); pages 4 and 5 are never asked for.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });
});

describe("the same ids again on every page, with fresh cursors", () => {
  const twins = [messageAt("a", NOW, 1), messageAt("b", NOW, 2)];
  const pages = Array.from({ length: 20 }, () => twins);

  it("messages prints each once and says how many repeats were left out", async () => {
    const server = await startListingServer(chainedPages(pages));
    const result = await run(server.url, ["messages", "cmp", "--all", "--jsonl"]);
    expect(result).toEqual({
      code: 0,
      stdout: jsonlText(twins),
      stderr:
        "warning: the service sent 38 messages again (an id already seen in the last 3 pages); the repeats were left out\n",
    });
    expect(server.requests).toHaveLength(20);
  });

  it("stats counts 2 messages", async () => {
    const server = await startListingServer(chainedPages(pages));
    const result = await run(server.url, ["stats", "cmp", "--json"]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { totals: { messages: number } }).totals.messages).toBe(2);
    expect(result.stderr).toBe(
      "warning: the service sent 38 messages again (an id already seen in the last 3 pages); the repeats were not counted\n",
    );
  });
});

describe("the window of pages a repeat is looked for in", () => {
  it("an id from one of the last 3 pages, or twice in one page, is left out; one from 4 pages back is printed again", async () => {
    const m = (id: string, hour: number) => messageAt(id, NOW, hour);
    const pages = [
      [m("p1", 1)],
      [m("p2", 2), m("p2", 2)],
      [m("p3", 3)],
      [m("p4", 4)],
      // p1 was last seen 4 pages back: outside the window. p2 was 3 pages back: inside.
      [m("p1", 5), m("p2", 6), m("p5", 7)],
      // p1 came again on the page before: inside the window once more.
      [m("p1", 8)],
    ];
    const server = await startListingServer(chainedPages(pages));
    const result = await run(server.url, ["messages", "cmp", "--all", "--jsonl"]);
    expect(result).toEqual({
      code: 0,
      stdout: jsonlText([m("p1", 1), m("p2", 2), m("p3", 3), m("p4", 4), m("p1", 5), m("p5", 7)]),
      stderr:
        "warning: the service sent 3 messages again (an id already seen in the last 3 pages); the repeats were left out\n",
    });
  });
});

describe("empty pages that say more follow, with a fresh cursor", () => {
  const first = [messageAt("m0", NOW, 1), messageAt("m1", NOW, 2)];
  const last = [messageAt("m2", NOW, 3), messageAt("m3", NOW, 4)];
  const empties = (count: number): unknown[][] => Array.from({ length: count }, () => []);

  it(`are followed, up to ${EMPTY_PAGES_FOLLOWED} in a row: nothing after them is lost`, async () => {
    const server = await startListingServer(chainedPages([first, ...empties(EMPTY_PAGES_FOLLOWED), last]));
    const result = await run(server.url, ["messages", "cmp", "--all", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: jsonlText([...first, ...last]), stderr: "" });
    expect(server.requests).toHaveLength(EMPTY_PAGES_FOLLOWED + 2);
  });

  it("one more is taken for a loop: exit 1 after what came before, naming the rule", async () => {
    const server = await startListingServer(chainedPages([first, ...empties(EMPTY_PAGES_FOLLOWED + 1), last]));
    const result = await run(server.url, ["messages", "cmp", "--all", "--jsonl"]);
    expect(result).toEqual({
      code: 1,
      stdout: jsonlText(first),
      stderr: `msgstat: the service sent ${EMPTY_PAGES_FOLLOWED + 1} empty pages in a row, each saying more messages follow; stopping instead of looping\n`,
    });
    expect(server.requests).toHaveLength(EMPTY_PAGES_FOLLOWED + 2);
  });

  it("an empty page without a cursor is still a loop", async () => {
    const server = await startListingServer((url) =>
      url.searchParams.has("after")
        ? { data: [], pageData: { hasNextPage: true } }
        : { data: first, pageData: { hasNextPage: true, endCursor: "c1" } },
    );
    const result = await run(server.url, ["messages", "cmp", "--all", "--jsonl"]);
    expect(result).toEqual({
      code: 1,
      stdout: jsonlText(first),
      stderr:
        "msgstat: the service says more messages follow but sent an empty page without endCursor; stopping instead of looping\n",
    });
  });
});

describe("Ctrl-C while msgstat asks for the cursor to continue from", () => {
  it("is not swallowed: exit 130", async () => {
    // --status cuts the listing inside a page, so msgstat asks for that message's cursor (request 2),
    // which stalls; Ctrl-C arrives while it waits.
    const sandbox = await startSandbox({
      messages: 200,
      now: NOW,
      faults: [{ request: 2, kind: "stall", ms: 60_000 }],
    });
    try {
      const controller = new AbortController();
      const watcher = setInterval(() => {
        if (sandbox.requests.length >= 2) {
          clearInterval(watcher);
          controller.abort(new InterruptedError("SIGINT"));
        }
      }, 5);
      const result = await runCli(
        [
          "--base-url",
          sandbox.url,
          "messages",
          "cmp-spring-sale",
          "--status",
          "success",
          "-n",
          "2",
          "--page-size",
          "50",
          "--jsonl",
          "--fields",
          "id",
        ],
        { now: NOW, signal: controller.signal },
      );
      clearInterval(watcher);
      expect(sandbox.requests.map((request) => request.url)[1]).toMatch(/[?&]after=/);
      expect(result.code).toBe(130);
      expect(result.stderr).toBe("msgstat: interrupted\n");
    } finally {
      await sandbox.close();
    }
  });
});
