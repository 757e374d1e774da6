// Tier 2: `messages` and `batch` in JSON, JSONL and CSV against a real sandbox, compared with the
// pages the server sends (fetched here with global fetch): exact stdout, stderr and exit code.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import {
  cli,
  cliWithRequests,
  ids,
  jsonArrayText,
  jsonlText,
  moreHint,
  newestFailedAttempt,
  PIPED_TABLE_HEADER,
  serverListing,
  serverPage,
  startTestSandbox,
  useListingSandbox,
} from "../../support/cli-helpers.js";

const CAMPAIGN = "/campaigns/cmp-spring-sale/messages";
let sandbox: Sandbox;
let all: Message[];

useListingSandbox(CAMPAIGN, (started, messages) => {
  sandbox = started;
  all = messages;
});

const FORMULA = /^[=+\-@\t\r]/;
const guarded = (text: string) => (FORMULA.test(text) ? `'${text}` : text);
const readCsv = (text: string): Record<string, string>[] =>
  parse<Record<string, string>>(text, { columns: true, relax_column_count: false });

function defaultCsvRecord(message: Message, batchId = message.batchId ?? ""): Record<string, string> {
  const failed = newestFailedAttempt(message);
  return {
    id: message.id,
    recipient: message.recipient,
    latestStatus: message.latestStatus,
    createdAt: message.createdAt,
    attemptCount: String(message.numAttempts),
    lastErrorType: failed?.errorType ?? "",
    lastErrorCode: failed?.errorCode ?? "",
    batchId,
    fullMessage: guarded(message.fullMessage),
  };
}

describe("JSON", () => {
  it("without -n prints every message exactly as the server sent them, nothing on stderr (issue 21)", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", "--json"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(jsonArrayText(all));
    expect(urls).toEqual([`${CAMPAIGN}?limit=1000`]);
  });

  it("-n 50 prints the first 50 and how to go on", async () => {
    const page = await serverPage(sandbox, CAMPAIGN, { limit: 50 });
    const args = ["messages", "cmp-spring-sale", "-n", "50", "--json"];
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, args);
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: moreHint(["--base-url", sandbox.url, ...args], 50, "after", page.pageData.endCursor!),
    });
    expect(stdout).toBe(jsonArrayText(page.data));
    expect(urls).toEqual([`${CAMPAIGN}?limit=50`]);
  });

  it("--all streams every page into one array equal to the server's data (--page-size 30: seven requests)", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--json",
      "--page-size",
      "30",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(stdout)).toEqual(all);
    expect(stdout).toBe(jsonArrayText(all));
    expect(urls).toHaveLength(7);
    expect(urls.every((url) => url.startsWith(`${CAMPAIGN}?limit=30`))).toBe(true);
  });

  it("keeps keys the reference does not list, and renames nothing", async () => {
    const extra = await startTestSandbox({
      messages: 10,
      transform: (body) => {
        const page = body as { data: Record<string, unknown>[] };
        for (const message of page.data) {
          message.shinyNewField = { nested: [1, "two", null] };
          message.latestStatus = "queued_for_carrier";
        }
        return page;
      },
    });
    try {
      const expected = await serverListing(extra, "/campaigns/cmp-otp-alerts/messages");
      const { code, stdout, stderr } = await cli(extra, ["messages", "cmp-otp-alerts", "--jsonl"]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toBe(jsonlText(expected));
      expect((JSON.parse(stdout.split("\n")[0]!) as Record<string, unknown>).shinyNewField).toEqual({
        nested: [1, "two", null],
      });
    } finally {
      await extra.close();
    }
  });

  it("a batch listing prints the batch's messages as sent (no batches, no batchId)", async () => {
    const batch = sandbox.campaigns[0]!.batches[0]!;
    const expected = await serverListing(sandbox, `/campaigns/cmp-spring-sale/batch/${batch.id}/messages`);
    const { code, stdout, stderr } = await cli(sandbox, [
      "batch",
      "cmp-spring-sale",
      batch.id,
      "--all",
      "--format",
      "json",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(stdout)).toEqual(expected);
    expect(expected).toHaveLength(batch.size);
    expect(expected.some((message) => "batches" in message || "batchId" in message)).toBe(false);
  });

  it("on a terminal the array is indented, and still the same data", async () => {
    const { code, stdout, stderr } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "2", "--json"], {
      tty: true,
    });
    expect(code).toBe(0);
    expect(stderr).toContain("Showing 2 messages");
    expect(JSON.parse(stdout)).toEqual(all.slice(0, 2));
    expect(stdout.startsWith(`[\n  {\n    "id": "${all[0]!.id}",\n`)).toBe(true);
  });

  it("--fields chooses the keys, dotted and derived, in order; a missing value is null", async () => {
    const fields = [
      "id",
      "values.first_name",
      "templateBody.body",
      "batches.0.originalFileName",
      "messageAttempts.-1.status",
      "lastErrorCode",
      "attemptCount",
      "batchFile",
    ];
    const { code, stdout, stderr } = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--json",
      "--fields",
      fields.join(","),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const expected = all.map((m) => ({
      id: m.id,
      "values.first_name": m.values.first_name ?? null,
      "templateBody.body": m.templateBody.body,
      "batches.0.originalFileName": m.batches?.[0]?.originalFileName ?? null,
      "messageAttempts.-1.status": m.messageAttempts!.at(-1)!.status,
      lastErrorCode: newestFailedAttempt(m)?.errorCode ?? null,
      attemptCount: m.numAttempts,
      batchFile: m.batches?.[0]?.originalFileName ?? null,
    }));
    expect(stdout).toBe(jsonArrayText(expected));
    // The data exercises both sides of every optional field.
    expect(
      expected.some((row) => row.lastErrorCode !== null) && expected.some((row) => row.lastErrorCode === null),
    ).toBe(true);
    expect(expected.some((row) => row.batchFile !== null) && expected.some((row) => row.batchFile === null)).toBe(true);
  });
});

describe("JSONL", () => {
  it("--all --jsonl prints one server object per line, across pages", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--jsonl",
      "--page-size",
      "64",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(jsonlText(all));
    expect(
      stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(all);
    expect(urls).toHaveLength(4);
  });

  it("--jsonl --fields projects each line", async () => {
    const { code, stdout, stderr } = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "-n",
      "3",
      "--jsonl",
      "--fields",
      "id,recipient,lastErrorType",
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^Showing 3 messages; more may follow\./);
    expect(stdout).toBe(
      jsonlText(
        all
          .slice(0, 3)
          .map((m) => ({ id: m.id, recipient: m.recipient, lastErrorType: newestFailedAttempt(m)?.errorType ?? null })),
      ),
    );
  });
});

describe("CSV", () => {
  it("default columns, read back with csv-parse, equal the data (RFC 4180: CRLF, quotes, embedded newlines)", async () => {
    const { code, stdout, stderr } = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--csv",
      "--page-size",
      "45",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(
      stdout.startsWith(
        "id,recipient,latestStatus,createdAt,attemptCount,lastErrorType,lastErrorCode,batchId,fullMessage\r\n",
      ),
    ).toBe(true);
    expect(readCsv(stdout)).toEqual(all.map((m) => defaultCsvRecord(m)));
    // The sandbox's hostile values are really in there: a newline and a quote inside a cell.
    expect(all.some((m) => m.fullMessage.includes("\n"))).toBe(true);
    expect(all.some((m) => m.fullMessage.includes('"'))).toBe(true);
  });

  it("a batch listing fills batchId from the listing", async () => {
    const batch = sandbox.campaigns[0]!.batches[1]!;
    const expected = await serverListing(sandbox, `/campaigns/cmp-spring-sale/batch/${batch.id}/messages`);
    const { code, stdout, stderr } = await cli(sandbox, ["batch", "cmp-spring-sale", batch.id, "--all", "--csv"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(readCsv(stdout)).toEqual(expected.map((m) => defaultCsvRecord(m, batch.id)));
  });

  it("--fields chooses the columns; objects are JSON in a cell", async () => {
    const { code, stdout, stderr } = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--csv",
      "--fields",
      "id,values,templateBody.body,batches.0.originalFileName,lastAttemptStatus",
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const newest = (m: Message) =>
      [...m.messageAttempts!].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0]!.status;
    expect(readCsv(stdout)).toEqual(
      all.map((m) => ({
        id: m.id,
        values: JSON.stringify(m.values),
        "templateBody.body": guarded(m.templateBody.body),
        "batches.0.originalFileName": m.batches?.[0]?.originalFileName ?? "",
        lastAttemptStatus: newest(m),
      })),
    );
  });

  it("guards cells a spreadsheet would run as a formula, unless --no-formula-guard", async () => {
    const hit = all.flatMap((m) =>
      Object.entries(m.values)
        .filter(([, value]) => FORMULA.test(value))
        .map(([key]) => ({ m, key })),
    )[0];
    expect(hit).toBeDefined();
    const { m, key } = hit!;
    const args = ["messages", "cmp-spring-sale", "--all", "--csv", "--fields", `id,values.${key}`];
    const on = await cli(sandbox, args);
    const off = await cli(sandbox, [...args, "--no-formula-guard"]);
    const cell = (text: string) => readCsv(text).find((row) => row.id === m.id)![`values.${key}`];
    expect(cell(on.stdout)).toBe(`'${m.values[key]}`);
    expect(cell(off.stdout)).toBe(m.values[key]);
    // Headers are never guarded; every guarded cell is exactly one apostrophe longer.
    expect(readCsv(on.stdout).filter((row) => row[`values.${key}`]!.startsWith("'")).length).toBeGreaterThan(0);
  });
});

describe("fields", () => {
  it("an unknown field is a usage error listing the valid ones, before any request", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--csv",
      "--fields",
      "id,errorCode",
    ]);
    expect({ code, stdout, urls }).toEqual({ code: 2, stdout: "", urls: [] });
    expect(stderr).toBe(`msgstat: --fields: unknown field "errorCode"
  Fields (--fields): id, createdAt, updatedAt, recipient, values, fullMessage,
    latestStatus, templateBodyId, campaignId, templateBody, batches,
    messageAttempts, attempts, language, batchId, creatorEmail, numAttempts;
    dotted paths into them (values.<name>, templateBody.body,
    batches.0.originalFileName, messageAttempts.-1.errorCode, where -1 is the
    last).
  Derived fields:
    attemptCount: number of attempts (numAttempts, or the attempts listed)
    lastAttemptStatus: status of the newest attempt
    lastAttemptAt: createdAt of the newest attempt
    lastErrorType: errorType of the newest failed attempt
    lastErrorCode: errorCode of the newest failed attempt
    batchFile: originalFileName of the message's first batch
`);
  });

  it("a field a slip away from a known one is offered first, then the list; exit 2 before any request", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--fields",
      "id,recpient",
    ]);
    expect({ code, stdout, urls }).toEqual({ code: 2, stdout: "", urls: [] });
    expect(stderr.split("\n").slice(0, 3)).toEqual([
      'msgstat: --fields: unknown field "recpient"',
      "  Did you mean recipient?",
      "  Fields (--fields): id, createdAt, updatedAt, recipient, values, fullMessage,",
    ]);
    const nested = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", "--fields", "templateBody.bdy"]);
    expect(nested.stderr.split("\n").slice(0, 2)).toEqual([
      'msgstat: --fields: unknown field "bdy" in templateBody (known: id, templateId, language, body, creatorId, ' +
        "createdAt, updatedAt)",
      "  Did you mean templateBody.body?",
    ]);
    expect({ code: nested.code, urls: nested.urls }).toEqual({ code: 2, urls: [] });
  });

  it("msgstat help messages (every option) documents the derived fields and the CSV default columns", async () => {
    const { code, stdout } = await cli(sandbox, ["help", "messages"]);
    expect(code).toBe(0);
    for (const name of [
      "attemptCount",
      "lastAttemptStatus",
      "lastAttemptAt",
      "lastErrorType",
      "lastErrorCode",
      "batchFile",
      "CSV default columns: id,",
    ])
      expect(stdout).toContain(name);
  });
});

describe("empty result", () => {
  it.each<[string, string[], string]>([
    ["table (piped): the header", [], PIPED_TABLE_HEADER],
    ["JSON: an empty array", ["--json"], "[]\n"],
    ["JSONL: nothing", ["--jsonl"], ""],
    [
      "CSV: the header",
      ["--csv"],
      "id,recipient,latestStatus,createdAt,attemptCount,lastErrorType,lastErrorCode,batchId,fullMessage\r\n",
    ],
  ])("%s, a note on stderr, exit 0", async (_name, args, stdout) => {
    const result = await cli(sandbox, ["messages", "cmp-empty", ...args]);
    expect(result).toEqual({ code: 0, stdout, stderr: "No messages found.\n" });
  });

  it("a search that matches nothing is an empty result too", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "messages",
      "cmp-otp-alerts",
      "--search",
      "000000000000",
      "--jsonl",
    ]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "", stderr: "No messages found.\n" });
    expect(urls).toEqual(["/campaigns/cmp-otp-alerts/messages?limit=1000&search=000000000000"]);
  });
});

it("ids helper sanity: the sandbox listing has 200 distinct messages", () => {
  expect(new Set(ids(all)).size).toBe(200);
});
