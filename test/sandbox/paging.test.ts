import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW, firstOrderViolation, getPage, pageBackward, pageForward } from "./http-helpers.js";

const SPRING = "/campaigns/cmp-spring-sale/messages";
const OTP = "/campaigns/cmp-otp-alerts/messages";
const ids = (messages: Message[]) => messages.map((m) => m.id);

let sandbox: Sandbox;
let reference: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW, seed: 7 });
  reference = (await pageForward(sandbox.url, SPRING, 1000)).messages;
});
afterAll(() => sandbox.close());

describe("paging forward with after", () => {
  it("covers the campaign without gap or duplicate, newest first then by id", () => {
    expect(reference).toHaveLength(5000);
    expect(new Set(ids(reference)).size).toBe(5000);
    expect(firstOrderViolation(reference)).toBeUndefined();
  });

  it.each([7, 100, 999])("gives the same sequence at limit %i", async (limit) => {
    const { messages, pages } = await pageForward(sandbox.url, SPRING, limit);
    expect(ids(messages)).toEqual(ids(reference));
    expect(pages).toHaveLength(Math.ceil(5000 / limit));
    for (const page of pages.slice(0, -1)) expect(page.data).toHaveLength(limit);
  });

  it("pages a small campaign one message at a time", async () => {
    const whole = await getPage(sandbox.url, OTP, { limit: 1000 });
    const { messages, pages } = await pageForward(sandbox.url, OTP, 1);
    expect(pages).toHaveLength(100);
    expect(ids(messages)).toEqual(ids(whole.data));
    expect(firstOrderViolation(messages)).toBeUndefined();
  });

  it("sets the flags at both ends, and both false when everything fits one page", async () => {
    const { pages } = await pageForward(sandbox.url, SPRING, 1000);
    expect(pages[0]?.pageData).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(pages[2]?.pageData).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(pages[4]?.pageData).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const single = await getPage(sandbox.url, OTP, { limit: 100 });
    expect(single.data).toHaveLength(100);
    expect(single.pageData).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const almost = await getPage(sandbox.url, OTP, { limit: 99 });
    expect(almost.pageData).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it("gives startCursor and endCursor of the first and last message", async () => {
    const page = await getPage(sandbox.url, SPRING, { limit: 5 });
    const fromStart = await getPage(sandbox.url, SPRING, { limit: 1, after: page.pageData.startCursor });
    expect(fromStart.data[0]?.id).toBe(page.data[1]?.id);
    const fromEnd = await getPage(sandbox.url, SPRING, { limit: 1, after: page.pageData.endCursor });
    expect(fromEnd.data[0]?.id).toBe(reference[5]?.id);
  });

  it("keeps cursors stable across page sizes", async () => {
    const seven = await getPage(sandbox.url, SPRING, { limit: 7 });
    const four = await getPage(sandbox.url, SPRING, { limit: 4 });
    const three = await getPage(sandbox.url, SPRING, { limit: 3, after: four.pageData.endCursor });
    expect(ids(three.data)).toEqual(ids(reference.slice(4, 7)));
    expect(three.pageData.endCursor).toBe(seven.pageData.endCursor);
    const hundred = await getPage(sandbox.url, SPRING, { limit: 100, after: seven.pageData.endCursor });
    expect(ids(hundred.data)).toEqual(ids(reference.slice(7, 107)));
  });

  it("answers past the end with an empty page without cursors", async () => {
    const last = await getPage(sandbox.url, OTP, { limit: 100 });
    const beyond = await getPage(sandbox.url, OTP, { limit: 10, after: last.pageData.endCursor });
    expect(beyond).toEqual({ data: [], pageData: { hasNextPage: false, hasPreviousPage: true } });
    const before = await getPage(sandbox.url, OTP, { limit: 10, before: last.pageData.startCursor });
    expect(before).toEqual({ data: [], pageData: { hasNextPage: true, hasPreviousPage: false } });
  });
});

describe("paging backward with before", () => {
  it.each([7, 1000])("reproduces the sequence at limit %i", async (limit) => {
    const tail = await pageForward(sandbox.url, SPRING, 1000);
    const lastCursor = tail.pages[tail.pages.length - 1]?.pageData.endCursor as string;
    const { messages, pages } = await pageBackward(sandbox.url, SPRING, limit, lastCursor);
    expect(ids(messages)).toEqual(ids(reference.slice(0, -1)));
    expect(pages[0]?.pageData.hasPreviousPage).toBe(false);
    for (const page of pages) expect(page.pageData.hasNextPage).toBe(true);
    // Pages before a cursor are the `limit` messages immediately preceding it, still newest first.
    expect(ids(pages[pages.length - 1]?.data ?? [])).toEqual(ids(reference.slice(-1 - limit, -1)));
  });
});

describe("batch listing paging", () => {
  it("pages a batch forward and back", async () => {
    const batch = sandbox.campaigns[0]?.batches[1];
    if (!batch) throw new Error("spring sale has no second batch");
    const path = `/campaigns/cmp-spring-sale/batch/${batch.id}/messages`;
    const expected = reference.filter((m) => m.batchId === batch.id);
    const forward = await pageForward(sandbox.url, path, 100);
    expect(ids(forward.messages)).toEqual(ids(expected));
    expect(forward.pages[0]?.pageData.hasPreviousPage).toBe(false);
    const lastCursor = forward.pages[forward.pages.length - 1]?.pageData.endCursor as string;
    const backward = await pageBackward(sandbox.url, path, 33, lastCursor);
    expect(ids(backward.messages)).toEqual(ids(expected.slice(0, -1)));
  });
});

describe("search", () => {
  const fullScan = () => reference.filter((m) => m.recipient.includes("11"));

  it("returns every message whose recipient contains the substring, and no other", async () => {
    const { messages, pages } = await pageForward(sandbox.url, SPRING, 50, { search: "11" });
    expect(messages.length).toBeGreaterThan(50);
    expect(messages.length).toBeLessThan(reference.length);
    for (const message of messages) expect(message.recipient).toContain("11");
    expect(ids(messages)).toEqual(ids(fullScan()));
    expect(pages[0]?.pageData).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    expect(pages[pages.length - 1]?.pageData).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it("pages the filtered sequence backward", async () => {
    const { pages } = await pageForward(sandbox.url, SPRING, 1000, { search: "11" });
    const lastCursor = pages[pages.length - 1]?.pageData.endCursor as string;
    const backward = await pageBackward(sandbox.url, SPRING, 17, lastCursor, { search: "11" });
    expect(ids(backward.messages)).toEqual(ids(fullScan().slice(0, -1)));
    expect(backward.pages[0]?.pageData.hasPreviousPage).toBe(false);
  });

  it("sets both flags false when the matches fit one page", async () => {
    const target = reference[1234] as Message;
    const page = await getPage(sandbox.url, SPRING, { limit: 10, search: target.recipient });
    expect(ids(page.data)).toContain(target.id);
    expect(ids(page.data)).toEqual(ids(reference.filter((m) => m.recipient.includes(target.recipient))));
    expect(page.pageData).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it("answers a search without matches with an empty page", async () => {
    for (const search of ["0000000000000", "abc", "+44"]) {
      const page = await getPage(sandbox.url, SPRING, { limit: 10, search });
      expect(page).toEqual({ data: [], pageData: { hasNextPage: false, hasPreviousPage: false } });
    }
  });

  it("applies to batch listings too", async () => {
    const batch = sandbox.campaigns[0]?.batches[0];
    if (!batch) throw new Error("no batch");
    const { messages } = await pageForward(sandbox.url, `/campaigns/cmp-spring-sale/batch/${batch.id}/messages`, 20, {
      search: "7",
    });
    expect(ids(messages)).toEqual(ids(reference.filter((m) => m.batchId === batch.id && m.recipient.includes("7"))));
  });
});
