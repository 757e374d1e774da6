// The fan-out engine on its own, over real HTTP to a small server of several campaigns: the merge's
// order across campaigns, its tie-break, a campaign out of order, one that cannot be read, the merged
// limit, and the bound on requests in flight; then the plain form (one task per campaign).
import { describe, expect, it } from "vitest";
import { testClient } from "../support/client.js";
import { NotFoundError, ServiceError } from "../../src/core/errors.js";
import { instantOf } from "../../src/core/time.js";
import { PARSED_MESSAGES } from "../../src/service/endpoints.js";
import {
  ConcurrencyGate,
  forEachCampaign,
  INPUT_TURN_EVERY,
  MergedListing,
  type MergeOptions,
} from "../../src/service/fan-out.js";
import { MessageSelector } from "../../src/service/select.js";
import type { CheckedMessage } from "../../src/core/message.js";
import { campaignMessage, campaignPages, startListingServer, type ListingServer } from "../support/listing-server.js";

/** Campaign `id` with messages at these minutes, served in the order given. */
const campaign = (id: string, minutes: number[]) =>
  minutes.map((minute, i) => campaignMessage(id, `${id}-${i}`, minute));

async function merge(
  server: ListingServer,
  ids: string[],
  options: Partial<MergeOptions<CheckedMessage>> & { pageSize?: number } = {},
) {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const selectors: MessageSelector[] = [];
  const merged = new MergedListing<CheckedMessage>(
    testClient(server.url),
    ids,
    (campaignId, client) => {
      const selector = new MessageSelector(client, {
        listing: { campaignId },
        limit,
        pageSize: options.pageSize ?? 2,
      });
      selectors.push(selector);
      return {
        chunks: selector.chunks(PARSED_MESSAGES),
        stoppedShort: () => selector.outcome.continueAt !== undefined,
      };
    },
    { concurrency: 4, createdAtOf: (m) => instantOf(m.createdAt), ...options, limit },
  );
  const out: string[] = [];
  const tags: string[] = [];
  for await (const chunk of merged.chunks())
    for (const { campaignId, item } of chunk) {
      out.push(item.id);
      tags.push(campaignId);
    }
  return { ids: out, tags, merged };
}

describe("MergedListing", () => {
  it("merges campaigns whose times interleave, newest createdAt first, each message once and tagged", async () => {
    const server = await startListingServer(
      campaignPages({
        a: campaign("a", [90, 60, 30, 0]),
        b: campaign("b", [80, 70, 20, 10]),
        c: campaign("c", [95, 50, 40]),
      }),
    );
    const { ids, tags, merged } = await merge(server, ["a", "b", "c"]);
    expect(ids).toEqual(["c-0", "a-0", "b-0", "b-1", "a-1", "c-1", "c-2", "a-2", "b-2", "b-3", "a-3"]);
    expect(tags).toEqual(ids.map((id) => id[0]));
    expect(merged.outcomes.map((o) => [o.campaignId, o.state, o.delivered, o.outOfOrder])).toEqual([
      ["a", "complete", 4, 0],
      ["b", "complete", 4, 0],
      ["c", "complete", 3, 0],
    ]);
    expect(merged.cutShort).toBe(false);
  });

  it("puts messages of the same createdAt in the order the campaigns were named", async () => {
    const server = await startListingServer(campaignPages({ a: campaign("a", [5, 5]), b: campaign("b", [5, 5]) }));
    expect((await merge(server, ["b", "a"])).ids).toEqual(["b-0", "b-1", "a-0", "a-1"]);
  });

  it("hands out every message of a campaign out of order, in its own order, and says so once", async () => {
    const server = await startListingServer(
      campaignPages({
        a: campaign("a", [10, 20, 30, 40]),
        b: campaign("b", [35, 25, 15, 5]),
      }),
    );
    const told: string[] = [];
    const { ids, merged } = await merge(server, ["a", "b"], { onOutOfOrder: (id) => told.push(id) });
    expect(ids.sort()).toEqual(["a-0", "a-1", "a-2", "a-3", "b-0", "b-1", "b-2", "b-3"]);
    expect(told).toEqual(["a"]);
    expect(merged.outcomes[0]).toMatchObject({ state: "complete", delivered: 4, outOfOrder: 3 });
    expect(merged.outcomes[1]).toMatchObject({ state: "complete", delivered: 4, outOfOrder: 0 });
  });

  it("reads the others to the end when one campaign is not found, and says why it failed", async () => {
    const server = await startListingServer(campaignPages({ a: campaign("a", [3, 1]), c: campaign("c", [2, 0]) }));
    const failed: string[] = [];
    const { ids, merged } = await merge(server, ["a", "missing", "c"], {
      onFailure: (outcome) => failed.push(outcome.campaignId),
    });
    expect(ids).toEqual(["a-0", "c-0", "a-1", "c-1"]);
    expect(failed).toEqual(["missing"]);
    expect(merged.outcomes.map((o) => o.state)).toEqual(["complete", "failed", "complete"]);
    expect(merged.outcomes[1]!.error?.message).toMatch(/^not found: GET .*\/campaigns\/missing\/messages/);
    expect(merged.outcomes[1]!.error?.exitCode).toBe(3);
  });

  it("keeps what a campaign gave before it failed part way", async () => {
    const server = await startListingServer(
      campaignPages({ a: campaign("a", [9, 7, 5, 3, 1]), b: campaign("b", [8, 6, 4, 2, 0]) }, (id, page) =>
        id === "b" && page === 1 ? 500 : undefined,
      ),
    );
    const { ids, merged } = await merge(server, ["a", "b"]);
    expect(ids).toEqual(["a-0", "b-0", "a-1", "b-1", "a-2", "a-3", "a-4"]);
    expect(merged.outcomes[1]).toMatchObject({ state: "failed", delivered: 2 });
    expect(merged.outcomes[1]!.error).toBeInstanceOf(ServiceError);
  });

  it("stops the merged stream at its limit and marks the campaigns that had more as cut", async () => {
    const server = await startListingServer(
      campaignPages({
        a: campaign("a", [90, 60, 30, 0]),
        b: campaign("b", [80, 70, 20, 10]),
        c: campaign("c", [1]),
      }),
    );
    const { ids, merged } = await merge(server, ["a", "b", "c"], { limit: 3 });
    expect(ids).toEqual(["a-0", "b-0", "b-1"]);
    expect(merged.outcomes.map((o) => o.state)).toEqual(["cut", "cut", "cut"]);
    expect(merged.cutShort).toBe(true);
  });

  it("never has more requests in flight than its concurrency, and uses all of it", async () => {
    const campaigns = Object.fromEntries(
      ["a", "b", "c", "d", "e", "f"].map((id, k) => [id, campaign(id, [60 - k, 40 - k, 20 - k, 10 - k])]),
    );
    const server = await startListingServer(campaignPages(campaigns), { holdUntil: 2, holdMs: 20 });
    const { ids } = await merge(server, Object.keys(campaigns), { concurrency: 2, pageSize: 1 });
    expect(ids).toHaveLength(24);
    expect(server.maxInFlight).toBe(2);
  });
  it("lets the event loop turn every INPUT_TURN_EVERY merged messages, so answers that arrived are read while it merges", async () => {
    // Pages already in memory: the merge itself never waits on I/O. Counted: turns of the event loop
    // (setImmediate callbacks) while it runs; promises alone never let one happen.
    const pages = 3;
    const inMemory = (id: string, offset: number) => ({
      chunks: (async function* () {
        for (let page = 0; page < pages; page++)
          yield Array.from({ length: 1000 }, (_, i) => ({
            id: `${id}-${page}-${i}`,
            at: -(page * 1000 + i) * 3 - offset,
          }));
      })(),
    });
    const noRequests = { get: () => Promise.reject(new Error("no request expected")) };
    const merged = new MergedListing<{ id: string; at: number }>(
      noRequests,
      ["a", "b", "c"],
      (id) => inMemory(id, id.charCodeAt(0) - 97),
      { concurrency: 4, limit: Number.POSITIVE_INFINITY, createdAtOf: (m) => m.at },
    );
    let turns = 0;
    let merging = true;
    const turn = () => {
      turns++;
      if (merging) setImmediate(turn);
    };
    setImmediate(turn);
    let messages = 0;
    let chunks = 0;
    for await (const chunk of merged.chunks()) {
      chunks++;
      messages += chunk.length;
    }
    merging = false;
    expect(messages).toBe(9000);
    expect(chunks).toBeGreaterThanOrEqual(9);
    // At least one turn for every INPUT_TURN_EVERY merged messages.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(9000 / INPUT_TURN_EVERY));
  });
});

describe("ConcurrencyGate", () => {
  it("refuses a bound below one", () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
  });
});

describe("forEachCampaign", () => {
  it("runs every campaign at most n at once, keeping each result or failure in the order named", async () => {
    let running = 0;
    let most = 0;
    const results = await forEachCampaign(
      ["a", "b", "c", "d", "e"],
      async (id) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        if (id === "c") throw new NotFoundError("not found: c");
        return id.toUpperCase();
      },
      { concurrency: 2 },
    );
    expect(most).toBe(2);
    expect(results.map((r) => [r.campaignId, r.state, r.value])).toEqual([
      ["a", "complete", "A"],
      ["b", "complete", "B"],
      ["c", "failed", undefined],
      ["d", "complete", "D"],
      ["e", "complete", "E"],
    ]);
    expect(results[2]!.error?.message).toBe("not found: c");
  });

  it("stops starting campaigns after an error that is not the service's, and throws it", async () => {
    const started: string[] = [];
    const run = forEachCampaign(
      ["a", "b", "c", "d"],
      async (id) => {
        started.push(id);
        await new Promise((resolve) => setImmediate(resolve));
        if (id === "a") throw new TypeError("defect");
        return id;
      },
      { concurrency: 1 },
    );
    await expect(run).rejects.toThrow("defect");
    expect(started).toEqual(["a"]);
  });
});
