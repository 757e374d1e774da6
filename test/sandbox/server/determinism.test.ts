import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, type Page } from "../http-helpers.js";

let first: Sandbox;
let twin: Sandbox;
let otherSeed: Sandbox;
let otherNow: Sandbox;

beforeAll(async () => {
  [first, twin, otherSeed, otherNow] = await Promise.all([
    startSandbox({ now: FIXED_NOW, seed: 42 }),
    startSandbox({ now: new Date(FIXED_NOW), seed: 42 }),
    startSandbox({ now: FIXED_NOW, seed: 43 }),
    startSandbox({ now: FIXED_NOW + 3_600_000, seed: 42 }),
  ]);
});
afterAll(() => Promise.all([first, twin, otherSeed, otherNow].map((s) => s.close())));

async function text(sandbox: Sandbox, path: string): Promise<string> {
  const response = await fetch(`${sandbox.url}${path}`);
  expect(response.status).toBe(200);
  return response.text();
}

describe("determinism", () => {
  it("serves byte-identical responses from the same seed and now", async () => {
    const firstPage = JSON.parse(await text(first, "/campaigns/cmp-spring-sale/messages?limit=100")) as Page;
    const paths = [
      "/campaigns/cmp-spring-sale/messages?limit=100",
      `/campaigns/cmp-spring-sale/messages?limit=100&after=${firstPage.pageData.endCursor}`,
      "/campaigns/cmp-loyalty-es/batch/bat-loyalty-w1/messages?limit=50&search=5",
      "/campaigns/cmp-spring-sale/messages/msg-spring-0004321",
      "/campaigns/cmp-otp-alerts/messages?limit=1000",
    ];
    for (const path of paths) expect(await text(twin, path), path).toBe(await text(first, path));
    expect(twin.campaigns).toEqual(first.campaigns);
  });

  it("serves different data for another seed, and shifted times for another now", async () => {
    const path = "/campaigns/cmp-spring-sale/messages?limit=50";
    const base = JSON.parse(await text(first, path)) as Page;
    const seeded = JSON.parse(await text(otherSeed, path)) as Page;
    const later = JSON.parse(await text(otherNow, path)) as Page;
    expect(seeded.data.map((m) => m.recipient)).not.toEqual(base.data.map((m) => m.recipient));
    expect(later.data.map((m) => m.recipient)).toEqual(base.data.map((m) => m.recipient));
    expect(Date.parse(later.data[10]?.createdAt ?? "")).toBe(Date.parse(base.data[10]?.createdAt ?? "") + 3_600_000);
  });

  it("floors the default now to the minute", async () => {
    const sandbox = await startSandbox({ messages: 10 });
    try {
      const page = JSON.parse(await text(sandbox, "/campaigns/cmp-spring-sale/messages?limit=1")) as Page;
      const age = Date.now() - Date.parse(page.data[0]?.createdAt ?? "");
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThan(4 * 60_000);
    } finally {
      await sandbox.close();
    }
  });
});
