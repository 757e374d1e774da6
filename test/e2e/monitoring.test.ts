// msgstat in a monitoring stack, with Debian's own components: node_exporter (prometheus-node-exporter)
// serves the .prom file the built program writes, over HTTP, with the numbers of `stats --json`, and never
// half of a file while a run is under way; the alerting rules of docs/monitoring.md, taken from its code
// block, pass `promtool check rules` and fire in `promtool test rules` on a campaign above each threshold
// and not on one below. CI installs both packages (.ci/run); elsewhere these tests are skipped, saying so.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "../sandbox/http-helpers.js";
import { NODE_EXPORTER, needTool, PROMTOOL } from "../support/prometheus-tools.js";
import { runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { waitFor } from "../support/wait-for.js";

const HELD_BIN = fileURLToPath(new URL("../support/held-bin.cjs", import.meta.url));
const DOC = fileURLToPath(new URL("../../docs/monitoring.md", import.meta.url));

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, messages: 2000, now: FIXED_NOW });
});
afterAll(() => sandbox.close());

describe("node_exporter's textfile collector serves what msgstat wrote", () => {
  it("msgstat's series with the numbers of stats --json; a campaign not found as _up 0", async (context) => {
    needTool(NODE_EXPORTER, context, "what node_exporter serves was");
    const folder = scratchFolder("msgstat-textfiles-");
    const exporter = await startNodeExporter(folder);
    const file = path.join(folder, "msgstat.prom");
    const wrote = await runBin([
      "--base-url",
      sandbox.url,
      "stats",
      "cmp-spring-sale",
      "cmp-nope",
      "cmp-loyalty-es",
      "-o",
      file,
    ]);
    expect(wrote.code).toBe(3);
    expect(wrote.stdout).toBe("");

    const scraped = parseExposition(await scrape(exporter.url));
    expect(scraped.get(series("node_textfile_scrape_error"))).toBe(0);
    const json = await runBin(["--base-url", sandbox.url, "stats", "cmp-spring-sale", "cmp-loyalty-es", "--json"]);
    expect(json.code).toBe(0);
    const { campaigns } = JSON.parse(json.stdout) as { campaigns: JsonReport[] };
    expect(scraped.get(series("msgstat_campaign_up", { campaign: "cmp-nope" }))).toBe(0);
    expect([...scraped.keys()].filter((key) => key.includes('campaign="cmp-nope"'))).toEqual([
      series("msgstat_campaign_up", { campaign: "cmp-nope" }),
      series("msgstat_last_run_timestamp_seconds", { campaign: "cmp-nope" }),
    ]);
    for (const report of campaigns) {
      const campaign = report.campaignId;
      const expected = new Map<string, number>([
        [series("msgstat_campaign_up", { campaign }), 1],
        [series("msgstat_attempts", { campaign }), report.totals.attempts],
        [series("msgstat_delivery_ratio", { campaign }), report.delivery.deliveryRate],
        [series("msgstat_failure_ratio", { campaign }), report.delivery.failureRate],
        [series("msgstat_time_to_final_status_seconds_count", { campaign }), report.timeToFinal.measured],
        [series("msgstat_time_to_final_status_seconds_bucket", { campaign, le: "+Inf" }), report.timeToFinal.measured],
        ...report.byStatus.map(
          (row) => [series("msgstat_messages", { campaign, status: row.status }), row.count] as const,
        ),
        ...report.failures.map(
          (row) =>
            [
              series("msgstat_failed_messages", { campaign, error_code: row.errorCode, error_type: row.errorType }),
              row.count,
            ] as const,
        ),
      ]);
      expect(report.byStatus.length).toBeGreaterThan(1);
      expect(report.failures.length).toBeGreaterThan(1);
      for (const [key, value] of expected) expect({ key, value: scraped.get(key) }).toEqual({ key, value });
      // Under 5 min, by the JSON's histogram (its buckets are [from, to); a duration exactly on 5 min is rare enough
      // for these seeded data not to have one, which the equality itself checks).
      const underFive = report.timeToFinal.histogram
        .filter((row) => row.toMs !== null && row.toMs <= 300_000)
        .reduce((sum, row) => sum + row.count, 0);
      expect(scraped.get(series("msgstat_time_to_final_status_seconds_bucket", { campaign, le: "300" }))).toBe(
        underFive,
      );
    }
    expect(scraped.get(series("msgstat_last_run_timestamp_seconds", { campaign: "cmp-spring-sale" }))).toBeGreaterThan(
      Date.parse("2026-01-01") / 1000,
    );
  });

  it("a scrape while a run is writing the file serves the previous file whole, never part of the new one", async (context) => {
    needTool(NODE_EXPORTER, context, "what node_exporter serves during a write was");
    const folder = scratchFolder("msgstat-textfiles-");
    const exporter = await startNodeExporter(folder);
    const file = path.join(folder, "msgstat.prom");
    expect((await runBin(["--base-url", sandbox.url, "stats", "cmp-otp-alerts", "-o", file])).code).toBe(0);
    const before = await scrape(exporter.url);
    expect(msgstatLines(before).length).toBeGreaterThan(20);

    // A run of two other campaigns, held after its text is on disk and before the file is put in place.
    let held: ChildProcess | undefined;
    let said = "";
    const run = runBin(
      ["report-written", "--base-url", sandbox.url, "stats", "cmp-spring-sale", "cmp-loyalty-es", "-o", file],
      {
        script: HELD_BIN,
        onSpawn: (child) => {
          held = child;
          // Killed however the test ends: a failed expectation must not leave it held for ever.
          onTestFinished(() => void child.kill("SIGKILL"));
          child.stderr!.on("data", (chunk: Buffer | string) => (said += String(chunk)));
        },
        timeoutMs: 60_000,
      },
    );
    await waitFor(() => said.includes("paused at report-written\n"), "the run to hold before the rename");
    const temporary = readdirSync(folder).filter((name) => name !== "msgstat.prom");
    expect(temporary).toEqual([expect.stringMatching(/^\.msgstat\.prom\.msgstat-.*\.tmp$/)]);
    expect(readFileSync(path.join(folder, temporary[0]!), "utf8")).toContain('campaign="cmp-spring-sale"');

    const during = await scrape(exporter.url);
    expect(parseExposition(during).get(series("node_textfile_scrape_error"))).toBe(0);
    expect(msgstatLines(during)).toEqual(msgstatLines(before));
    held!.kill("SIGKILL");
    await run;

    // The next run replaces it: node_exporter serves the new campaigns, and only them.
    expect((await runBin(["--base-url", sandbox.url, "stats", "cmp-spring-sale", "-o", file])).code).toBe(0);
    const after = msgstatLines(await scrape(exporter.url));
    expect(after.some((line) => line.includes('campaign="cmp-spring-sale"'))).toBe(true);
    expect(after.some((line) => line.includes('campaign="cmp-otp-alerts"'))).toBe(false);
  });
});

describe("the alerting rules of docs/monitoring.md", () => {
  it("pass promtool check rules", (context) => {
    needTool(PROMTOOL, context, "the alerting rules were");
    const folder = scratchFolder("msgstat-rules-");
    const rules = writeRules(folder);
    const checked = spawnSync(PROMTOOL, ["check", "rules", rules], { encoding: "utf8" });
    expect({ code: checked.status, stderr: checked.stderr }).toEqual({ code: 0, stderr: "" });
    expect(checked.stdout).toBe(`Checking ${rules}\n  SUCCESS: 4 rules found\n\n`);
  });

  it("fire on a campaign above each threshold and not on one at or below it (promtool test rules)", (context) => {
    needTool(PROMTOOL, context, "the alerting rules were");
    const folder = scratchFolder("msgstat-rules-");
    writeRules(folder);
    writeFileSync(path.join(folder, "tests.yml"), RULE_TESTS);
    const tested = spawnSync(PROMTOOL, ["test", "rules", "tests.yml"], { cwd: folder, encoding: "utf8" });
    expect({ code: tested.status, said: tested.stdout + tested.stderr }).toEqual({
      code: 0,
      said: "Unit Testing:  tests.yml\n  SUCCESS\n\n",
    });
  });
});

interface JsonReport {
  campaignId: string;
  totals: { attempts: number };
  byStatus: Array<{ status: string; count: number }>;
  delivery: { deliveryRate: number; failureRate: number };
  failures: Array<{ errorType: string; errorCode: string; count: number }>;
  timeToFinal: { measured: number; histogram: Array<{ toMs: number | null; count: number }> };
}

/** The rules block of docs/monitoring.md, as a user saves it. */
function writeRules(folder: string): string {
  const block = /```yaml\n([\s\S]*?)```/.exec(readFileSync(DOC, "utf8"))?.[1];
  expect(block).toContain("alert: MsgstatMessagesLate");
  const file = path.join(folder, "msgstat-rules.yml");
  writeFileSync(file, block!);
  return file;
}

// Each rule with a campaign above its threshold and one at or below it, evaluated after its `for`.
const RULE_TESTS = `rule_files:
  - msgstat-rules.yml
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'msgstat_failure_ratio{campaign="cmp-bad"}'
        values: '0.2+0x30'
      - series: 'msgstat_failure_ratio{campaign="cmp-good"}'
        values: '0.05+0x30'
      - series: 'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-late",le="300"}'
        values: '80+0x30'
      - series: 'msgstat_time_to_final_status_seconds_count{campaign="cmp-late"}'
        values: '100+0x30'
      - series: 'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-prompt",le="300"}'
        values: '90+0x30'
      - series: 'msgstat_time_to_final_status_seconds_count{campaign="cmp-prompt"}'
        values: '100+0x30'
      - series: 'msgstat_campaign_up{campaign="cmp-nope"}'
        values: '0+0x30'
      - series: 'msgstat_campaign_up{campaign="cmp-good"}'
        values: '1+0x30'
    alert_rule_test:
      - eval_time: 20m
        alertname: MsgstatFailureRateHigh
        exp_alerts:
          - exp_labels: { severity: warning, campaign: cmp-bad }
            exp_annotations: { summary: "20% of messages failed" }
      - eval_time: 20m
        alertname: MsgstatMessagesLate
        exp_alerts:
          - exp_labels: { severity: warning, campaign: cmp-late }
            exp_annotations: { summary: "20% took over 5 min" }
      - eval_time: 20m
        alertname: MsgstatCampaignNotRead
        exp_alerts:
          - exp_labels: { severity: warning, campaign: cmp-nope }
            exp_annotations: { summary: "msgstat could not read cmp-nope" }
  - interval: 1m
    input_series:
      - series: 'msgstat_last_run_timestamp_seconds{campaign="cmp-stopped"}'
        values: '0+0x150'
      - series: 'msgstat_last_run_timestamp_seconds{campaign="cmp-running"}'
        values: '0+60x150'
    alert_rule_test:
      - eval_time: 2h
        alertname: MsgstatNotRunning
        exp_alerts:
          - exp_labels: { severity: warning, campaign: cmp-stopped }
            exp_annotations: { summary: "no msgstat run for cmp-stopped in an hour" }
`;

/** node_exporter with the textfile collector alone, on a free loopback port; stopped when the test ends. */
async function startNodeExporter(folder: string): Promise<{ url: string }> {
  const port = await freePort();
  const child = spawn(
    NODE_EXPORTER,
    [
      "--collector.disable-defaults",
      "--collector.textfile",
      `--collector.textfile.directory=${folder}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let said = "";
  child.stderr.on("data", (chunk: Buffer | string) => (said += String(chunk)));
  onTestFinished(() => {
    child.kill("SIGTERM");
  });
  await waitFor(() => said.includes("Listening on") || child.exitCode !== null, "node_exporter to listen");
  expect(child.exitCode).toBeNull();
  return { url: `http://127.0.0.1:${port}/metrics` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function scrape(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      response.on("end", () => (response.statusCode === 200 ? resolve(body) : reject(new Error(body))));
    })
      .on("error", reject)
      .end();
  });
}

const msgstatLines = (text: string) => text.split("\n").filter((line) => line.startsWith("msgstat_"));

/** A series' key: its name and labels, sorted by name, as parseExposition keys them. */
function series(name: string, labels: Record<string, string> = {}): string {
  const pairs = Object.entries(labels)
    .filter(([, value]) => value !== "")
    .sort(([a], [b]) => a.localeCompare(b));
  return `${name}{${pairs.map(([label, value]) => `${label}=${JSON.stringify(value)}`).join(",")}}`;
}

/** Every sample of a scrape by series key (node_exporter orders labels its own way and writes Go's floats). */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, label, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[label!] = JSON.parse(`"${value!}"`) as string;
    samples.set(series(match[1]!, labels), Number(match[3]));
  }
  return samples;
}
