// --campaigns N: generated campaigns, each of `messages` messages, deterministic, their times interleaving.
import { describe, expect, it, onTestFinished } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW, type Page } from "./http-helpers.js";

async function sandbox(seed = 1) {
  const started = await startSandbox({ now: FIXED_NOW, seed, messages: 300, campaigns: 3 });
  onTestFinished(() => started.close());
  return started;
}

async function page(url: string, campaignId: string): Promise<{ text: string; body: Page }> {
  const response = await fetch(`${url}/campaigns/${campaignId}/messages?limit=1000`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as Page };
}

describe("generated campaigns (--campaigns)", () => {
  it("adds cmp-many-01.. of `messages` each, after the usual four, each with one batch", async () => {
    const { campaigns } = await sandbox();
    expect(campaigns.map((c) => [c.id, c.size])).toEqual([
      ["cmp-spring-sale", 300],
      ["cmp-loyalty-es", 60],
      ["cmp-otp-alerts", 6],
      ["cmp-empty", 0],
      ["cmp-many-01", 300],
      ["cmp-many-02", 300],
      ["cmp-many-03", 300],
    ]);
    expect(campaigns[4]!.batches.map((b) => [b.id, b.size])).toEqual([["bat-many01-w1", 60]]);
  });

  it("serves the same bytes for the same seed, and other ones for another", async () => {
    const [a, b, c] = await Promise.all([sandbox(), sandbox(), sandbox(2)]);
    const first = await page(a.url, "cmp-many-02");
    expect((await page(b.url, "cmp-many-02")).text).toBe(first.text);
    expect((await page(c.url, "cmp-many-02")).text).not.toBe(first.text);
    expect(first.body.data.every((m) => m.campaignId === "cmp-many-02")).toBe(true);
  });

  it("lists each campaign newest first, with times that interleave across campaigns", async () => {
    const { url } = await sandbox();
    const times = await Promise.all(
      ["cmp-many-01", "cmp-many-02"].map(async (id) =>
        (await page(url, id)).body.data.map((m) => Date.parse(m.createdAt)),
      ),
    );
    for (const list of times) expect(list).toEqual([...list].sort((x, y) => y - x));
    const [one, two] = times as [number[], number[]];
    // Some messages of the second campaign fall between two of the first, all along the three weeks.
    const between = two.filter((t) => one.some((u, i) => i > 0 && one[i - 1]! >= t && t >= u)).length;
    expect(between).toBeGreaterThan(250);
  });

  it("refuses a count out of range", async () => {
    await expect(startSandbox({ campaigns: 1001 })).rejects.toThrow("campaigns must be a whole number from 0 to 1000");
  });
});
