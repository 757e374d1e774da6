// The selection on its own: what MessageSelector keeps of the pages it reads (filters, --limit), where
// a later run continues, and when --since stops the paging early. Real HTTP over loopback to a small
// listing server whose cursors name messages: `after=mK` starts after message K, `before=mK` ends before it.
import { describe, expect, it } from "vitest";
import { testClient } from "../support/client.js";
import { PARSED_MESSAGES, SOURCED_MESSAGES } from "../../src/service/endpoints.js";
import { MessageSelector, type Selection } from "../../src/service/select.js";
import { cursorPages, messageAt, startListingServer, type ListingServer } from "../support/listing-server.js";

const NOW = Date.parse("2025-05-01T12:00:00.000Z");
const HOUR = 3_600_000;

/** m0 the newest, an hour apart; every third one failed. */
function listingOf(count: number, status = (k: number): string => (k % 3 === 0 ? "failure" : "success")) {
  return Array.from({ length: count }, (_, k) => messageAt(`m${k}`, NOW, k + 0.5, status(k)));
}

/** Serves `messages` newest first, honouring limit, after and before as the reference describes them. */
function serve(messages: readonly Record<string, unknown>[]): Promise<ListingServer> {
  return startListingServer(cursorPages(messages.map((message) => JSON.stringify(message))));
}

async function select(server: ListingServer, selection: Partial<Selection>) {
  let pages = 0;
  const selector = new MessageSelector(testClient(server.url), {
    listing: { campaignId: "cmp" },
    limit: 50,
    pageSize: 50,
    onPage: () => pages++,
    ...selection,
  });
  const chunks: string[][] = [];
  for await (const chunk of selector.chunks(PARSED_MESSAGES)) chunks.push(chunk.map((message) => message.id));
  return { chunks, ids: chunks.flat(), outcome: selector.outcome, pages, filtered: selector.filtered };
}

const ids = (...ks: number[]) => ks.map((k) => `m${k}`);

describe("forward, without filters", () => {
  it("--limit inside a page: those messages, and the cursor of the last one printed to continue from", async () => {
    const server = await serve(listingOf(10));
    const { ids: got, outcome, filtered } = await select(server, { limit: 3, pageSize: 5 });
    expect(filtered).toBe(false);
    expect(got).toEqual(ids(0, 1, 2));
    expect(outcome.printed).toBe(3);
    expect(outcome.continueAt).toEqual({ direction: "after", cursor: "m2" });
  });

  it("a page at a time across pages; --limit reached at the very end leaves nothing to continue", async () => {
    const server = await serve(listingOf(6));
    const { chunks, outcome, pages } = await select(server, { limit: 6, pageSize: 4 });
    expect(chunks).toEqual([ids(0, 1, 2, 3), ids(4, 5)]);
    expect(pages).toBe(2);
    expect(outcome).toMatchObject({ printed: 6, seen: 6, stoppedEarlyAtSince: false, undatedSkipped: 0 });
    expect(outcome.continueAt).toBeUndefined();
  });

  it("--all (an infinite limit) reads every page and continues nowhere", async () => {
    const server = await serve(listingOf(7));
    const { ids: got, outcome } = await select(server, { limit: Infinity, pageSize: 3 });
    expect(got).toEqual(ids(0, 1, 2, 3, 4, 5, 6));
    expect(outcome.continueAt).toBeUndefined();
  });

  it("--after starts after the cursor", async () => {
    const server = await serve(listingOf(10));
    const { ids: got, outcome } = await select(server, { after: "m6", limit: 5 });
    expect(got).toEqual(ids(7, 8, 9));
    expect(outcome.continueAt).toBeUndefined();
  });
});

describe("forward, with filters", () => {
  it("--status keeps the matches of every page, counts what was read, and tallies the statuses seen", async () => {
    const server = await serve(listingOf(10));
    const {
      ids: got,
      outcome,
      filtered,
    } = await select(server, {
      statuses: new Set(["failure"]),
      limit: Infinity,
      pageSize: 4,
    });
    expect(filtered).toBe(true);
    expect(got).toEqual(ids(0, 3, 6, 9));
    expect(outcome.printed).toBe(4);
    expect(outcome.seen).toBe(10);
    expect(Object.fromEntries(outcome.statusesSeen)).toEqual({ failure: 4, success: 6 });
  });

  it("--limit reached inside a page: the cursor of the last match, asked of the server from the page's start", async () => {
    const server = await serve(listingOf(10));
    const { ids: got, outcome } = await select(server, { statuses: new Set(["failure"]), limit: 2, pageSize: 5 });
    expect(got).toEqual(ids(0, 3));
    expect(outcome.continueAt).toEqual({ direction: "after", cursor: "m3" });
    // The probe: the messages after the page's first one, up to the match (m1, m2, m3).
    expect(server.requests).toContain("/campaigns/cmp/messages?limit=3&after=m0");
  });

  it("a probe the server fails costs only the cursor", async () => {
    const listing = listingOf(10);
    const page = { hasNextPage: true, hasPreviousPage: false, startCursor: "m0", endCursor: "m4" };
    const server = await startListingServer((url) =>
      url.searchParams.get("after") === "m0" ? "not json" : { data: listing.slice(0, 5), pageData: page },
    );
    const { ids: got, outcome } = await select(server, { statuses: new Set(["failure"]), limit: 2, pageSize: 5 });
    expect(got).toEqual(ids(0, 3));
    expect(outcome.continueAt).toEqual({ direction: "after", cursor: undefined });
  });

  it("--since and --until keep the window, inclusively", async () => {
    const server = await serve(listingOf(10));
    const { ids: got } = await select(server, {
      since: NOW - 5.5 * HOUR,
      until: NOW - 2.5 * HOUR,
      limit: Infinity,
      pageSize: 10,
    });
    expect(got).toEqual(ids(2, 3, 4, 5));
  });

  it("a message without a readable createdAt is left out of a time window, and counted", async () => {
    const listing = listingOf(4);
    listing[1] = { ...listing[1], createdAt: "yesterday" };
    delete listing[2]!.createdAt;
    const server = await serve(listing);
    const { ids: got, outcome } = await select(server, { since: NOW - 10 * HOUR, limit: Infinity });
    expect(got).toEqual(ids(0, 3));
    expect(outcome.undatedSkipped).toBe(2);
  });

  it("names at most 20 distinct statuses seen, however many the server invents", async () => {
    const server = await serve(listingOf(30, (k) => `status-${k}`));
    const { ids: got, outcome } = await select(server, { statuses: new Set(["status-25"]), limit: Infinity });
    expect(got).toEqual(ids(25));
    expect(outcome.statusesSeen.size).toBe(20);
    expect(outcome.statusesSeen.get("status-0")).toBe(1);
    expect(outcome.statusesSeen.has("status-25")).toBe(false);
  });
});

describe("the early stop at --since", () => {
  it("pages newest first: stops once a second page ends before --since, without reading the rest", async () => {
    const server = await serve(listingOf(20));
    const { ids: got, outcome } = await select(server, { since: NOW - 3 * HOUR, limit: Infinity, pageSize: 2 });
    expect(got).toEqual(ids(0, 1, 2));
    expect(outcome.stoppedEarlyAtSince).toBe(true);
    // Pages 1 and 2, and at most the one read ahead: never the whole listing of 10 pages.
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it("never on the first page alone", async () => {
    const server = await serve(listingOf(4));
    const { ids: got, outcome } = await select(server, { since: NOW - 1 * HOUR, limit: Infinity, pageSize: 4 });
    expect(got).toEqual(ids(0));
    expect(outcome.stoppedEarlyAtSince).toBe(false);
  });

  it("one message out of order turns it off for the rest of the run: nothing in the window is lost", async () => {
    const listing = listingOf(8);
    // m6 (6.5 hours old) sent where m1 belongs: inside the first page, out of order.
    [listing[1], listing[6]] = [listing[6]!, listing[1]!];
    const server = await serve(listing);
    const { ids: got, outcome } = await select(server, { since: NOW - 3 * HOUR, limit: Infinity, pageSize: 2 });
    expect(got).toEqual(["m0", "m2", "m1"]);
    expect(outcome.stoppedEarlyAtSince).toBe(false);
    expect(outcome.seen).toBe(8);
  });
});

describe("backward, from --before", () => {
  it("keeps the messages nearest the cursor, printed newest first, and where to go on for newer ones", async () => {
    const server = await serve(listingOf(10));
    const { chunks, outcome } = await select(server, { before: "m8", limit: 3, pageSize: 2 });
    expect(chunks).toEqual([ids(5), ids(6, 7)]);
    expect(outcome.printed).toBe(3);
    expect(outcome.continueAt).toEqual({ direction: "before", cursor: "m5" });
  });

  it("near the start: what there is, and nothing to continue", async () => {
    const server = await serve(listingOf(10));
    const { ids: got, outcome } = await select(server, { before: "m2", limit: 5, pageSize: 2 });
    expect(got).toEqual(ids(0, 1));
    expect(outcome.continueAt).toBeUndefined();
  });

  it("with --status, the matches just before the cursor", async () => {
    const server = await serve(listingOf(12));
    const { ids: got } = await select(server, {
      before: "m11",
      statuses: new Set(["failure"]),
      limit: 2,
      pageSize: 3,
    });
    expect(got).toEqual(ids(6, 9));
  });
});

describe("the pages' bytes, for a consumer done with each chunk once it asks for the next", () => {
  /** Each chunk's ids read from its messages' text when handed out, and the chunks kept to look at after. */
  async function selectWithText(server: ListingServer, selection: Partial<Selection>) {
    const selector = new MessageSelector(testClient(server.url), {
      listing: { campaignId: "cmp" },
      limit: 50,
      pageSize: 2,
      doneWithEachChunk: true,
      ...selection,
    });
    const textIds: string[] = [];
    const chunks = [];
    for await (const chunk of selector.chunks(SOURCED_MESSAGES)) {
      textIds.push(...chunk.map((item) => (JSON.parse(item.source.text()) as { id: string }).id));
      chunks.push(chunk);
    }
    return { textIds, chunks };
  }

  it("forward: each page is freed once the next is asked for", async () => {
    const server = await serve(listingOf(6));
    const { textIds, chunks } = await selectWithText(server, {});
    expect(textIds).toEqual(ids(0, 1, 2, 3, 4, 5));
    expect(chunks.flat().every((item) => item.source.bytes.length === 0)).toBe(true);
  });

  it("a walk back holds every page until it hands them out, newest first: none is freed under it", async () => {
    const server = await serve(listingOf(10));
    const { textIds } = await selectWithText(server, { before: "m8", limit: 5 });
    expect(textIds).toEqual(ids(3, 4, 5, 6, 7));
  });
});
