// Measures what docs/dev/sandbox.md reports ("Measured cost"): the cost of building a 1000-message page, of serving
// pages over HTTP, and the process's memory while paging through a 1,000,000-message campaign.
// Not a test (vitest ignores it). Run:
//   npx esbuild test/sandbox/measure-cost.ts --bundle --platform=node --format=esm --outfile=/tmp/measure-cost.mjs && node /tmp/measure-cost.mjs
import { planCampaigns } from "../../src/sandbox/campaigns.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { deriveMessage } from "../../src/sandbox/messages.js";

const SIZE = 1_000_000;
const NOW = Date.parse("2025-05-01T12:00:00.000Z");
const MB = 1024 * 1024;

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? Number.NaN;
const round = (value: number) => Math.round(value * 100) / 100;

function measureBuilding(): void {
  const plan = planCampaigns(1, SIZE, NOW)[0];
  if (!plan) throw new Error("no campaign");
  const build: number[] = [];
  const stringify: number[] = [];
  let bytes = 0;
  for (let run = 0; run < 300; run++) {
    const start = (run * 3331) % (SIZE - 1000);
    const t0 = performance.now();
    const data = [];
    for (let i = start; i < start + 1000; i++) data.push(deriveMessage(plan, i, "campaign"));
    const t1 = performance.now();
    bytes = JSON.stringify({ data }).length;
    build.push(t1 - t0);
    stringify.push(performance.now() - t1);
  }
  // The first 50 runs warm the JIT up; they are left out.
  const steady = (values: number[]) => values.slice(50);
  console.log(
    JSON.stringify({
      step: "build 1000-message page (in process)",
      buildMedianMs: round(percentile(steady(build), 0.5)),
      buildP95Ms: round(percentile(steady(build), 0.95)),
      stringifyMedianMs: round(percentile(steady(stringify), 0.5)),
      pageChars: bytes,
    }),
  );
}

async function measurePaging(): Promise<void> {
  const sandbox = await startSandbox({ messages: SIZE, now: NOW });
  const pageMs: number[] = [];
  const memory: { page: number; rssMB: number; heapUsedMB: number }[] = [];
  let maxRss = 0;
  let after: string | undefined;
  const started = performance.now();
  for (let page = 1; ; page++) {
    const t0 = performance.now();
    const response = await fetch(
      `${sandbox.url}/campaigns/cmp-spring-sale/messages?limit=1000${after ? `&after=${after}` : ""}`,
    );
    const text = await response.text();
    pageMs.push(performance.now() - t0);
    // Only pageData is read: the client side should cost as little memory as possible here.
    const tail = text.slice(text.lastIndexOf('"pageData":'));
    const { pageData } = JSON.parse(`{${tail}`) as { pageData: { hasNextPage: boolean; endCursor?: string } };
    const usage = process.memoryUsage();
    maxRss = Math.max(maxRss, usage.rss);
    if (page % 100 === 0)
      memory.push({ page, rssMB: Math.round(usage.rss / MB), heapUsedMB: Math.round(usage.heapUsed / MB) });
    if (!pageData.hasNextPage) break;
    after = pageData.endCursor;
  }
  const totalS = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      step: "page 1M over HTTP, limit 1000",
      pages: pageMs.length,
      totalSeconds: round(totalS),
      pageMedianMs: round(percentile(pageMs, 0.5)),
      pageP95Ms: round(percentile(pageMs, 0.95)),
      maxRssMB: Math.round(maxRss / MB),
      memory,
    }),
  );

  for (const [label, search] of [
    ["search '11', first page of 1000", "11"],
    ["search without match (full scan of 1M)", "12345678901234"],
  ] as const) {
    const t0 = performance.now();
    await (await fetch(`${sandbox.url}/campaigns/cmp-spring-sale/messages?limit=1000&search=${search}`)).text();
    console.log(JSON.stringify({ step: label, ms: round(performance.now() - t0) }));
  }
  await sandbox.close();
}

measureBuilding();
await measurePaging();
