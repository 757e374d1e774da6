// The benchmark end to end on a small campaign, so it cannot rot: every row is there, with positive
// figures. Nothing here is timed: how fast msgstat is is the benchmark's business, not the test's.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Row {
  id: string;
  group: string;
  runs: number;
  wallMs: number[];
  wallMsMedian: number;
  messagesPerSecond: number | null;
  peakRssMBMedian: number | null;
  cpuMs: number[];
  cpuMsMedian: number | null;
  size?: number;
  pages?: number;
  bytes?: number;
  wireBytes?: number | null;
  encoding?: string;
  outputBytes?: number;
  filesRewritten?: number[];
  filesLeft?: number[];
  datasetBytes?: number[];
}

interface Results {
  machine: { cpus: number; node: string };
  rssMethod: string;
  rows: Row[];
  targets: Array<{ row: string; text: string; value: number; limit: number; met: boolean }>;
  notes: string[];
}

let outDir: string | undefined;

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe("npm run bench --quick", () => {
  it("writes every row, with positive figures, to latest.json and latest.md", async () => {
    outDir = await mkdtemp(path.join(os.tmpdir(), "msgstat-bench-test-"));
    const size = 2000;
    const { stdout } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        [path.join(root, "bench", "run.mjs"), "--quick"],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            BENCH_OUT: outDir,
            BENCH_SIZES: String(size),
            BENCH_LINK_SIZE: String(size),
            BENCH_REPLAY_SIZE: String(size),
            BENCH_TTFR_SIZE: String(size),
            BENCH_REPORT_SIZE: String(size),
            BENCH_REPEAT: "1",
            BENCH_STARTUP_REPEAT: "2",
          },
          timeout: 170_000,
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, out, err) =>
          error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out, stderr: err }),
      );
    });

    const results = JSON.parse(await readFile(path.join(outDir, "latest.json"), "utf8")) as Results;
    const ids = new Set(results.rows.map((row) => row.id));
    const expected = [
      ...["raw", "parse", "parse-prefetch"].map((mode) => `floor-${mode}@${size}`),
      ...["csv", "jsonl", "json", "table"].map((format) => `export-${format}@${size}`),
      `latency-floor-raw@${size}`,
      `latency-export-csv@${size}`,
      "startup-node",
      "startup-version",
      "startup-help",
      "startup-message-json",
      `link-floor-fetch@${size}`,
      `link-export-csv@${size}`,
      `link-export-jsonl@${size}`,
      ...["raw", "parse"].map((mode) => `replay-floor-${mode}@${size}`),
      ...["csv", "jsonl", "json"].map((format) => `replay-export-${format}@${size}`),
      "ttfr-first-page",
      ...["csv", "jsonl", "table"].map((format) => `ttfr-${format}-piped`),
      ...["latency", "replay"].flatMap((kind) => ["single", "merged", "xargs"].map((row) => `fanout-${kind}-${row}`)),
      ...["cpu-one", "cpu-singles", "cpu-merged", "cpu-same-total"].map((row) => `fanout-${row}`),
      ...["csv", "parquet"].map((format) => `parquet-${format}@${size}`),
      `report-json@${size}`,
      `report-html@${size}`,
      `report-prometheus@${size}`,
      ...["first", "newest", "spread", "unchanged"].map((run) => `dataset-parquet-${run}`),
    ];
    const peerSkipped = results.notes.some((note) => note.startsWith("curl+jq rows skipped"));
    if (!peerSkipped) expected.push(`peer-curl-jq@${size}`, `link-peer-curl-jq@${size}`);
    const terminalSkipped = results.notes.some((note) => note.startsWith("First-row rows on a terminal skipped"));
    if (!terminalSkipped)
      expected.push(
        ...["csv", "jsonl", "table"].map((format) => `ttfr-${format}-terminal`),
        "ttfr-table-terminal-failure",
      );
    // The binary rows need npm run package first: where it has run, they are there too.
    const binarySkipped = results.notes.some((note) => note.startsWith("binary rows skipped"));
    if (!binarySkipped)
      expected.push(
        ...["node", "version", "help", "message-json"].map((row) => `binary-${row}`),
        ...["version", "help", "message-json"].map((row) => `binary-npm-${row}`),
      );
    for (const id of expected) expect(ids, `row ${id}`).toContain(id);

    for (const row of results.rows) {
      expect(row.runs, row.id).toBeGreaterThanOrEqual(1);
      expect(row.wallMs.length, row.id).toBe(row.runs);
      for (const wall of row.wallMs) expect(wall, row.id).toBeGreaterThan(0);
      expect(row.wallMsMedian, row.id).toBeGreaterThan(0);
      // The fan-out rows count the messages of one campaign (BENCH_FANOUT_SIZE) or of all of them; the
      // dataset rows those of its 12 campaigns (BENCH_DATASET_SIZE, 500 with --quick).
      if (row.size !== undefined) {
        if (row.group === "dataset") expect(row.size).toBe(12 * 500);
        else if (row.group !== "fanout") expect(row.size).toBe(size);
        expect(row.messagesPerSecond, row.id).toBeGreaterThan(0);
        expect(row.peakRssMBMedian, row.id).toBeGreaterThan(0);
      }
    }
    // With GNU time, every export's CPU time (user and system) is there too.
    if (results.rssMethod.startsWith("GNU time")) {
      for (const row of results.rows.filter((r) => r.group === "export" || r.group === "dataset")) {
        expect(row.cpuMs.length, row.id).toBe(row.runs);
        expect(row.cpuMsMedian, row.id).toBeGreaterThan(0);
      }
    }
    const latency = results.rows.find((row) => row.id === `latency-export-csv@${size}`)!;
    expect(latency.pages).toBe(Math.ceil(size / 1000));
    // The link's floor asked for compression and got it: fewer bytes on the wire than of JSON.
    const linkFloor = results.rows.find((row) => row.id === `link-floor-fetch@${size}`)!;
    expect(linkFloor.encoding).toBe("gzip");
    expect(linkFloor.wireBytes).toBeGreaterThan(0);
    expect(linkFloor.wireBytes).toBeLessThan(linkFloor.bytes!);
    // Every first-row case has its target against the first page.
    for (const row of results.rows.filter((r) => r.group === "ttfr")) {
      expect(
        results.targets.some((target) => target.row === row.id),
        row.id,
      ).toBe(true);
    }

    // The fan-out's targets: against one campaign and the xargs loop (sandbox and replay), CPU time and peak RSS.
    expect(results.targets.filter((target) => target.row.startsWith("fanout-")).map((target) => target.text)).toEqual([
      "messages/s ÷ one campaign's",
      "messages/s ÷ xargs loop's",
      "messages/s ÷ one campaign's",
      "messages/s ÷ xargs loop's",
      "CPU ÷ the single exports'",
      "peak RSS ÷ one campaign's",
    ]);
    // Parquet beside CSV: its two targets, and the bytes each wrote.
    expect(results.targets.filter((target) => target.row.startsWith("parquet-")).map((target) => target.text)).toEqual([
      "wall ÷ CSV's",
      "peak RSS ÷ CSV's",
    ]);
    for (const format of ["csv", "parquet"])
      expect(results.rows.find((row) => row.id === `parquet-${format}@${size}`)!.outputBytes).toBeGreaterThan(0);
    // The dataset rows: what each run did to the data files, counted on disk. Twelve campaigns over three
    // weeks; the newest 1 % of each (5 messages, hours old) lies in its newest day's partition.
    const dataset = (run: string) => results.rows.find((row) => row.id === `dataset-parquet-${run}`)!;
    const partitions = dataset("first").filesRewritten![0]!;
    expect(partitions).toBeGreaterThanOrEqual(12 * 21);
    expect(dataset("first").filesLeft).toEqual([0, 0]);
    expect(dataset("first").datasetBytes![0]).toBeGreaterThan(0);
    expect(dataset("newest").filesRewritten).toEqual([12]);
    expect(dataset("newest").filesLeft).toEqual([partitions - 12]);
    const spread = dataset("spread").filesRewritten![0]!;
    expect(spread).toBeGreaterThan(12);
    expect(dataset("spread").filesLeft).toEqual([partitions - spread]);
    expect(dataset("unchanged").filesRewritten).toEqual([0, 0]);
    expect(dataset("unchanged").filesLeft).toEqual([partitions, partitions]);
    expect(results.targets.some((target) => target.row.startsWith("dataset-"))).toBe(false);
    expect(results.targets.length).toBeGreaterThan(0);
    for (const target of results.targets) {
      expect(ids).toContain(target.row);
      // A ratio is positive; "first row − first page" is a difference, finite but of either sign.
      if (target.text.startsWith("first row")) expect(Number.isFinite(target.value)).toBe(true);
      else expect(target.value).toBeGreaterThan(0);
      expect(typeof target.met).toBe("boolean");
    }
    expect(results.machine.cpus).toBeGreaterThan(0);

    const markdown = await readFile(path.join(outDir, "latest.md"), "utf8");
    expect(markdown).toContain("| Row");
    for (const id of [
      "export --csv",
      "(b) parse floor",
      "node -e 0",
      "--latency 20",
      "link 50mbit 20 ms",
      ", replay",
      "first row: --csv, piped",
      "export 12 × 500, parquet: second run, the newest 1 % of each campaign changed",
      "12 files rewritten, ",
    ]) {
      expect(markdown).toContain(id);
      expect(stdout).toContain(id);
    }
  }, 180_000);

  it("with BENCH_BASELINE, runs each export and start-up row with that build too and compares them", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "msgstat-bench-test-"));
    try {
      const size = 2000;
      // This checkout as its own baseline: the rows and their comparison are what is tested, not a speed.
      const stdout = await bench({
        BENCH_OUT: dir,
        BENCH_ROWS: "export,startup",
        BENCH_SIZES: String(size),
        BENCH_REPEAT: "2",
        BENCH_PEER_REPEAT: "1",
        BENCH_STARTUP_REPEAT: "2",
        BENCH_BASELINE: root,
      });
      const results = JSON.parse(await readFile(path.join(dir, "latest.json"), "utf8")) as Results;
      const byId = new Map(results.rows.map((row) => [row.id, row]));
      for (const id of [
        ...["csv", "jsonl", "json", "table", "stats"].map((format) => `export-${format}@${size}`),
        "startup-version",
        "startup-help",
        "startup-message-json",
      ]) {
        const baseline = byId.get(`baseline-${id}`);
        expect(baseline, `baseline-${id}`).toBeDefined();
        expect(baseline!.runs).toBe(byId.get(id)!.runs);
        for (const wall of baseline!.wallMs) expect(wall).toBeGreaterThan(0);
      }
      expect(stdout).toContain("export --csv 2k, baseline build");
      expect(stdout).toContain("msgstat --help, baseline build");
      expect(stdout).toMatch(
        results.rssMethod.startsWith("GNU time")
          ? /export --csv 2k .*\d\.\d\d× the baseline build's wall, \d\.\d\d× its CPU time/
          : /export --csv 2k .*\d\.\d\d× the baseline build's wall/,
      );
      expect(
        results.notes.some((note) => note.startsWith(`Baseline build (BENCH_BASELINE): ${root.replace(/\/$/, "")}`)),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("refuses a BENCH_BASELINE that holds no built msgstat", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "msgstat-bench-test-"));
    try {
      const failure = await bench({ BENCH_OUT: dir, BENCH_ROWS: "startup", BENCH_BASELINE: dir }).then(
        () => "ran",
        (error: Error) => error.message,
      );
      expect(failure).toContain(`BENCH_BASELINE: ${dir} has no built msgstat`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** bench/run.mjs --quick with these variables, its stdout when it succeeds. */
function bench(variables: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, "bench", "run.mjs"), "--quick"],
      {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables },
        timeout: 170_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    );
  });
}
