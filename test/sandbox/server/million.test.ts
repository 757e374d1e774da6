// A 1,000,000-message campaign paged end to end: nothing about the campaign may stay in memory.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, getPage } from "../http-helpers.js";

const SIZE = 1_000_000;
const MB = 1024 * 1024;

/** A full collection, so heap figures compare live data rather than garbage not yet collected. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ messages: SIZE, now: FIXED_NOW });
});
afterAll(() => sandbox.close());

describe("a 1,000,000-message campaign", () => {
  it("pages end to end in 1000 pages of 1000, ordered, without gap or duplicate, in flat memory", async () => {
    expect(sandbox.campaigns[0]?.size).toBe(SIZE);
    let after: string | undefined;
    let previous: Message | undefined;
    let count = 0;
    let ties = 0;
    let pages = 0;
    let heapAfter100 = 0;
    for (;;) {
      const page = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 1000, after });
      pages++;
      for (const message of page.data) {
        // Ids are fixed-width serials, so strictly increasing ids mean no gap, no duplicate, no reordering.
        // (A plain comparison: a million expect() calls would cost seconds of CPU a loaded machine lacks.)
        const wanted = `msg-spring-${String(count).padStart(7, "0")}`;
        if (message.id !== wanted) throw new Error(`expected ${wanted}, got ${message.id}`);
        if (previous) {
          const gap = Date.parse(previous.createdAt) - Date.parse(message.createdAt);
          if (gap < 0 || (gap === 0 && !(previous.id < message.id))) throw new Error(`order broken at ${message.id}`);
          if (gap === 0) ties++;
        }
        previous = message;
        count++;
      }
      if (pages === 100) heapAfter100 = heapUsed();
      if (!page.pageData.hasNextPage) break;
      after = page.pageData.endCursor;
    }
    const heapAfterAll = heapUsed();
    expect(pages).toBe(1000);
    expect(count).toBe(SIZE);
    expect(ties).toBeGreaterThan(1000);
    // Holding the campaign would cost gigabytes; what remains is noise of a few MB.
    expect(heapAfterAll - heapAfter100).toBeLessThan(32 * MB);
  }, 180_000);

  it("finds a message and searches near the end of the campaign quickly", async () => {
    // CPU time of this process (the sandbox runs in it), not wall time: other work on the machine does not count.
    const started = process.cpuUsage();
    const message = await fetch(`${sandbox.url}/campaigns/cmp-spring-sale/messages/msg-spring-0999999`);
    expect(message.status).toBe(200);
    const page = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 1000, search: "1234" });
    expect(page.data.length).toBe(1000);
    for (const found of page.data) expect(found.recipient).toContain("1234");
    const none = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", {
      limit: 10,
      search: "12345678901234",
    });
    expect(none.data).toHaveLength(0);
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(10_000);
  });
});
