// `msgstat stats <campaignId...>` against a real sandbox: each campaign's report exactly as `stats <id>`
// gives it, the total counted independently over all their messages (expected.ts), the comparison's
// exact lines at 80 and 160 columns, --max-failure-rate per campaign and total, and a campaign that
// cannot be read.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW } from "../../sandbox/http-helpers.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import { expectedReport, fetchSelected } from "./expected.js";

const CAMPAIGNS = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts"];

let sandbox: Sandbox;
let all: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, messages: 3000, now: FIXED_NOW });
  all = [];
  for (const campaignId of CAMPAIGNS) all.push(...(await fetchSelected(sandbox.url, { campaignId })));
});
afterAll(() => sandbox.close());

const stats = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli(["--base-url", sandbox.url, "stats", ...args], { now: FIXED_NOW, ...options });

describe("--json: {campaigns, total}", () => {
  it("each campaign's report is exactly `stats <id> --json`; the total is the report over all their messages", async () => {
    const result = await stats([...CAMPAIGNS, "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { campaigns, total, ...rest } = JSON.parse(result.stdout) as {
      campaigns: Array<Record<string, unknown>>;
      total: Record<string, unknown>;
    };
    expect(rest).toEqual({});
    expect(campaigns.length).toBe(3);
    for (const [i, campaignId] of CAMPAIGNS.entries()) {
      const single = await stats([campaignId, "--json"]);
      expect(single.code).toBe(0);
      expect(campaigns[i]).toEqual(JSON.parse(single.stdout));
    }
    expect(all.length).toBe(3000 + 600 + 60);
    const { generatedAt, ...totalReport } = total;
    expect(generatedAt).toBe(new Date(FIXED_NOW).toISOString());
    expect(totalReport).toEqual({
      ...expectedReport(all, { campaignId: CAMPAIGNS.join(",") }),
      campaignIds: CAMPAIGNS,
    });
  });

  it("with filters, each campaign and the total counted as filtered", async () => {
    const since = FIXED_NOW - 7 * 86_400_000;
    const result = await stats([...CAMPAIGNS, "--status", "failure", "--since", "7d", "--json"]);
    expect(result.code).toBe(0);
    const { total } = JSON.parse(result.stdout) as { total: Record<string, unknown> };
    const kept = all.filter((m) => m.latestStatus === "failure" && Date.parse(m.createdAt) >= since);
    expect(kept.length).toBeGreaterThan(20);
    const { generatedAt: _, ...totalReport } = total;
    expect(totalReport).toEqual({
      ...expectedReport(kept, { campaignId: CAMPAIGNS.join(","), statuses: ["failure"], since }),
      campaignIds: CAMPAIGNS,
    });
  });

  it("a campaign named twice counts once", async () => {
    const result = await stats(["cmp-otp-alerts", "cmp-loyalty-es", "cmp-otp-alerts", "--json"]);
    const { campaigns } = JSON.parse(result.stdout) as { campaigns: Array<{ campaignId: string }> };
    expect(campaigns.map((report) => report.campaignId)).toEqual(["cmp-otp-alerts", "cmp-loyalty-es"]);
  });
});

describe("the comparison", () => {
  const COMPARISON_80 = [
    "Campaigns compared (3)",
    "  campaign         messages  success  failure  not final  delivered  failed",
    "  cmp-spring-sale     3,000    2,573      354         73      87.9%   12.1%",
    "  cmp-loyalty-es        600      519       70         11      88.1%   11.9%",
    "  cmp-otp-alerts         60       53        6          1      89.8%   10.2%",
    "  total               3,660    3,145      430         85      88.0%   12.0%",
  ];

  it("at 80 columns: messages, counts and rates; the rest left out", async () => {
    const result = await stats(CAMPAIGNS, { columns: 80 });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    // The title first, as in the page and the Markdown; then the comparison.
    expect(result.stdout.split("\n")[0]).toBe(
      "Delivery report: 3 campaigns together (cmp-spring-sale, cmp-loyalty-es,",
    );
    expect(result.stdout.split("\n").slice(3, 10)).toEqual([...COMPARISON_80, ""]);
  });

  it("at 160 columns: every column", async () => {
    const result = await stats(CAMPAIGNS, { columns: 160 });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(2, 9)).toEqual([
      "Campaigns compared (3)",
      "  campaign         messages  success  failure  not final  delivered  failed  attempts/msg  top error",
      "  cmp-spring-sale     3,000    2,573      354         73      87.9%   12.1%          1.31  delivery_unknown_error 38.4%",
      "  cmp-loyalty-es        600      519       70         11      88.1%   11.9%          1.31  delivery_unknown_error 41.4%",
      "  cmp-otp-alerts         60       53        6          1      89.8%   10.2%          1.35  recipient_unavailable 50.0%",
      "  total               3,660    3,145      430         85      88.0%   12.0%          1.31  delivery_unknown_error 38.6%",
      "",
    ]);
    // Under the title; then the usual report, of all of them together.
    expect(result.stdout).toMatch(
      /^Delivery report: 3 campaigns together \(cmp-spring-sale, cmp-loyalty-es, cmp-otp-alerts\), times in UTC\n\nCampaigns compared \(3\)\n/,
    );
    expect(result.stdout).toContain("\n\nAll campaigns together\n3,660 messages");
  });

  it("its figures are those of the single-campaign reports", async () => {
    const result = await stats(CAMPAIGNS, { columns: 160 });
    const rows = result.stdout.split("\n").slice(4, 7);
    for (const [i, campaignId] of CAMPAIGNS.entries()) {
      const report = JSON.parse((await stats([campaignId, "--json"])).stdout) as {
        totals: { messages: number };
        delivery: { success: number; failure: number; notFinal: number };
      };
      const cells = rows[i]!.trim().split(/\s+/);
      expect(cells.slice(0, 5)).toEqual([
        campaignId,
        report.totals.messages.toLocaleString("en-US"),
        report.delivery.success.toLocaleString("en-US"),
        report.delivery.failure.toLocaleString("en-US"),
        String(report.delivery.notFinal),
      ]);
    }
  });
});

describe("--max-failure-rate", () => {
  it("checked against each campaign and the total: stderr names each one above it, exit 5", async () => {
    const result = await stats([...CAMPAIGNS, "--max-failure-rate", "11"], { columns: 80 });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(
      "msgstat: the failure rate is above --max-failure-rate 11% in 2 of 3 campaigns and in the total\n" +
        "  cmp-spring-sale: 12.1% (354 of 2,927 final messages)\n" +
        "  cmp-loyalty-es: 11.9% (70 of 589 final messages)\n" +
        "  total: 12.0% (430 of 3,575 final messages)\n",
    );
    // The report is still written, whole.
    expect(result.stdout.split("\n")[3]).toBe("Campaigns compared (3)");
  });

  it("one campaign above it and not the total", async () => {
    // 12.05 %: cmp-spring-sale's 354 of 2,927 (12.09 %) is above it, the total's 430 of 3,575 (12.03 %) is not.
    const result = await stats([...CAMPAIGNS, "--max-failure-rate", "12.05", "--json"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(
      "msgstat: the failure rate is above --max-failure-rate 12.05% in 1 of 3 campaigns\n" +
        "  cmp-spring-sale: 12.1% (354 of 2,927 final messages)\n",
    );
    const { campaigns, total } = JSON.parse(result.stdout) as {
      campaigns: Array<{ threshold: { exceeded: boolean } }>;
      total: { threshold: { exceeded: boolean } };
    };
    expect(campaigns.map((report) => report.threshold.exceeded)).toEqual([true, false, false]);
    expect(total.threshold.exceeded).toBe(false);
  });

  it("nothing final to measure (only messages not yet final): not a pass, exit 8 naming each", async () => {
    const result = await stats([...CAMPAIGNS, "--status", "created", "--max-failure-rate", "10"], { columns: 80 });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe(
      "msgstat: --max-failure-rate 10% not checked for cmp-spring-sale, cmp-loyalty-es, cmp-otp-alerts, total: " +
        "no message is final there\n" +
        "  The report was written; exit 8 says the threshold could not be checked for all of it.\n",
    );
    // The comparison first after the title and the filters.
    const lines = result.stdout.split("\n");
    expect(lines[lines.indexOf("") + 1]).toBe("Campaigns compared (3)");
  });

  it("none above it: exit 0", async () => {
    const result = await stats([...CAMPAIGNS, "--max-failure-rate", "12.2", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });
});

describe("a campaign that cannot be read", () => {
  const notFound =
    "warning: campaign cmp-nope: not found: GET {url}/campaigns/cmp-nope/messages?limit=1000 answered HTTP 404: " +
    'Campaign "cmp-nope" does not exist. (campaign_not_found)\n';

  it("is named on stderr and in its row; the others are reported, the total is theirs; exit 3", async () => {
    const result = await stats(["cmp-loyalty-es", "cmp-nope", "cmp-otp-alerts"], { columns: 80 });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      notFound.replace("{url}", sandbox.url) + "msgstat: 2 of 3 campaigns complete; not read to the end: cmp-nope\n",
    );
    expect(result.stdout.split("\n").slice(4, 10)).toEqual([
      "Campaigns compared (2 of 3 counted)",
      "  campaign        messages  success  failure  not final  delivered  failed",
      "  cmp-loyalty-es       600      519       70         11      88.1%   11.9%",
      "  cmp-nope        not counted: not found (404)",
      "  cmp-otp-alerts        60       53        6          1      89.8%   10.2%",
      "  total                660      572       76         12      88.3%   11.7%",
    ]);
  });

  it("--json: the campaigns counted, their total, and which were not", async () => {
    const result = await stats(["cmp-loyalty-es", "cmp-nope", "cmp-otp-alerts", "--json"]);
    expect(result.code).toBe(3);
    const { campaigns, total, incomplete } = JSON.parse(result.stdout) as {
      campaigns: Array<{ campaignId: string }>;
      total: { campaignIds: string[]; totals: { messages: number } };
      incomplete: Array<{ campaignId: string; reason: string }>;
    };
    expect(campaigns.map((report) => report.campaignId)).toEqual(["cmp-loyalty-es", "cmp-otp-alerts"]);
    expect(total.campaignIds).toEqual(["cmp-loyalty-es", "cmp-otp-alerts"]);
    expect(total.totals.messages).toBe(660);
    expect(incomplete).toEqual([
      {
        campaignId: "cmp-nope",
        reason:
          `not found: GET ${sandbox.url}/campaigns/cmp-nope/messages?limit=1000 answered HTTP 404: ` +
          'Campaign "cmp-nope" does not exist. (campaign_not_found)',
      },
    ]);
  });

  it("with -o, the file is left as it was; thresholds above are still named", async () => {
    const folder = scratchFolder("stats-campaigns");
    const file = path.join(folder, "report.json");
    writeFileSync(file, "before\n");
    const result = await stats([
      "cmp-loyalty-es",
      "cmp-nope",
      "cmp-otp-alerts",
      "--max-failure-rate",
      "11",
      "-o",
      file,
    ]);
    expect(result.code).toBe(3);
    expect(readFileSync(file, "utf8")).toBe("before\n");
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      notFound.replace("{url}", sandbox.url) +
        "warning: the failure rate is above --max-failure-rate 11% in 1 of the 2 campaigns counted and in the total\n" +
        "warning: cmp-loyalty-es: 11.9% (70 of 589 final messages)\n" +
        "warning: total: 11.7% (76 of 648 final messages)\n" +
        `${file} was left as it was: not every campaign was complete (add --partial to keep what came)\n` +
        "msgstat: 2 of 3 campaigns complete; not read to the end: cmp-nope\n",
    );
  });
});

describe("a partial report says so first, naming what is missing", () => {
  const asked = ["cmp-loyalty-es", "cmp-nope", "cmp-otp-alerts"];
  const lastLine = "msgstat: 2 of 3 campaigns complete; not read to the end: cmp-nope\n";

  it("the terminal: the first line, and the total's title and the line under it", async () => {
    const result = await stats(asked, { columns: 80 });
    expect(result.code).toBe(3);
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "Partial delivery report: 2 of 3 campaigns together (cmp-loyalty-es,",
      "  cmp-otp-alerts), times in UTC",
      "Not counted: cmp-nope. No figure below includes it.",
      "",
      "Campaigns compared (2 of 3 counted)",
    ]);
  });

  it("Markdown: the title, then which campaign and why", async () => {
    const result = await stats(["cmp-otp-alerts", "cmp-nope", "--format", "md"]);
    expect(result.code).toBe(3);
    expect(result.stdout.split("\n").slice(0, 3)).toEqual([
      "# Partial delivery report: campaign cmp-otp-alerts, 1 of 2 campaigns",
      "",
      "> **Not counted: cmp-nope, not found (404). No figure below includes it.**",
    ]);
  });

  it("HTML: the title, the heading and the line under it; the data inside names it too", async () => {
    const result = await stats([...asked, "--format", "html"]);
    expect(result.code).toBe(3);
    const title = "Partial delivery report: 2 of 3 campaigns together (cmp-loyalty-es, cmp-otp-alerts)";
    expect(result.stdout).toContain(`<title>${title}</title>`);
    expect(result.stdout).toContain(
      '<h1>Partial delivery report: 2 of 3 campaigns together (<span class="id">cmp-loyalty-es</span>, ' +
        '<span class="id">cmp-otp-alerts</span>)</h1>\n<p class="partial" id="not-counted">Not counted: ' +
        '<span class="id">cmp-nope</span>, not found (404). No figure below includes it.</p>\n<dl class="about">',
    );
    const data = /<script type="application\/json" id="msgstat-report">(.*)<\/script>/s.exec(result.stdout)![1]!;
    expect((JSON.parse(data) as { total: { campaignIdsNotCounted: string[] } }).total.campaignIdsNotCounted).toEqual([
      "cmp-nope",
    ]);
  });

  it("JSON: the total names the campaigns it does not include; a complete total has no such field", async () => {
    const partial = JSON.parse((await stats([...asked, "--json"])).stdout) as { total: Record<string, unknown> };
    expect(partial.total).toMatchObject({
      campaignIds: ["cmp-loyalty-es", "cmp-otp-alerts"],
      campaignIdsNotCounted: ["cmp-nope"],
    });
    const whole = JSON.parse((await stats([...CAMPAIGNS, "--json"])).stdout) as { total: Record<string, unknown> };
    expect(whole.total).not.toHaveProperty("campaignIdsNotCounted");
  });

  it("with no campaign counted, no title reads as a report of campaigns", async () => {
    const terminal = await stats(["cmp-nope", "cmp-gone"], { columns: 80 });
    expect(terminal.code).toBe(3);
    expect(terminal.stdout.split("\n").slice(0, 4)).toEqual([
      "Partial delivery report: none of 2 campaigns counted",
      "Not counted: cmp-nope, cmp-gone. No figure below includes them.",
      "",
      "Campaigns compared (0 of 2 counted)",
    ]);
    const md = await stats(["cmp-nope", "cmp-gone", "--format", "md"]);
    expect(md.stdout.split("\n").slice(0, 9)).toEqual([
      "# Partial delivery report: none of 2 campaigns counted",
      "",
      "> **Not counted: cmp-nope, not found (404); cmp-gone, not found (404). No figure below includes them.**",
      "",
      expect.stringMatching(/^- \*\*Generated:\*\* /),
      "- **By:** msgstat 0.1.0",
      "- **Campaigns:** none counted",
      "- **Filters:** none",
      "- **Time zone:** UTC",
    ]);
  });

  it("--partial with -o writes the partial report and says what it is missing; the exit code is the same", async () => {
    const folder = scratchFolder("stats-campaigns");
    const file = path.join(folder, "nightly.md");
    writeFileSync(file, "yesterday\n");
    const result = await stats([...asked, "--partial", "-o", file]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr:
        notFoundLine() +
        `wrote the partial report of 660 messages in 2 of 3 campaigns to ${file}\n` +
        `${file} is missing campaign cmp-nope; it says so\n` +
        lastLine,
    });
    expect(readFileSync(file, "utf8")).toBe((await stats([...asked, "--format", "md"])).stdout);
    // Under --quiet, what the file lacks is still said.
    const quiet = await stats(["--quiet", ...asked, "--partial", "-o", file]);
    expect(quiet.stderr).toBe(notFoundLine() + `${file} is missing campaign cmp-nope; it says so\n` + lastLine);
  });

  it("--partial never replaces a file by the report of nothing", async () => {
    const folder = scratchFolder("stats-campaigns");
    const file = path.join(folder, "nightly.json");
    writeFileSync(file, "yesterday\n");
    const result = await stats(["cmp-nope", "--partial", "cmp-gone", "-o", file]);
    expect(result.code).toBe(3);
    expect(readFileSync(file, "utf8")).toBe("yesterday\n");
    expect(result.stderr.split("\n").slice(-3)).toEqual([
      `${file} was left as it was: no campaign could be read`,
      "msgstat: 0 of 2 campaigns complete; not read to the end: cmp-nope, cmp-gone",
      "",
    ]);
  });
});

function notFoundLine(id = "cmp-nope"): string {
  return (
    `warning: campaign ${id}: not found: GET ${sandbox.url}/campaigns/${id}/messages?limit=1000 answered HTTP 404: ` +
    `Campaign "${id}" does not exist. (campaign_not_found)\n`
  );
}

describe("--csv --by", () => {
  it("writes that table of the total, as `stats <id> --csv --by` does of one campaign", async () => {
    const result = await stats([...CAMPAIGNS, "--csv", "--by", "status"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\r\n");
    const success = all.filter((m) => m.latestStatus === "success").length;
    expect(lines.find((line) => line.startsWith("success,"))!.split(",")[1]).toBe(String(success));
    expect(success).toBe(3145);
  });
});

describe("what goes with one campaign only", () => {
  it.each([
    [["--batch", "bat-spring-w1"], "msgstat: --batch goes with one campaign, not 2\n"],
    [["--watch"], "msgstat: --watch goes with one campaign, not 2\n"],
  ])("%j is a usage error", async (flags, stderr) => {
    expect(await stats(["cmp-spring-sale", "cmp-otp-alerts", ...flags])).toEqual({ code: 2, stdout: "", stderr });
  });
});
