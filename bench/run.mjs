// `npm run bench`: msgstat as a user runs it (bin/msgstat.js, a new process per run, real HTTP to the
// sandbox in a process of its own), side by side with the floors and the curl+jq peer on the same
// pages, repeated, medians reported. Prints one table; writes bench/results/latest.{json,md}.
//
//   node bench/run.mjs [--quick]
//   BENCH_SIZES=100000,1000000  campaign sizes to export           (--quick: 2000)
//   BENCH_REPEAT                runs of each export and floor row: default 3, and 2 for a size of a
//                               million or more, to keep a full run near ten minutes (--quick: 1)
//   BENCH_PEER_REPEAT=1         runs of the curl+jq row (slow; see docs/bench.md)
//   BENCH_STARTUP_REPEAT=40     runs of each start-up row          (--quick: 3)
//   BENCH_LATENCY_MS=20         the sandbox's --latency for the latency row
//   BENCH_LATENCY_SIZE          campaign size of the latency row   (default: the smallest size)
//   BENCH_OUT=bench/results     where latest.json and latest.md go
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(root, "bin", "msgstat.js");
const FLOOR = path.join(root, "bench", "floor.mjs");
const PEER = path.join(root, "bench", "curl-jq.sh");
const PROBE = path.join(root, "bench", "lib", "peak-rss.mjs");
const GNU_TIME = "/usr/bin/time";
// Exports in each format, and `stats`, which reads the same listing and keeps counts only.
const FORMATS = ["csv", "jsonl", "json", "table", "stats"];
const MB = 1024; // peak RSS is measured in kB

const quick = process.argv.includes("--quick");
const config = readConfig();
const scratch = mkdtempSync(path.join(os.tmpdir(), "msgstat-bench-"));
const childEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? scratch, TMPDIR: scratch, TZ: "UTC", NO_COLOR: "1" };
const rssMethod = detectRssMethod();
const peer = detectPeer();
const notes = [];
const samples = new Map(); // row id -> { meta, walls: [], rss: [], extra }
const sandboxes = new Set();

function readConfig() {
  const int = (name, fallback, min = 1) => {
    const text = process.env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, not "${text}"`);
    return value;
  };
  const sizes = (process.env.BENCH_SIZES || (quick ? "2000" : "100000,1000000")).split(",").map((part) => Number(part.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`BENCH_SIZES must be whole numbers ≥ 1, not "${process.env.BENCH_SIZES}"`);
  sizes.sort((a, b) => a - b);
  return {
    quick,
    sizes: [...new Set(sizes)],
    repeat: process.env.BENCH_REPEAT ? int("BENCH_REPEAT", 3) : undefined,
    peerRepeat: int("BENCH_PEER_REPEAT", 1),
    startupRepeat: int("BENCH_STARTUP_REPEAT", quick ? 3 : 40),
    latencyMs: int("BENCH_LATENCY_MS", 20),
    latencySize: int("BENCH_LATENCY_SIZE", sizes[0]),
    outDir: path.resolve(process.env.BENCH_OUT || path.join(root, "bench", "results")),
  };
}

function repeatFor(size) {
  return config.repeat ?? (quick ? 1 : size >= 1_000_000 ? 2 : 3);
}

function detectRssMethod() {
  const probe = spawnSync(GNU_TIME, ["-f", "%M", "-o", path.join(scratch, "time-check"), process.execPath, "-e", "0"], { stdio: "ignore" });
  if (probe.status === 0 && /^\d+\s*$/.test(readFileSync(path.join(scratch, "time-check"), "utf8"))) {
    return { kind: "time", describe: "GNU time: /usr/bin/time -f %M around the process (its ru_maxrss, the kernel's peak RSS)" };
  }
  return { kind: "probe", describe: "VmHWM of /proc/self/status read at exit by a preloaded module (node --import bench/lib/peak-rss.mjs); GNU time was not found" };
}

function detectPeer() {
  const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;
  const missing = ["bash", "curl", "jq"].filter((tool) => !has(tool));
  return missing.length === 0 ? { available: true } : { available: false, note: `curl+jq row skipped: ${missing.join(", ")} not installed (apt-get install curl jq)` };
}

// ---------------------------------------------------------------------------------------------
// Processes

let runCount = 0;
/** Runs one process to its end: wall time from spawn to exit, peak RSS, and what it wrote to stdout. */
function measure(command, args, { env = {}, rss = true, capture = false, timeoutMs = 20 * 60_000 } = {}) {
  let file = command;
  let argv = args;
  const extraEnv = { ...env };
  let rssFile;
  if (rss) {
    rssFile = path.join(scratch, `rss-${++runCount}`);
    if (rssMethod.kind === "time") {
      file = GNU_TIME;
      argv = ["-f", "%M", "-o", rssFile, command, ...args];
    } else if (command === process.execPath) {
      argv = ["--import", pathToFileURL(PROBE).href, ...args];
      extraEnv.BENCH_PEAK_RSS_FILE = rssFile;
    } else {
      rssFile = undefined;
    }
  }
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { env: { ...childEnv, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    let lines = 0;
    const kept = [];
    let stderr = "";
    let wallMs;
    child.stdout.on("data", (chunk) => {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (capture) kept.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (text) => {
      if (stderr.length < 20_000) stderr += text;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("exit", () => {
      wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`${path.basename(command)} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr.trim()}`));
        return;
      }
      let peakRssKB = null;
      if (rssFile && existsSync(rssFile)) {
        const value = Number.parseInt(readFileSync(rssFile, "utf8").trim().split("\n").pop(), 10);
        peakRssKB = Number.isFinite(value) ? value : null;
      }
      resolve({ wallMs, peakRssKB, bytes, lines, stdout: capture ? Buffer.concat(kept).toString("utf8") : undefined, stderr });
    });
  });
}

/** The sandbox in a process of its own; it prints its URL, then `campaign <id> <size>` lines, in one write. */
async function startSandbox(messages, latencyMs = 0) {
  const args = [BIN, "sandbox", "--messages", String(messages), "--port", "0"];
  if (latencyMs > 0) args.push("--latency", String(latencyMs));
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  /** The sandbox's own peak resident set (VmHWM), read while it still runs. */
  const peakRssKB = () => {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
    return match ? Number(match[1]) : null;
  };
  const stop = async () => {
    sandboxes.delete(stop);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  };
  sandboxes.add(stop);
  let text = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the sandbox did not print its URL within 30 s")), 30_000);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      text += chunk;
      if (/\ncampaign \S+ \d+\n/.test(text) && text.endsWith("\n")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before it was ready:\n${stderr.trim()}`));
    });
  });
  const lines = text.trim().split("\n");
  const url = lines[0].trim();
  const campaigns = lines.filter((line) => line.startsWith("campaign ")).map((line) => {
    const [, id, size] = line.split(" ");
    return { id, size: Number(size) };
  });
  const largest = campaigns.reduce((best, campaign) => (campaign.size > best.size ? campaign : best));
  if (largest.size !== messages) throw new Error(`asked the sandbox for ${messages} messages, its largest campaign has ${largest.size}`);
  const response = await fetch(`${url}/campaigns/${encodeURIComponent(largest.id)}/messages?limit=1`);
  const first = await response.json();
  const messageId = first?.data?.[0]?.id;
  if (typeof messageId !== "string") throw new Error("the sandbox's first page has no message id");
  return { url, campaign: largest.id, size: largest.size, messageId, stop, peakRssKB };
}

// ---------------------------------------------------------------------------------------------
// Rows

function record(id, meta, result, extra = {}) {
  let entry = samples.get(id);
  if (!entry) samples.set(id, (entry = { id, ...meta, wallMs: [], peakRssKB: [], extra: {} }));
  entry.wallMs.push(round(result.wallMs, 2));
  if (result.peakRssKB !== null && result.peakRssKB !== undefined) entry.peakRssKB.push(result.peakRssKB);
  Object.assign(entry.extra, extra);
}

const msgstat = (sandbox, args) => measure(process.execPath, [BIN, ...args], { env: { MSGSTAT_BASE_URL: sandbox.url } });

async function floor(sandbox, mode, maxPages) {
  const args = [FLOOR, mode, sandbox.url, sandbox.campaign];
  if (maxPages !== undefined) args.push(String(maxPages));
  const result = await measure(process.execPath, args, { capture: true });
  const counts = JSON.parse(result.stdout);
  if (maxPages === undefined && mode !== "raw" && counts.messages !== sandbox.size) throw new Error(`floor ${mode} read ${counts.messages} messages, not ${sandbox.size}`);
  return { result, counts };
}

async function exportRun(sandbox, format) {
  const args = format === "stats" ? ["stats", sandbox.campaign, "--json"] : ["messages", sandbox.campaign, "--all"];
  if (format !== "table" && format !== "stats") args.push(`--${format}`);
  const result = await msgstat(sandbox, args);
  // JSONL has exactly one line per message; CSV and the table may hold newlines inside a message's text.
  if (format === "jsonl" && result.lines !== sandbox.size) throw new Error(`--jsonl wrote ${result.lines} lines for ${sandbox.size} messages`);
  if (result.bytes === 0) throw new Error(`--${format} wrote nothing`);
  return result;
}

async function warmUp(sandbox) {
  // The sandbox's own code is cold on its first pages, and dist/ may not be in the page cache yet.
  await floor(sandbox, "raw", Math.min(20, Math.ceil(sandbox.size / 1000)));
  await msgstat(sandbox, ["messages", sandbox.campaign, "--limit", "1000", "--csv"]);
}

async function exportRows(size) {
  const sandbox = await startSandbox(size);
  try {
    await warmUp(sandbox);
    const at = `@${size}`;
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      for (const mode of ["raw", "parse", "parse-prefetch"]) {
        const { result, counts } = await floor(sandbox, mode);
        record(`floor-${mode}${at}`, { group: "floor", mode, size }, result, { pages: counts.pages, bytes: counts.bytes, tailCursorMisses: counts.tailCursorMisses });
      }
      for (const format of FORMATS) {
        const result = await exportRun(sandbox, format);
        record(`export-${format}${at}`, { group: "export", format, size }, result, { outputBytes: result.bytes });
      }
      if (peer.available && rep < config.peerRepeat) {
        const result = await measure("bash", [PEER, sandbox.url, sandbox.campaign]);
        record(`peer-curl-jq${at}`, { group: "peer", size }, result, { outputBytes: result.bytes });
      }
    }
    if (size === config.sizes[0]) await startupRows(sandbox);
    recordSandboxCost(sandbox, size);
  } finally {
    await sandbox.stop();
  }
}

/**
 * What the sandbox costs at this size: the time of one page as the raw floor (a) saw it, a client that
 * does nothing, and the sandbox process's peak RSS over every row of this size.
 */
function recordSandboxCost(sandbox, size) {
  const raw = samples.get(`floor-raw@${size}`);
  if (!raw || !raw.extra.pages) return;
  const perPageMs = median(raw.wallMs) / raw.extra.pages;
  let rss = null;
  try {
    rss = sandbox.peakRssKB();
  } catch {
    // /proc is Linux's: elsewhere the row has no RSS.
  }
  samples.set(`sandbox@${size}`, { id: `sandbox@${size}`, group: "sandbox", servedSize: size, label: `sandbox: one 1000-message page, ${sizeLabel(size)} campaign`, wallMs: [round(perPageMs, 2)], peakRssKB: rss === null ? [] : [rss], extra: {} });
}

async function latencyRows() {
  const size = config.latencySize;
  const sandbox = await startSandbox(size, config.latencyMs);
  try {
    await warmUp(sandbox);
    const repeat = repeatFor(size);
    for (let rep = 0; rep < repeat; rep++) {
      progress(`--latency ${config.latencyMs}, ${size.toLocaleString("en-US")} messages, run ${rep + 1} of ${repeat}`);
      const { result, counts } = await floor(sandbox, "raw");
      record(`latency-floor-raw@${size}`, { group: "latency-floor", size, latencyMs: config.latencyMs }, result, { pages: counts.pages });
      const exported = await exportRun(sandbox, "csv");
      record(`latency-export-csv@${size}`, { group: "latency", format: "csv", size, latencyMs: config.latencyMs }, exported, { pages: counts.pages });
    }
  } finally {
    await sandbox.stop();
  }
}

async function startupRows(sandbox) {
  const cases = [
    { id: "startup-node", label: "node -e 0", command: process.execPath, args: ["-e", "0"] },
    { id: "startup-version", label: "msgstat --version", command: process.execPath, args: [BIN, "--version"] },
    { id: "startup-help", label: "msgstat --help", command: process.execPath, args: [BIN, "--help"] },
    { id: "startup-message-json", label: "msgstat message <c> <m> --json", command: process.execPath, args: [BIN, "message", sandbox.campaign, sandbox.messageId, "--json"] },
  ];
  for (const { command, args } of cases) await measure(command, args, { rss: false, env: { MSGSTAT_BASE_URL: sandbox.url } });
  for (let rep = 0; rep < config.startupRepeat; rep++) {
    if (rep % 10 === 0) progress(`start-up, run ${rep + 1} of ${config.startupRepeat}`);
    // Interleaved, and spawned directly (no time wrapper): the cases share whatever the machine is doing.
    for (const { id, label, command, args } of cases) {
      const result = await measure(command, args, { rss: false, env: { MSGSTAT_BASE_URL: sandbox.url } });
      record(id, { group: "startup", label }, result);
    }
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

const sizeLabel = (size) => (size >= 1_000_000 && size % 1_000_000 === 0 ? `${size / 1_000_000}M` : size >= 1000 && size % 1000 === 0 ? `${size / 1000}k` : String(size));

function labelOf(entry) {
  const at = entry.size !== undefined ? ` ${sizeLabel(entry.size)}` : "";
  switch (entry.group) {
    case "export":
      if (entry.format === "stats") return `stats --json${at}`;
      return `export --${entry.format}${entry.format === "table" ? " (piped)" : ""}${at}`;
    case "floor":
      return { raw: "(a) raw transfer", parse: "(b) parse floor", "parse-prefetch": "(b') parse floor, pipelined" }[entry.mode] + at;
    case "peer":
      return `(c) curl + jq @csv${at}`;
    case "latency":
      return `export --csv${at}, --latency ${entry.latencyMs}`;
    case "latency-floor":
      return `(a) raw transfer${at}, --latency ${entry.latencyMs}`;
    default:
      return entry.label;
  }
}

function summarise() {
  const rows = [];
  for (const entry of samples.values()) {
    const wall = median(entry.wallMs);
    const rss = median(entry.peakRssKB);
    rows.push({
      id: entry.id,
      label: labelOf(entry),
      group: entry.group,
      format: entry.format,
      mode: entry.mode,
      size: entry.size,
      servedSize: entry.servedSize,
      latencyMs: entry.latencyMs,
      runs: entry.wallMs.length,
      wallMs: entry.wallMs,
      wallMsMedian: round(wall, 2),
      messagesPerSecond: entry.size ? Math.round(entry.size / (wall / 1000)) : null,
      peakRssKB: entry.peakRssKB,
      peakRssMBMedian: rss === null ? null : round(rss / MB, 1),
      ...entry.extra,
    });
  }
  return rows;
}

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
    if (largest !== smallest && small) add(big.id, `peak RSS ÷ ${sizeLabel(smallest)}`, big.peakRssMBMedian / small.peakRssMBMedian, 1.2, "max", small.id);
  }
  const latency = byId.get(`latency-export-csv@${config.latencySize}`);
  if (latency) {
    latency.sumOfLatenciesMs = latency.pages * config.latencyMs;
    add(latency.id, "wall ÷ sum of latencies", latency.wallMsMedian / latency.sumOfLatenciesMs, 1.1, "max");
  }
  const node = byId.get("startup-node");
  if (node) {
    for (const [id, limit] of [["startup-version", 1.5], ["startup-help", 1.5], ["startup-message-json", 3]]) {
      const row = byId.get(id);
      if (row) add(id, "wall ÷ node -e 0", row.wallMsMedian / node.wallMsMedian, limit, "max", node.id);
    }
  }
  return targets;
}

/** Every ratio shown against its row, with or without a target. */
function comparisons(row, byId, targets) {
  const parts = [];
  const ratio = (value) => `${value.toFixed(2)}×`;
  const floorRow = row.size !== undefined ? byId.get(`floor-parse@${row.size}`) : undefined;
  const peerRow = row.size !== undefined ? byId.get(`peer-curl-jq@${row.size}`) : undefined;
  const mark = (text) => {
    const target = targets.find((t) => t.row === row.id && t.text === text);
    return target ? ` (${target.kind === "max" ? "≤" : "≥"} ${target.limit} ${target.met ? "✓" : "✗"})` : "";
  };
  if (row.group === "export" || row.group === "floor") {
    if (floorRow && row.id !== floorRow.id) parts.push(`${ratio(row.wallMsMedian / floorRow.wallMsMedian)} parse floor${mark("wall ÷ parse floor (b)")}`);
    if (peerRow && row.group === "export") parts.push(`curl+jq ${ratio(peerRow.wallMsMedian / row.wallMsMedian)} slower${mark("curl+jq (c) ÷ wall")}`);
    const rssTarget = targets.find((t) => t.row === row.id && t.text.startsWith("peak RSS ÷"));
    if (rssTarget) parts.push(`RSS ${ratio(rssTarget.value)} ${rssTarget.text.slice("peak RSS ÷ ".length)}${mark(rssTarget.text)}`);
    const rssCap = targets.find((t) => t.row === row.id && t.text === "peak RSS, MB");
    if (rssCap) parts.push(`RSS ≤ 150 MB ${rssCap.met ? "✓" : "✗"}`);
  } else if (row.group === "sandbox") {
    parts.push("(a) ÷ its pages; RSS: the sandbox process's peak over every row of this size");
  } else if (row.group === "peer") {
    if (floorRow) parts.push(`${ratio(row.wallMsMedian / floorRow.wallMsMedian)} parse floor`);
  } else if (row.group === "latency") {
    parts.push(`${row.pages} pages × ${row.latencyMs} ms = ${row.sumOfLatenciesMs} ms; ${ratio(row.wallMsMedian / row.sumOfLatenciesMs)} that${mark("wall ÷ sum of latencies")}`);
    const floorAtLatency = byId.get(`latency-floor-raw@${row.size}`);
    if (floorAtLatency) parts.push(`${ratio(row.wallMsMedian / floorAtLatency.wallMsMedian)} raw transfer at this latency`);
  } else if (row.group === "latency-floor") {
    parts.push(`${ratio(row.wallMsMedian / (row.pages * row.latencyMs))} sum of latencies`);
  } else if (row.group === "startup" && row.id !== "startup-node") {
    const node = byId.get("startup-node");
    if (node) parts.push(`${ratio(row.wallMsMedian / node.wallMsMedian)} node -e 0${mark("wall ÷ node -e 0")}`);
  }
  return parts.join("; ");
}

function orderRows(rows) {
  const order = (row) => {
    const groupRank = { floor: 0, sandbox: 0.5, peer: 1, export: 2, "latency-floor": 3, latency: 4, startup: 5 }[row.group];
    const sizeRank = row.group === "startup" ? 0 : config.sizes.indexOf(row.size ?? row.servedSize);
    const inner = row.group === "floor" ? ["raw", "parse", "parse-prefetch"].indexOf(row.mode) : row.group === "export" ? FORMATS.indexOf(row.format) : row.group === "startup" ? ["startup-node", "startup-version", "startup-help", "startup-message-json"].indexOf(row.id) : 0;
    const block = row.group === "latency" || row.group === "latency-floor" || row.group === "startup" ? 100 + groupRank : sizeRank * 10 + groupRank;
    return block * 100 + inner;
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
  const line = (cells) => `| ${cells.map((cell, i) => (right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(" | ")} |`;
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
  if (peer.available && config.sizes.some((size) => config.peerRepeat < repeatFor(size))) {
    notes.push(`curl+jq is run ${config.peerRepeat} time(s) per size (BENCH_PEER_REPEAT); the Runs column gives every row's count`);
  }
  for (const size of config.sizes) await exportRows(size);
  await latencyRows();

  const rows = summarise();
  const targets = targetsFor(rows);
  const table = renderTable(rows, targets);
  const met = targets.filter((target) => target.met).length;
  const durationS = round((performance.now() - began) / 1000, 1);
  const info = machine();
  const heading = `${info.cpus} × ${info.cpuModel}, ${info.memoryGB} GB, ${info.platform}, Node ${info.node}; ${startedAt.toISOString()}; ${durationS} s; load average ${loadBefore.map((v) => v.toFixed(2)).join(" ")} before`;
  const summary = `Targets met: ${met} of ${targets.length}.${targets.filter((t) => !t.met).map((t) => ` Missed: ${labelOf(samples.get(t.row))}, ${t.text} ${t.value} (${t.kind === "max" ? "≤" : "≥"} ${t.limit}).`).join("")}`;
  const footer = [summary, `Peak RSS: ${rssMethod.describe}.`, ...notes].join("\n");

  const results = {
    generatedAt: startedAt.toISOString(),
    durationSeconds: durationS,
    machine: { ...info, loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
    config: { ...config, outDir: undefined, repeat: Object.fromEntries([...config.sizes, config.latencySize].map((size) => [size, repeatFor(size)])) },
    rssMethod: rssMethod.describe,
    peer: peer.available ? "bash bench/curl-jq.sh (curl per page, jq -r @csv)" : peer.note,
    rows: orderRows(rows),
    targets,
    notes,
  };
  mkdirSync(config.outDir, { recursive: true });
  writeFileSync(path.join(config.outDir, "latest.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(path.join(config.outDir, "latest.md"), `${heading}\n\n${table}\n\n${footer.split("\n").join("\n\n")}\n`);
  process.stdout.write(`${heading}\n\n${table}\n\n${footer}\n`);
}

let exitCode = 0;
const interrupt = () => {
  exitCode = 130;
  void Promise.all([...sandboxes].map((stop) => stop())).finally(() => process.exit(130));
};
process.on("SIGINT", interrupt);
process.on("SIGTERM", interrupt);
try {
  await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
} finally {
  await Promise.all([...sandboxes].map((stop) => stop()));
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = exitCode;
