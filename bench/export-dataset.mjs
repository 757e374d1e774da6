// The bench of `msgstat export` (issue 24): twelve campaigns of the sandbox (`--campaigns 12`) exported
// to a fresh folder, then again after 1 % of the messages changed status, then again unchanged. Two ways
// for 1 % to change: the newest 1 % of each campaign (messages still being delivered, as a nightly run
// sees them) and 1 % spread over every day (the worst case for partitions). The sandbox runs in this
// process (its `transform` flips the statuses); msgstat, the built bin, in a child measured for wall
// time, CPU time and peak RSS.
//
//   node scripts/build.mjs && node bench/export-dataset.mjs
//   BENCH_EXPORT_MESSAGES=20000   messages per campaign
//   BENCH_EXPORT_FORMAT=parquet   or jsonl.gz
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { BIN, processes } from "./lib/processes.mjs";
import { startSandbox } from "../dist/sandbox.js";

const CAMPAIGNS = 12;
const size = Number(process.env.BENCH_EXPORT_MESSAGES ?? 20_000);
const format = process.env.BENCH_EXPORT_FORMAT ?? "parquet";
const scratch = mkdtempSync(path.join(os.tmpdir(), "msgstat-bench-export-"));
const { measure, rssMethod } = processes({ scratch, childEnv: { PATH: process.env.PATH, TZ: "UTC" } });
const ids = Array.from({ length: CAMPAIGNS }, (_, i) => `cmp-many-${String(i + 1).padStart(2, "0")}`);

/** Which messages have changed: none, the newest 1 % of each campaign, or 1 % chosen by a hash of the id. */
let changed = () => false;
const newestOnePercent = (message, index) => index < size / 100;
const anyOnePercent = (message) => createHash("sha1").update(message.id).digest().readUInt32BE(0) % 100 === 0;

const sandbox = await startSandbox({
  seed: 1,
  messages: size,
  campaigns: CAMPAIGNS,
  now: Date.parse("2026-11-22T12:00:00.000Z"),
  transform: (body, { query }) => {
    // A page's messages are at positions after the cursor's: index only the first page's, which holds the
    // newest; the hash rule needs no index.
    const first = !query.has("after");
    body.data?.forEach((message, i) => {
      if (changed(message, first ? i : Number.POSITIVE_INFINITY))
        message.latestStatus = message.latestStatus === "success" ? "failure" : "success";
    });
    return body;
  },
});

function diskBytes(dir) {
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stat = statSync(path.join(dir, name));
    if (stat.isFile()) bytes += stat.size;
  }
  return bytes;
}

async function run(dir, label) {
  const result = await measure(process.execPath, [
    BIN,
    "--base-url",
    sandbox.url,
    "export",
    ...ids,
    "--to",
    dir,
    "--format",
    format,
  ]);
  const summary = result.stderr.trim().split("\n").pop();
  const mb = (kb) => (kb === null ? "n/a" : `${(kb / 1024).toFixed(0)} MB`);
  console.log(
    `| ${label} | ${(result.wallMs / 1000).toFixed(2)} s | ${result.cpuMs === null ? "n/a" : `${(result.cpuMs / 1000).toFixed(2)} s`} ` +
      `| ${mb(result.peakRssKB)} | ${(diskBytes(dir) / 1e6).toFixed(1)} MB | ${summary} |`,
  );
}

console.log(
  `export of ${CAMPAIGNS} campaigns of ${size.toLocaleString("en-US")} messages (${(CAMPAIGNS * size).toLocaleString("en-US")} in all), ` +
    `--format ${format}, sandbox in-process on loopback; peak RSS by ${rssMethod.describe}`,
);
console.log("");
console.log("| run | wall | CPU | peak RSS | dataset on disk | summary |");
console.log("|---|---|---|---|---|---|");
try {
  for (const [name, rule] of [
    ["newest 1 % of each campaign changed", newestOnePercent],
    ["1 % spread over every day changed", anyOnePercent],
  ]) {
    const dir = path.join(scratch, name.replace(/\W+/g, "-"));
    changed = () => false;
    await run(dir, "first run");
    changed = rule;
    await run(dir, `second run, ${name}`);
    await run(dir, "third run, nothing changed");
  }
} finally {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}
