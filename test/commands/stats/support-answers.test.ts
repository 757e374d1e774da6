// Issue 21's stats answers, against a real sandbox: one batch at a time (--batch twice is refused),
// batch ids where the 404 hint points, a threshold that could not be checked (exit 8), CSV figures
// rounded alike in every table, and the summary table --csv writes without --by.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW } from "../../sandbox/http-helpers.js";
import { runCli } from "../../support/run-cli.js";
import { expectedBatchRows, fetchSelected } from "./expected.js";

const CAMPAIGN = "cmp-spring-sale";

let sandbox: Sandbox;
let campaign: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, messages: 3000, now: FIXED_NOW });
  campaign = await fetchSelected(sandbox.url, { campaignId: CAMPAIGN });
});
afterAll(() => sandbox.close());

const stats = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli(["--base-url", sandbox.url, "stats", ...args], { now: FIXED_NOW, ...options });

const readCsv = (text: string) => parse<Record<string, string>>(text, { columns: true });

describe("--batch takes one batch (defect 2)", () => {
  it("given twice with two ids: exit 2, nothing sent, the flag named and what to do instead", async () => {
    const before = sandbox.requests.length;
    const result = await stats([CAMPAIGN, "--batch", "bat-spring-w1", "--batch", "bat-spring-w2"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: --batch takes one value, not "bat-spring-w1" and "bat-spring-w2"\n' +
        "  Run stats once per batch, or leave out --batch for a row per batch.\n",
    });
    expect(sandbox.requests.length).toBe(before);
  });

  it("the same id twice is the same report as once", async () => {
    const once = await stats([CAMPAIGN, "--batch", "bat-spring-w1", "--json"]);
    expect(once.code).toBe(0);
    expect(await stats([CAMPAIGN, "--batch", "bat-spring-w1", "--batch", "bat-spring-w1", "--json"])).toEqual(once);
  });
});

describe("the batch ids are where the 404 hint points (defect 3)", () => {
  const batchSection = (stdout: string) => {
    const lines = stdout.split("\n");
    const start = lines.indexOf("By batch");
    return lines.slice(start + 1, lines.indexOf("", start));
  };

  it.each([80, 160])(
    "at %i columns, By batch starts each row with the id, and that id works in --batch",
    async (columns) => {
      const result = await stats([CAMPAIGN], { columns });
      expect(result.code).toBe(0);
      const rows = expectedBatchRows(campaign);
      const section = batchSection(result.stdout);
      expect(section[0]).toMatch(/^ {2}batch id {7}file +size +counted +success +failure +delivered$/);
      expect(section.slice(1).map((line) => line.split(/ {2,}/)[1])).toEqual(
        rows.map((row) => row.batchId ?? "(no batch)"),
      );
      // A file name too, at 160 columns: the id beside the name a person uploaded.
      if (columns === 160)
        for (const row of rows.filter((row) => row.batchId !== null))
          expect(section.some((line) => line.startsWith(`  ${row.batchId}  ${row.fileName}`))).toBe(true);
      const id = section[1]!.split(/ {2,}/)[1]!;
      const one = await stats([CAMPAIGN, "--batch", id]);
      expect(one.code).toBe(0);
      expect(one.stdout.split("\n")[0]).toBe(`Delivery report: batch ${id} of campaign ${CAMPAIGN}, times in UTC`);
    },
  );

  it("a file name given as a batch id is a 404 whose hint says where the ids are", async () => {
    const result = await stats([CAMPAIGN, "--batch", "spring-sale-wave-1.csv"]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n")[1]).toBe(
      "  Check the campaign id cmp-spring-sale and the batch id spring-sale-wave-1.csv: the batch must belong " +
        "to that campaign (msgstat stats cmp-spring-sale shows each batch id in its By batch table).",
    );
  });
});

describe("a batch's ids swapped", () => {
  it("stats <batch id> --batch <campaign id>: a 404 whose hint says which id goes where", async () => {
    const result = await stats(["bat-spring-w1", "--batch", CAMPAIGN]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n")[1]).toBe(
      "  The ids look swapped: cmp-spring-sale looks like the campaign id and bat-spring-w1 like the batch id.",
    );
  });
});

describe("--max-failure-rate with nothing to measure (defect 7)", () => {
  it("an empty campaign: the report, then exit 8 and why on stderr", async () => {
    expect(await stats(["cmp-empty", "--max-failure-rate", "10"])).toEqual({
      code: 8,
      stdout: "Delivery report: campaign cmp-empty\n\nSummary\nNo messages found: nothing to report.\n",
      stderr:
        "msgstat: --max-failure-rate 10% not checked: no message is final\n" +
        "  Nothing was counted: an empty campaign, or no message in the window or filters.\n" +
        "  The report was written; exit 8 says the threshold could not be checked.\n",
    });
  });

  it("a window with no message (--since 1m): exit 8; the JSON says checked: false", async () => {
    const result = await stats([CAMPAIGN, "--since", "1m", "--max-failure-rate", "10", "--json"]);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout)).toMatchObject({
      totals: { messages: 0 },
      threshold: { maxFailureRate: 10, exceeded: false, checked: false },
    });
    // The note that no message matched (the listing has messages, the window none), then why exit 8.
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      expect.stringMatching(/^No messages matched\. Statuses of the messages read: /),
      "msgstat: --max-failure-rate 10% not checked: no message is final",
    ]);
  });

  it("messages counted but none final: exit 8, the count in the hint", async () => {
    const created = campaign.filter((m) => m.latestStatus === "created").length;
    const result = await stats([CAMPAIGN, "--status", "created", "--max-failure-rate", "10"]);
    expect(result.code).toBe(8);
    expect(result.stderr.split("\n").slice(1)).toEqual([
      `  ${created} messages counted, none final yet (success or failure).`,
      "  The report was written; exit 8 says the threshold could not be checked.",
      "",
    ]);
  });

  it("with final messages it is checked as before: exit 0 within the limit, checked: true", async () => {
    const result = await stats([CAMPAIGN, "--max-failure-rate", "100", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ threshold: { exceeded: false, checked: true } });
  });
});

describe("CSV figures (defect 9) and --csv without --by", () => {
  const FRACTION = /^(0|1)\.\d{4}$/;

  it("shares and rates have 4 decimals in every table; the JSON keeps them whole", async () => {
    const columnsOf: Record<string, string[]> = {
      summary: ["deliveryRate", "failureRate"],
      status: ["share"],
      error: ["share"],
      batch: ["deliveryRate"],
      attempts: ["share"],
    };
    for (const [by, columns] of Object.entries(columnsOf)) {
      const rows = readCsv((await stats([CAMPAIGN, "--csv", "--by", by])).stdout);
      expect(rows.length, by).toBeGreaterThan(0);
      for (const row of rows) for (const column of columns) expect(row[column], `${by} ${column}`).toMatch(FRACTION);
    }
    const json = JSON.parse((await stats([CAMPAIGN, "--json"])).stdout) as { failures: Array<{ share: number }> };
    expect(json.failures.some((row) => String(row.share).length > 6)).toBe(true);
  });

  it('the messages in no batch: an empty id, and "(no batch)" as the name', async () => {
    const rows = readCsv((await stats([CAMPAIGN, "--csv", "--by", "batch"])).stdout);
    const loose = campaign.filter((m) => (m.batches ?? []).length === 0).length;
    expect(rows.at(-1)).toMatchObject({ batchId: "", fileName: "(no batch)", totalMessages: "", messages: `${loose}` });
  });

  it("--csv alone is the summary: one row of the headline figures", async () => {
    const final = campaign.filter((m) => m.latestStatus === "success" || m.latestStatus === "failure");
    const success = final.filter((m) => m.latestStatus === "success").length;
    const attempts = campaign.reduce((sum, m) => sum + (m.numAttempts ?? 0), 0);
    const result = await stats([CAMPAIGN, "--csv"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\r\n");
    expect(lines[0]).toBe(
      "campaignId,batchId,since,until,messages,attempts,final,success,failure,notFinal,deliveryRate," +
        "failureRate,firstCreatedAt,lastCreatedAt",
    );
    const rate = (n: number) => (Math.round((n / final.length) * 1e4) / 1e4).toFixed(4);
    const times = campaign.map((m) => m.createdAt).sort((a, b) => Date.parse(a) - Date.parse(b));
    expect(lines.slice(1)).toEqual([
      [
        CAMPAIGN,
        "",
        "",
        "",
        campaign.length,
        attempts,
        final.length,
        success,
        final.length - success,
        campaign.length - final.length,
        rate(success),
        rate(final.length - success),
        times[0],
        times.at(-1),
      ].join(","),
      "",
    ]);
    expect(await stats([CAMPAIGN, "--csv", "--by", "summary"])).toEqual(result);
  });
});
