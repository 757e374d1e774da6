// The live campaign: what it serves is a function of the seed, the start time and the clock, and it
// follows the reference's paging exactly as the static campaigns do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message, PageData } from "../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";

const START = Date.parse("2026-11-22T09:00:00.000Z");
let clock = START;
let sandbox: Sandbox;

interface Page {
  data: Message[];
  pageData: PageData;
}

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

async function page(query: string, path = "/campaigns/cmp-live/messages"): Promise<Page> {
  const { status, body } = await get<Page>(`${path}?${query}`);
  expect(status).toBe(200);
  return body;
}

const serial = (message: { id: string }) => Number(message.id.slice("msg-live-".length));

beforeAll(async () => {
  sandbox = await startSandbox({ live: { ratePerSecond: 5 }, clock: () => clock, now: START });
});
afterAll(() => sandbox.close());

describe("the live campaign", () => {
  it("is listed with the others and starts with ten minutes of history", async () => {
    expect(sandbox.campaigns.find((campaign) => campaign.id === "cmp-live")).toMatchObject({ live: true });
    clock = START;
    const first = await page("limit=1");
    // 5 per second for 600 s: message 2999 is the newest (or 3000, if it fell on the very millisecond).
    expect(serial(first.data[0]!)).toBeGreaterThanOrEqual(2999);
    expect(serial(first.data[0]!)).toBeLessThanOrEqual(3000);
  });

  it("grows with the clock, newest first, and answers the same at the same moment", async () => {
    clock = START;
    const before = await page("limit=1000");
    clock = START + 20_000;
    const after = await page("limit=1000");
    const again = await page("limit=1000");
    expect(again).toEqual(after);
    const grown = serial(after.data[0]!) - serial(before.data[0]!);
    expect(grown).toBeGreaterThanOrEqual(99);
    expect(grown).toBeLessThanOrEqual(101);
    const serials = after.data.map(serial);
    expect(serials).toEqual([...serials].sort((a, b) => b - a));
    for (let i = 1; i < after.data.length; i++)
      expect(Date.parse(after.data[i - 1]!.createdAt) >= Date.parse(after.data[i]!.createdAt)).toBe(true);
  });

  it("keeps a cursor's meaning while messages arrive: before= finds exactly the new ones", async () => {
    clock = START + 60_000;
    const head = await page("limit=5");
    const newestCursor = head.pageData.startCursor!;
    const older = await page(`limit=5&after=${head.pageData.endCursor}`);
    clock = START + 63_000;
    const newer = await page(`limit=1000&before=${newestCursor}`);
    const count = serial(newer.data[0]!) - serial(head.data[0]!);
    expect(newer.data.map(serial)).toEqual(Array.from({ length: count }, (_, i) => serial(head.data[0]!) + count - i));
    expect(newer.pageData.hasPreviousPage).toBe(false);
    expect(newer.pageData.hasNextPage).toBe(true);
    // The same cursor, later, still leads to the same older messages.
    expect((await page(`limit=5&after=${head.pageData.endCursor}`)).data.map((m) => m.id)).toEqual(
      older.data.map((m) => m.id),
    );
  });

  it("pages a burst larger than one page with before= and startCursor", async () => {
    clock = START + 100_000;
    const head = await page("limit=1");
    clock = START + 130_000; // about 150 new messages
    const seen: number[] = [];
    let cursor = head.pageData.startCursor!;
    for (let guard = 0; guard < 20; guard++) {
      const burst = await page(`limit=40&before=${cursor}`);
      seen.push(...burst.data.map(serial).reverse());
      if (!burst.pageData.hasPreviousPage) break;
      cursor = burst.pageData.startCursor!;
    }
    const newest = serial((await page("limit=1")).data[0]!);
    expect(seen).toEqual(
      Array.from({ length: newest - serial(head.data[0]!) }, (_, i) => serial(head.data[0]!) + 1 + i),
    );
  });

  it("takes a new message from created with a sent attempt to a final status that never changes", async () => {
    clock = START + 200_000;
    const fresh = (await page("limit=1")).data[0]!;
    expect(fresh.latestStatus).toBe("created");
    expect(fresh.messageAttempts?.[0]?.status).toBe("sent");
    let final: string | undefined;
    for (let t = 200_000; t <= 260_000; t += 500) {
      clock = START + t;
      const { status, body } = await get<Message>(`/campaigns/cmp-live/messages/${fresh.id}`);
      expect(status).toBe(200);
      if (final !== undefined) expect(body.latestStatus).toBe(final);
      else if (body.latestStatus !== "created") final = body.latestStatus;
    }
    expect(["success", "failure"]).toContain(final);
  });

  it("settles most messages on success, fails some, and retries some before the end", async () => {
    clock = START + 10 * 60_000;
    const settled = (await page("limit=1000&after=" + (await page("limit=200")).pageData.endCursor)).data;
    const statuses = new Map<string, number>();
    for (const message of settled) statuses.set(message.latestStatus, (statuses.get(message.latestStatus) ?? 0) + 1);
    expect(statuses.get("success")! / settled.length).toBeGreaterThan(0.7);
    expect(statuses.get("failure")).toBeGreaterThan(0);
    expect(settled.some((message) => (message.numAttempts ?? 0) > 1)).toBe(true);
    for (const message of settled.filter((m) => m.latestStatus === "failure")) {
      const last = message.messageAttempts![message.messageAttempts!.length - 1]!;
      expect([last.errorType, last.errorCode].every((value) => typeof value === "string")).toBe(true);
    }
  });

  it("has no message before its time: 404 until it is created", async () => {
    clock = START;
    const newest = serial((await page("limit=1")).data[0]!);
    const next = `msg-live-${String(newest + 1).padStart(7, "0")}`;
    expect((await get(`/campaigns/cmp-live/messages/${next}`)).status).toBe(404);
    clock = START + 2_000;
    expect((await get(`/campaigns/cmp-live/messages/${next}`)).status).toBe(200);
  });

  it("groups messages in batches of 1000 that appear as they start", async () => {
    clock = START;
    const listing = await page("limit=1000", "/campaigns/cmp-live/batch/bat-live-3/messages");
    expect(listing.data.map(serial)).toEqual(
      Array.from(
        { length: Math.min(1000, serial((await page("limit=1")).data[0]!) - 1999) },
        (_, i) => serial(listing.data[0]!) - i,
      ),
    );
    expect(listing.data.every((message) => message.batches === undefined && message.batchId === undefined)).toBe(true);
    const inCampaign = (await page("limit=1")).data[0]!;
    expect(inCampaign.batchId).toBe("bat-live-3");
    expect(inCampaign.batches?.[0]).toMatchObject({
      id: "bat-live-3",
      originalFileName: "live-upload-3.csv",
      totalMessages: 1000,
    });
    expect((await get("/campaigns/cmp-live/batch/bat-live-9/messages?limit=1")).status).toBe(404);
  });
});
