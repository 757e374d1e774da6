// `msgstat stats --format prometheus` (and -o x.prom): the exposition text exactly, against a real sandbox
// and, for what the sandbox does not serve (hostile error codes, 50 of them, durations to the millisecond),
// a small listing server; a campaign that cannot be read; and --max-time-to-final at, just below and just
// above a percentile, per campaign and total, with and without --max-failure-rate. Every .prom written
// here passes `promtool check metrics` with nothing to say (the last test).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { HOSTILE_VALUES } from "../../../src/sandbox/hostile-text.js";
import { FIXED_NOW } from "../../sandbox/http-helpers.js";
import { chainedPages, startListingServer } from "../../support/listing-server.js";
import { needTool, PROMTOOL, promtoolCheckMetrics } from "../../support/prometheus-tools.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import { expectedFailureRows, fetchSelected, finalDurations } from "./expected.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, messages: 300, now: FIXED_NOW });
});
afterAll(() => sandbox.close());

/** Every exposition text the tests below were given, for promtool at the end. */
const written: Array<{ name: string; text: string }> = [];
const kept = (name: string, text: string): string => {
  written.push({ name, text });
  return text;
};

const stats = (url: string, args: string[]) => runCli(["--base-url", url, "stats", ...args], { now: FIXED_NOW });

const RUN_AT = FIXED_NOW / 1000;

describe("the exposition text", () => {
  it("of a small sandbox campaign, exactly, its figures counted independently from the pages", async () => {
    const result = await stats(sandbox.url, ["cmp-loyalty-es", "--format", "prometheus"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(kept("cmp-loyalty-es", result.stdout)).toBe(LOYALTY_ES);
    const messages = await fetchSelected(sandbox.url, { campaignId: "cmp-loyalty-es" });
    expect(messages.length).toBe(60);
    const value = (name: string, labels = "") =>
      Number(sample(LOYALTY_ES, `${name}{campaign="cmp-loyalty-es"${labels === "" ? "" : `,${labels}`}}`));
    for (const status of ["success", "failure", "created"])
      expect(value("msgstat_messages", `status="${status}"`)).toBe(
        messages.filter((m) => m.latestStatus === status).length,
      );
    expect(value("msgstat_attempts")).toBe(messages.reduce((sum, m) => sum + (m.numAttempts ?? 0), 0));
    for (const row of expectedFailureRows(messages))
      expect(value("msgstat_failed_messages", `error_type="${row.errorType}",error_code="${row.errorCode}"`)).toBe(
        row.count,
      );
    const durations = finalDurations(messages);
    for (const le of [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 604800])
      expect(value("msgstat_time_to_final_status_seconds_bucket", `le="${le}"`)).toBe(
        durations.filter((ms) => ms <= le * 1000).length,
      );
    expect(value("msgstat_time_to_final_status_seconds_bucket", 'le="+Inf"')).toBe(durations.length);
    expect(value("msgstat_time_to_final_status_seconds_sum")).toBeCloseTo(
      durations.reduce((sum, ms) => sum + ms, 0) / 1000,
      6,
    );
    const final = messages.filter((m) => m.latestStatus === "success" || m.latestStatus === "failure").length;
    expect(value("msgstat_failure_ratio")).toBe(messages.filter((m) => m.latestStatus === "failure").length / final);
  });

  it("-o x.prom chooses it, and the file is the same text; --watch does not write it", async () => {
    const folder = scratchFolder("msgstat-prom-");
    const file = path.join(folder, "msgstat.prom");
    const result = await stats(sandbox.url, ["cmp-loyalty-es", "-o", file]);
    expect(result.stderr).toBe(`wrote the report of 60 messages to ${file}\n`);
    expect(result.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(LOYALTY_ES);
    const watch = await stats(sandbox.url, ["cmp-otp-alerts", "--format", "prometheus", "--watch"]);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toBe(
      "msgstat: --watch shows the report, or a JSON line a round: it does not write Prometheus metrics\n" +
        "  Run stats -o <folder>/msgstat.prom from cron instead.\n",
    );
    const contradiction = await stats(sandbox.url, ["cmp-otp-alerts", "--json", "-o", file]);
    expect(contradiction.code).toBe(2);
    expect(contradiction.stderr).toContain(`--json contradicts -o ${file}: a .prom file is prometheus`);
  });

  it('label values with ", \\ and newlines escaped as the format requires; controls made visible', async () => {
    // Each hostile text as an error code in cmp-h1 and as an error type in cmp-h2, two runs so none is past the 15.
    const codes = [...HOSTILE_VALUES, "back\\slash", 'quote"d'];
    const server = await startListingServer((request: URL) => {
      const typed = request.pathname.includes("cmp-h2");
      return chainedPages([
        codes.map((text, i) => failed(`m${i}`, i, typed ? text : "carrier_error", typed ? "E1" : text)),
      ])(request);
    });
    const lines: string[] = [];
    for (const range of [
      [0, 10],
      [10, codes.length],
    ]) {
      const part = codes.slice(range[0], range[1]);
      const pageServer = await startListingServer(
        chainedPages([part.map((text, i) => failed(`m${i}`, i, "carrier_error", text))]),
      );
      const result = await stats(pageServer.url, ["cmp-h1", "--format", "prometheus"]);
      expect(result.code).toBe(0);
      lines.push(...failedLines(kept(`hostile codes ${range[0]}`, result.stdout)));
    }
    const typed = await stats(server.url, ["cmp-h2", "--format", "prometheus"]);
    expect(typed.code).toBe(0);
    const escaped = [
      'Smith, \\"Junior\\"',
      "two\\nlines",
      "windows\\\\r\\nline",
      "tab\\\\tseparated",
      "Party 🎉 👨‍👩‍👧‍👦 🏳️‍🌈",
      "مرحبا بك",
      "שלום עולם",
      "invoice\\\\u202efdp.exe",
      '=HYPERLINK(\\"http://x\\",\\"y\\")',
      "+1-555",
      "-2+3",
      "@SUM(A1)",
      "\\\\x1b[31mred\\\\x1b[0m",
      "\\\\x1b[2Jcleared",
      "\\\\x1b]52;c;aGVsbG8=\\\\x07",
      "\\\\x9b31mC1",
      "nul\\\\x00byte",
      "back\\\\slash",
      'quote\\"d',
    ];
    expect(escaped.length).toBe(codes.length);
    expect(lines.sort()).toEqual(
      escaped
        .map((code) => `msgstat_failed_messages{campaign="cmp-h1",error_type="carrier_error",error_code="${code}"} 1`)
        .sort(),
    );
    // Past the 15 most frequent (all tied at 1 here), the rest is summed as "other".
    const byType = failedLines(kept("hostile types", typed.stdout));
    expect(byType.length).toBe(16);
    expect(byType.at(-1)).toBe('msgstat_failed_messages{campaign="cmp-h2",error_type="other",error_code="other"} 4');
    for (const line of byType.slice(0, -1))
      expect(
        escaped.map((type) => `msgstat_failed_messages{campaign="cmp-h2",error_type="${type}",error_code="E1"} 1`),
      ).toContain(line);
    // Nothing but the line ends: no raw control character reaches the file or a terminal.
    for (const text of written.map((w) => w.text))
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it("a newline in a label value is written as \\n, and a status the server sends as it is", async () => {
    const server = await startListingServer(
      chainedPages([
        [failed("m1", 1, "two\nlines", "E\n1"), { ...failed("m2", 2, "t", "c"), latestStatus: 'odd"one' }],
      ]),
    );
    const result = await stats(server.url, ["cmp-lines", "--format", "prometheus"]);
    expect(result.code).toBe(0);
    const lines = kept("newlines", result.stdout).split("\n");
    expect(lines).toContain(
      'msgstat_failed_messages{campaign="cmp-lines",error_type="two\\nlines",error_code="E\\n1"} 1',
    );
    expect(lines).toContain('msgstat_messages{campaign="cmp-lines",status="odd\\"one"} 1');
  });

  it("50 distinct error codes: the 15 most frequent, the rest summed under other", async () => {
    // Code k is the error of k+1 messages, so the most frequent are E49 down to E35.
    const messages = Array.from({ length: 50 }, (_, k) =>
      Array.from({ length: k + 1 }, (_, j) => failed(`m${k}-${j}`, j, "carrier_error", `E${k}`)),
    ).flat();
    const server = await startListingServer(chainedPages([messages]));
    const result = await stats(server.url, ["cmp-many-errors", "--format", "prometheus"]);
    expect(result.code).toBe(0);
    const failures = kept("50 codes", result.stdout)
      .split("\n")
      .filter((line) => line.startsWith("msgstat_failed_messages{"));
    const top = Array.from({ length: 15 }, (_, i) => 49 - i);
    expect(failures).toEqual([
      ...top.map(
        (k) =>
          `msgstat_failed_messages{campaign="cmp-many-errors",error_type="carrier_error",error_code="E${k}"} ${k + 1}`,
      ),
      // 1 + 2 + ... + 35 messages had the other 35 codes.
      `msgstat_failed_messages{campaign="cmp-many-errors",error_type="other",error_code="other"} ${(35 * 36) / 2}`,
    ]);
    expect(sample(result.stdout, 'msgstat_messages{campaign="cmp-many-errors",status="failure"}')).toBe("1275");
  });
});

describe("a campaign that cannot be read", () => {
  it("among three: its _up 0, the others' series, the file written; exit 3 as for any format", async () => {
    const folder = scratchFolder("msgstat-prom-");
    const file = path.join(folder, "msgstat.prom");
    const result = await stats(sandbox.url, ["cmp-otp-alerts", "cmp-nope", "cmp-empty", "-o", file]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `warning: campaign cmp-nope: not found: GET ${sandbox.url}/campaigns/cmp-nope/messages?limit=1000 answered ` +
        `HTTP 404: Campaign "cmp-nope" does not exist. (campaign_not_found)\n` +
        `wrote the partial report of 6 messages in 2 of 3 campaigns to ${file}\n` +
        `${file} is missing campaign cmp-nope; it says so\n` +
        "msgstat: 2 of 3 campaigns complete; not read to the end: cmp-nope\n",
    );
    const text = kept("404 among three", readFileSync(file, "utf8"));
    expect(text.split("\n").slice(0, 9)).toEqual([
      "# HELP msgstat_campaign_up 1 when msgstat's last run read the campaign's messages to the end, 0 when it could not.",
      "# TYPE msgstat_campaign_up gauge",
      'msgstat_campaign_up{campaign="cmp-otp-alerts"} 1',
      'msgstat_campaign_up{campaign="cmp-nope"} 0',
      'msgstat_campaign_up{campaign="cmp-empty"} 1',
      "# HELP msgstat_last_run_timestamp_seconds When msgstat's last run wrote these metrics, in seconds since the Unix epoch.",
      "# TYPE msgstat_last_run_timestamp_seconds gauge",
      `msgstat_last_run_timestamp_seconds{campaign="cmp-otp-alerts"} ${RUN_AT}`,
      `msgstat_last_run_timestamp_seconds{campaign="cmp-nope"} ${RUN_AT}`,
    ]);
    // The others are as each alone; cmp-nope has no other series.
    const alone = (await stats(sandbox.url, ["cmp-otp-alerts", "--format", "prometheus"])).stdout;
    expect(seriesOf(text, "cmp-otp-alerts")).toEqual(seriesOf(alone, "cmp-otp-alerts"));
    expect(seriesOf(text, "cmp-nope")).toEqual([
      'msgstat_campaign_up{campaign="cmp-nope"} 0',
      `msgstat_last_run_timestamp_seconds{campaign="cmp-nope"} ${RUN_AT}`,
    ]);
    // An empty campaign: its counts, and no ratio (nothing is final).
    expect(seriesOf(text, "cmp-empty")).toEqual([
      'msgstat_campaign_up{campaign="cmp-empty"} 1',
      `msgstat_last_run_timestamp_seconds{campaign="cmp-empty"} ${RUN_AT}`,
      'msgstat_attempts{campaign="cmp-empty"} 0',
      ...[1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 604800, "+Inf"].map(
        (le) => `msgstat_time_to_final_status_seconds_bucket{campaign="cmp-empty",le="${le}"} 0`,
      ),
      'msgstat_time_to_final_status_seconds_sum{campaign="cmp-empty"} 0',
      'msgstat_time_to_final_status_seconds_count{campaign="cmp-empty"} 0',
    ]);
  });

  it("alone: its _up 0 is written all the same, and the error's exit code stands", async () => {
    const folder = scratchFolder("msgstat-prom-");
    const file = path.join(folder, "msgstat.prom");
    const result = await stats(sandbox.url, ["cmp-nope", "--batch", "bat-x", "-o", file]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `wrote msgstat_campaign_up 0 for cmp-nope to ${file}\n` +
        `msgstat: not found: GET ${sandbox.url}/campaigns/cmp-nope/batch/bat-x/messages?limit=1000 answered HTTP 404: ` +
        `Campaign "cmp-nope" does not exist. (campaign_not_found)\n` +
        "  Check the campaign id cmp-nope and the batch id bat-x: the batch must belong to that campaign " +
        "(msgstat stats cmp-nope shows each batch id in its By batch table).\n",
    );
    expect(kept("404 alone", readFileSync(file, "utf8"))).toBe(
      "# HELP msgstat_campaign_up 1 when msgstat's last run read the campaign's messages to the end, 0 when it could not.\n" +
        "# TYPE msgstat_campaign_up gauge\n" +
        'msgstat_campaign_up{campaign="cmp-nope",batch="bat-x"} 0\n' +
        "# HELP msgstat_last_run_timestamp_seconds When msgstat's last run wrote these metrics, in seconds since the Unix epoch.\n" +
        "# TYPE msgstat_last_run_timestamp_seconds gauge\n" +
        `msgstat_last_run_timestamp_seconds{campaign="cmp-nope",batch="bat-x"} ${RUN_AT}\n`,
    );
  });
});

describe("--max-time-to-final", () => {
  // cmp-a: 20 final messages, 18 of 1 min, one of 5 min (the 95th percentile, nearest rank) and one of 10 min;
  // its first two failed. cmp-b: 18 of 30 s and one of 6 min. cmp-c: nothing final. Together, 39 measured:
  // the 95th percentile is the 38th (6 min), the 90th the 36th (1 min).
  const A = [...Array<number>(18).fill(60_000), 300_000, 600_000];
  const B = [...Array<number>(18).fill(30_000), 360_000];
  const pages: Record<string, unknown[]> = {
    "cmp-a": A.map((ms, i) => ({ ...final(`a${i}`, ms), ...(i < 2 ? { latestStatus: "failure" } : {}) })),
    "cmp-b": B.map((ms, i) => final(`b${i}`, ms)),
    "cmp-c": [{ ...final("c1", 1000), latestStatus: "created" }],
  };
  let url = "";
  // A server for each test (it closes when its test ends).
  beforeEach(async () => {
    const server = await startListingServer((request: URL) => {
      const campaignId = decodeURIComponent(request.pathname.split("/")[2] ?? "");
      return chainedPages([pages[campaignId] ?? []])(request);
    });
    url = server.url;
  });

  it("the limit at the percentile passes; a millisecond under it fails (exit 5); a millisecond over passes", async () => {
    const at = await stats(url, ["cmp-a", "--max-time-to-final", "5m", "--json"]);
    expect(at.stderr).toBe("");
    expect(at.code).toBe(0);
    const under = await stats(url, ["cmp-a", "--max-time-to-final", "299.999s", "--json"]);
    expect(under.stderr).toBe(
      "msgstat: 95th percentile of time to final status (about 5 min 3 s) is above --max-time-to-final 4 min 59.999 s: " +
        "2 of 20 final messages took longer, at most 1 may\n",
    );
    expect(under.code).toBe(5);
    const over = await stats(url, ["cmp-a", "--max-time-to-final", "300.001s:95", "--json"]);
    expect(over.code).toBe(0);
    // --json gains the result beside today's threshold, which stays null without --max-failure-rate.
    const report = JSON.parse(under.stdout) as JsonReport;
    expect(report.threshold).toBeNull();
    expect(report.timeToFinalThreshold).toEqual({
      maxTimeToFinalMs: 299_999,
      percentile: 95,
      percentileMs: expect.closeTo(300_000, -4) as number,
      slower: 2,
      slowerAllowed: 1,
      exceeded: true,
      checked: true,
    });
    expect((JSON.parse(at.stdout) as JsonReport).timeToFinalThreshold).toMatchObject({ slower: 1, exceeded: false });
  });

  it("another percentile: the 90th of cmp-a is 1 min", async () => {
    expect((await stats(url, ["cmp-a", "--max-time-to-final", "1m:90"])).code).toBe(0);
    const above = await stats(url, ["cmp-a", "--max-time-to-final", "59s:90", "--json"]);
    expect(above.code).toBe(5);
    expect(above.stderr).toMatch(/^msgstat: 90th percentile of time to final status \(about 1 min\) is above/);
  });

  it("per campaign and total: each one above named, the total too when it is", async () => {
    // 5 min: cmp-b is above (1 of 19 slower, none may); the total (2 of 39 slower, 1 may) is above too.
    const both = await stats(url, ["cmp-a", "cmp-b", "--max-time-to-final", "5m"]);
    expect(both.code).toBe(5);
    expect(both.stderr).toBe(
      "msgstat: the 95th percentile of time to final status is above --max-time-to-final 5 min in 1 of 2 " +
        "campaigns and in the total\n" +
        "  cmp-b: about 6 min 2 s; 1 of 19 final messages took longer, at most 0 may\n" +
        "  total: about 6 min 2 s; 2 of 39 final messages took longer, at most 1 may\n",
    );
    // 6 min: cmp-a (1 of 20 slower, 1 may) and cmp-b (0 of 19) pass, as does the total (1 of 39).
    const none = await stats(url, ["cmp-a", "cmp-b", "--max-time-to-final", "6m"]);
    expect(none.stderr).toBe("");
    expect(none.code).toBe(0);
    // The 90th percentile at 1 min: cmp-a (2 of 20 slower, 2 may), cmp-b (1 of 19, 1 may) and the total (3 of 39,
    // 3 may) pass. At 59 s, cmp-a (20 slower) and the total (21) are above; cmp-b (1 of 19) is not.
    expect((await stats(url, ["cmp-a", "cmp-b", "--max-time-to-final", "1m:90"])).code).toBe(0);
    const late = await stats(url, ["cmp-a", "cmp-b", "--max-time-to-final", "59s:90"]);
    expect(late.code).toBe(5);
    expect(late.stderr).toBe(
      "msgstat: the 90th percentile of time to final status is above --max-time-to-final 59 s in 1 of 2 campaigns " +
        "and in the total\n" +
        "  cmp-a: about 1 min; 20 of 20 final messages took longer, at most 2 may\n" +
        "  total: about 1 min; 21 of 39 final messages took longer, at most 3 may\n",
    );
  });

  it("with --max-failure-rate: either above is exit 5, each named", async () => {
    // cmp-a: 2 of 20 final messages failed (10 %).
    const lateOnly = await stats(url, ["cmp-a", "--max-failure-rate", "10%", "--max-time-to-final", "4m"]);
    expect(lateOnly.code).toBe(5);
    expect(lateOnly.stderr).toBe(
      "msgstat: 95th percentile of time to final status (about 5 min 3 s) is above --max-time-to-final 4 min: " +
        "2 of 20 final messages took longer, at most 1 may\n",
    );
    const failingOnly = await stats(url, ["cmp-a", "--max-failure-rate", "9%", "--max-time-to-final", "5m"]);
    expect(failingOnly.code).toBe(5);
    expect(failingOnly.stderr).toBe(
      "msgstat: failure rate 10.0% (2 of 20 final messages) is above --max-failure-rate 9%\n",
    );
    const bothAbove = await stats(url, ["cmp-a", "--max-failure-rate", "9%", "--max-time-to-final", "4m"]);
    expect(bothAbove.code).toBe(5);
    expect(bothAbove.stderr).toBe(
      "msgstat: failure rate 10.0% (2 of 20 final messages) is above --max-failure-rate 9%\n" +
        "  95th percentile of time to final status (about 5 min 3 s) is above --max-time-to-final 4 min: " +
        "2 of 20 final messages took longer, at most 1 may\n",
    );
    const neither = await stats(url, ["cmp-a", "--max-failure-rate", "10%", "--max-time-to-final", "5m"]);
    expect(neither.code).toBe(0);
    const several = await stats(url, ["cmp-a", "cmp-b", "--max-failure-rate", "9%", "--max-time-to-final", "5m"]);
    expect(several.code).toBe(5);
    expect(several.stderr).toBe(
      "msgstat: the failure rate is above --max-failure-rate 9% in 1 of 2 campaigns\n" +
        "  cmp-a: 10.0% (2 of 20 final messages)\n" +
        "  the 95th percentile of time to final status is above --max-time-to-final 5 min in 1 of 2 campaigns " +
        "and in the total\n" +
        "  cmp-b: about 6 min 2 s; 1 of 19 final messages took longer, at most 0 may\n" +
        "  total: about 6 min 2 s; 2 of 39 final messages took longer, at most 1 may\n",
    );
  });

  it("nothing final: not checked, exit 8, as for the failure rate", async () => {
    const alone = await stats(url, ["cmp-c", "--max-time-to-final", "5m"]);
    expect(alone.code).toBe(8);
    expect(alone.stderr).toBe(
      "msgstat: --max-time-to-final 5 min not checked: no message is final\n" +
        "  1 message counted, none final yet (success or failure).\n" +
        "  The report was written; exit 8 says the threshold could not be checked.\n",
    );
    const both = await stats(url, ["cmp-c", "--max-failure-rate", "5%", "--max-time-to-final", "5m"]);
    expect(both.code).toBe(8);
    expect(both.stderr.split("\n")[0]).toBe(
      "msgstat: --max-failure-rate 5% and --max-time-to-final 5 min not checked: no message is final",
    );
    const among = await stats(url, ["cmp-a", "cmp-c", "--max-time-to-final", "5m"]);
    expect(among.code).toBe(8);
    expect(among.stderr.split("\n")[0]).toBe(
      "msgstat: --max-time-to-final 5 min not checked for cmp-c: no message is final there",
    );
    // Above somewhere wins: exit 5.
    expect((await stats(url, ["cmp-b", "cmp-c", "--max-time-to-final", "5m"])).code).toBe(5);
  });

  it("the report says the result in its time-to-final section: terminal, Markdown and the page", async () => {
    const text = await stats(url, ["cmp-a", "--max-time-to-final", "4m"]);
    expect(text.code).toBe(5);
    const lines = text.stdout.split("\n");
    const at = lines.indexOf("  --max-time-to-final 4 min (95th percentile): above the limit, 2 of 20 final");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe("  messages took longer, at most 1 may");
    // At 160 columns, one line.
    const wide = await runCli(["--base-url", url, "stats", "cmp-a", "--max-time-to-final", "4m"], {
      now: FIXED_NOW,
      columns: 160,
    });
    expect(wide.stdout.split("\n")).toContain(
      "  --max-time-to-final 4 min (95th percentile): above the limit, 2 of 20 final messages took longer, at most 1 may",
    );
    const within = await stats(url, ["cmp-a", "--max-time-to-final", "5m:95", "--format", "md"]);
    expect(within.code).toBe(0);
    expect(within.stdout).toContain(
      " --max-time-to-final 5 min (95th percentile): within the limit, 1 of 20 final messages took longer, at most 1 may\n",
    );
    const page = await stats(url, ["cmp-a", "--max-time-to-final", "1m:90", "--format", "html"]);
    expect(page.stdout).toContain(
      '<p id="time-threshold">--max-time-to-final 1 min (90th percentile): within the limit, 2 of 20 final messages ' +
        "took longer, at most 2 may</p>",
    );
    const above = await stats(url, ["cmp-a", "--max-time-to-final", "59s:90", "--format", "html"]);
    expect(above.stdout).toContain(
      '<p id="time-threshold"><strong>--max-time-to-final 59 s (90th percentile): above the limit, 20 of 20 final ' +
        "messages took longer, at most 2 may</strong></p>",
    );
    // Without the flag, no such line.
    expect((await stats(url, ["cmp-a"])).stdout).not.toContain("--max-time-to-final");
  });

  it("refuses a percentile outside 50 to 99.9 and a duration without one", async () => {
    for (const value of ["5m:49", "5m:100", "5m:p95", "fast", "5m:95:1", "0s"]) {
      const result = await stats(url, ["cmp-a", "--max-time-to-final", value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `msgstat: --max-time-to-final must be a duration from 1s to 30d, then optionally a colon and a ` +
          `percentile from 50 to 99.9 (e.g. 5m, 90s:99), not "${value}"\n`,
      );
    }
  });
});

it("promtool check metrics passes every exposition text above, with nothing to say", (context) => {
  needTool(PROMTOOL, context, "the metrics' names and format were");
  expect(written.length).toBeGreaterThanOrEqual(7);
  for (const { name, text } of written)
    expect({ name, ...promtoolCheckMetrics(text) }).toEqual({ name, code: 0, said: "" });
});

interface JsonReport {
  totals: { messages: number; attempts: number };
  byStatus: Array<{ status: string; count: number }>;
  delivery: { deliveryRate: number | null };
  timeToFinal: { measured: number };
  threshold: unknown;
  timeToFinalThreshold: unknown;
}

/** The value of the series named exactly so. */
function sample(text: string, series: string): string | undefined {
  return text
    .split("\n")
    .find((line) => line.startsWith(`${series} `))
    ?.slice(series.length + 1);
}

/** The msgstat_failed_messages series. */
function failedLines(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("msgstat_failed_messages{"));
}

/** A campaign's series, without the comments. */
function seriesOf(text: string, campaignId: string): string[] {
  return text.split("\n").filter((line) => line.includes(`{campaign="${campaignId}"`));
}

const stamp = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** A failed message whose one attempt failed with this error, created `i` seconds before an hour ago. */
function failed(id: string, i: number, errorType: string, errorCode: string): Record<string, unknown> {
  const created = FIXED_NOW - 3_600_000 - i * 1000;
  return {
    id,
    createdAt: stamp(created),
    latestStatus: "failure",
    recipient: "15550100",
    messageAttempts: [
      {
        id: `att-${id}`,
        status: "failure",
        createdAt: stamp(created + 100),
        updatedAt: stamp(created + 5000),
        errorType,
        errorCode,
      },
    ],
  };
}

/** A delivered message whose last attempt was updated `ms` after it was created. */
function final(id: string, ms: number): Record<string, unknown> {
  const created = FIXED_NOW - 86_400_000;
  return {
    id,
    createdAt: stamp(created),
    latestStatus: "success",
    recipient: "15550100",
    messageAttempts: [
      { id: `att-${id}`, status: "success", createdAt: stamp(created + 100), updatedAt: stamp(created + ms) },
    ],
  };
}

const LOYALTY_ES =
  [
    "# HELP msgstat_campaign_up 1 when msgstat's last run read the campaign's messages to the end, 0 when it could not.",
    "# TYPE msgstat_campaign_up gauge",
    'msgstat_campaign_up{campaign="cmp-loyalty-es"} 1',
    "# HELP msgstat_last_run_timestamp_seconds When msgstat's last run wrote these metrics, in seconds since the Unix epoch.",
    "# TYPE msgstat_last_run_timestamp_seconds gauge",
    'msgstat_last_run_timestamp_seconds{campaign="cmp-loyalty-es"} 1746100800',
    "# HELP msgstat_messages Messages by latest status.",
    "# TYPE msgstat_messages gauge",
    'msgstat_messages{campaign="cmp-loyalty-es",status="success"} 50',
    'msgstat_messages{campaign="cmp-loyalty-es",status="failure"} 7',
    'msgstat_messages{campaign="cmp-loyalty-es",status="created"} 3',
    "# HELP msgstat_attempts Send attempts of the messages.",
    "# TYPE msgstat_attempts gauge",
    'msgstat_attempts{campaign="cmp-loyalty-es"} 79',
    '# HELP msgstat_failed_messages Failed messages by the error of their latest failed attempt; past the 15 most frequent, "other".',
    "# TYPE msgstat_failed_messages gauge",
    'msgstat_failed_messages{campaign="cmp-loyalty-es",error_type="delivery_error",error_code="delivery_unknown_error"} 4',
    'msgstat_failed_messages{campaign="cmp-loyalty-es",error_type="server_error",error_code="server_unknown_error"} 3',
    "# HELP msgstat_delivery_ratio Messages delivered (success) over the messages in a final state (success or failure).",
    "# TYPE msgstat_delivery_ratio gauge",
    'msgstat_delivery_ratio{campaign="cmp-loyalty-es"} 0.8771929824561403',
    "# HELP msgstat_failure_ratio Messages failed over the messages in a final state (success or failure).",
    "# TYPE msgstat_failure_ratio gauge",
    'msgstat_failure_ratio{campaign="cmp-loyalty-es"} 0.12280701754385964',
    "# HELP msgstat_time_to_final_status_seconds Time from a message's creation to the last update of its attempts, of messages in a final state.",
    "# TYPE msgstat_time_to_final_status_seconds histogram",
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="1"} 0',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="5"} 0',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="10"} 0',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="30"} 2',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="60"} 3',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="120"} 8',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="300"} 27',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="600"} 43',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="1800"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="3600"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="7200"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="21600"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="43200"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="86400"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="172800"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="604800"} 57',
    'msgstat_time_to_final_status_seconds_bucket{campaign="cmp-loyalty-es",le="+Inf"} 57',
    'msgstat_time_to_final_status_seconds_sum{campaign="cmp-loyalty-es"} 25200.468',
    'msgstat_time_to_final_status_seconds_count{campaign="cmp-loyalty-es"} 57',
  ].join("\n") + "\n";
