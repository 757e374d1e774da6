// --format parquet and -o x.parquet, read back by an independent reader (DuckDB) and compared, row by
// row and field by field, with what the server sent over real HTTP; and what is refused before any request.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { cli, cliWithRequests, serverListing, useTestSandbox } from "../../support/cli-helpers.js";
import { duckdb, readMessages, sqlText, type DuckRow } from "../../support/duckdb.js";
import { scratchFolder } from "../../support/scratch.js";
import packageJson from "../../../package.json" with { type: "json" };

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

type Sent = Record<string, unknown>;
const asObject = (value: unknown) => value as Sent;
const instant = (text: unknown) => (typeof text === "string" ? Date.parse(text) : null);
const orNull = (value: unknown) => value ?? null;

/** What msgstat must have written for a template body, a batch, an attempt: the fields as sent, times as instants. */
function expectedTemplate(sent: Sent) {
  return {
    id: sent.id,
    templateId: sent.templateId,
    language: sent.language,
    body: sent.body,
    creatorId: sent.creatorId,
    createdAtText: sent.createdAt,
    updatedAtText: sent.updatedAt,
    extra: null,
  };
}

function expectedBatch(sent: Sent) {
  const link = asObject(sent.BatchMessage);
  return {
    id: sent.id,
    originalFileName: sent.originalFileName,
    status: sent.status,
    campaignId: sent.campaignId,
    creatorId: sent.creatorId,
    totalMessages: sent.totalMessages,
    createdAtText: sent.createdAt,
    updatedAtText: sent.updatedAt,
    BatchMessage: {
      id: link.id,
      batchId: link.batchId,
      messageId: link.messageId,
      createdAtText: link.createdAt,
      updatedAtText: link.updatedAt,
      extra: null,
    },
    extra: null,
  };
}

function expectedAttempt(sent: Sent) {
  return {
    id: sent.id,
    messageId: sent.messageId,
    status: sent.status,
    sentAtText: sent.sentAt,
    deliveredAtText: sent.deliveredAt,
    createdAtText: sent.createdAt,
    updatedAtText: sent.updatedAt,
    externalAttemptId: sent.externalAttemptId,
    errorType: sent.errorType,
    errorCode: sent.errorCode,
    metadata: sent.metadata,
    creatorId: sent.creatorId,
    creator: { email: asObject(sent.creator).email, extra: null },
    extra: null,
  };
}

const pick = (object: Sent, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, object[key]]));

/** One row as DuckDB read it, reduced to what `expected` holds (the instants are checked beside it). */
function actual(row: DuckRow) {
  const template = JSON.parse(row.templateBodyJson as string) as Sent;
  const batches = JSON.parse(row.batchesJson as string) as Sent[] | null;
  const attempts = JSON.parse(row.attemptsJson as string) as Sent[] | null;
  return {
    id: row.id,
    createdAtText: row.createdAtText,
    createdAtMs: Number(row.createdAtMs),
    updatedAtText: row.updatedAtText,
    recipient: row.recipient,
    values: JSON.parse(row.valuesJson as string) as unknown,
    fullMessage: row.fullMessage,
    latestStatus: row.latestStatus,
    templateBodyId: row.templateBodyId,
    campaignId: row.campaignId,
    templateBody: pick(template, Object.keys(expectedTemplate({}))),
    templateCreatedMs: Number(row.templateCreatedMs),
    batches:
      batches?.map((batch) => ({
        ...pick(batch, Object.keys(expectedBatch({ BatchMessage: {} }))),
        BatchMessage: pick(asObject(batch.BatchMessage), Object.keys(expectedBatch({ BatchMessage: {} }).BatchMessage)),
      })) ?? null,
    batchCreatedMs: (row.batchCreatedMs as string[] | null)?.map(Number) ?? null,
    attempts:
      attempts?.map((attempt) => ({
        ...pick(attempt, Object.keys(expectedAttempt({ creator: {} }))),
        metadata: JSON.parse(attempt.metadata as string) as unknown,
        creator: asObject(attempt.creator),
      })) ?? null,
    sentMs: (row.sentMs as string[] | null)?.map(Number) ?? null,
    deliveredMs:
      (row.deliveredMs as Array<string | null> | null)?.map((ms) => (ms === null ? null : Number(ms))) ?? null,
    summaries: row.summariesJson,
    language: row.language,
    batchId: row.batchId,
    creatorEmail: row.creatorEmail,
    numAttempts: row.numAttempts === null ? null : Number(row.numAttempts),
    extra: row.extra,
  };
}

/** The same, from the message the server sent. */
function expected(sent: Sent) {
  const batches = sent.batches as Sent[] | undefined;
  const attempts = sent.messageAttempts as Sent[];
  return {
    id: sent.id,
    createdAtText: sent.createdAt,
    createdAtMs: instant(sent.createdAt),
    updatedAtText: sent.updatedAt,
    recipient: sent.recipient,
    values: sent.values,
    fullMessage: sent.fullMessage,
    latestStatus: sent.latestStatus,
    templateBodyId: sent.templateBodyId,
    campaignId: sent.campaignId,
    templateBody: expectedTemplate(asObject(sent.templateBody)),
    templateCreatedMs: instant(asObject(sent.templateBody).createdAt),
    batches: batches?.map(expectedBatch) ?? null,
    batchCreatedMs: batches?.map((batch) => instant(batch.createdAt)) ?? null,
    attempts: attempts.map(expectedAttempt),
    sentMs: attempts.map((attempt) => instant(attempt.sentAt)),
    deliveredMs: attempts.map((attempt) => instant(attempt.deliveredAt)),
    summaries: null,
    language: sent.language,
    batchId: orNull(sent.batchId),
    creatorEmail: sent.creatorEmail,
    numAttempts: sent.numAttempts,
    extra: null,
  };
}

async function written(args: string[], name = "m.parquet") {
  const folder = scratchFolder("msgstat-parquet-");
  const target = path.join(folder, name);
  const result = await cli(sandbox, [...args, "-o", target]);
  return { result, target, folder };
}

describe("-o x.parquet: DuckDB reads back every message the server sent", () => {
  it("messages --all: one line on stderr; every row, field by field, in the order listed", async () => {
    const sent = await serverListing(sandbox, "/campaigns/cmp-spring-sale/messages");
    const { result, target, folder } = await written(["messages", "cmp-spring-sale", "--all"]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote ${sent.length} messages to ${target}\n` });
    expect(readdirSync(folder)).toEqual(["m.parquet"]);
    const rows = await readMessages(target);
    expect(rows.map(actual)).toEqual(sent.map((message) => expected(message as Sent)));
    // The sandbox's hostile text (quotes, newlines, RTL marks, escapes, a NUL byte) came through: some is there.
    expect(rows.some((row) => (row.fullMessage as string).includes("\u0000"))).toBe(true);
  });

  it("batch: the batch's messages (no batches, no batchId in a batch listing: NULL)", async () => {
    const sent = await serverListing(sandbox, "/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages");
    const { result, target } = await written(["batch", "cmp-spring-sale", "bat-spring-w1", "--all"]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote ${sent.length} messages to ${target}\n` });
    const rows = await readMessages(target);
    expect(rows.map(actual)).toEqual(sent.map((message) => expected(message as Sent)));
    expect(rows.every((row) => row.batchesJson === null && row.batchId === null)).toBe(true);
  });

  it("several campaigns and find: each message once, campaignId telling them apart", async () => {
    const spring = await serverListing(sandbox, "/campaigns/cmp-spring-sale/messages");
    const loyalty = await serverListing(sandbox, "/campaigns/cmp-loyalty-es/messages");
    const { result, target } = await written(["messages", "cmp-spring-sale", "cmp-loyalty-es", "--all"]);
    expect(result.code).toBe(0);
    const counts = await duckdb(
      `SELECT campaignId, count(*) AS n, count(DISTINCT id) AS ids FROM ${sqlText(target)} GROUP BY 1 ORDER BY 1`,
    );
    expect(counts).toEqual([
      { campaignId: "cmp-loyalty-es", n: String(loyalty.length), ids: String(loyalty.length) },
      { campaignId: "cmp-spring-sale", n: String(spring.length), ids: String(spring.length) },
    ]);
    const found = await written(["find", "447700900123", "cmp-spring-sale", "cmp-loyalty-es"], "f.parquet");
    expect(found.result.code).toBe(0);
    const piped = await cli(sandbox, ["find", "447700900123", "cmp-spring-sale", "cmp-loyalty-es", "--jsonl"]);
    const ids = piped.stdout
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => (JSON.parse(line) as Sent).id);
    expect((await readMessages(found.target)).map((row) => row.id)).toEqual(ids);
  });

  it("the footer names msgstat and its version in created_by, as Parquet's readers parse it", async () => {
    const { result, target } = await written(["messages", "cmp-otp-alerts", "--all"]);
    expect(result.code).toBe(0);
    expect(await duckdb(`SELECT created_by FROM parquet_file_metadata(${sqlText(target)})`)).toEqual([
      { created_by: `msgstat version ${packageJson.version}` },
    ]);
  });

  it("an empty result is a valid file with no rows and every column", async () => {
    const { result, target } = await written(["messages", "cmp-spring-sale", "--status", "nothing-has-this"]);
    expect(result.code).toBe(0);
    expect(await duckdb(`SELECT count(*) AS n FROM ${sqlText(target)}`)).toEqual([{ n: "0" }]);
    const columns = await duckdb(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${sqlText(target)})`);
    expect(columns.map((column) => column.column_name)).toContain("messageAttempts");
  });
});

describe("refused before any request (exit 2)", () => {
  it.each([80, 160])("--format parquet to a terminal, at %i columns: binary, with the way out", async (columns) => {
    const result = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", "--format", "parquet"], {
      tty: true,
      columns,
    });
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: Parquet is binary, and stdout is a terminal\n" +
        "  Write it to a file: -o messages.parquet (a reader needs the whole file).\n",
      urls: [],
    });
  });

  it("find --format parquet to a terminal too", async () => {
    const result = await cliWithRequests(sandbox, ["find", "447700900123", "cmp-spring-sale", "--format", "parquet"], {
      tty: true,
    });
    expect(result.code).toBe(2);
    expect(result.urls).toEqual([]);
  });

  it.each<[string, string[], string]>([
    [
      "--fields",
      ["--fields", "id,recipient", "-o", "m.parquet"],
      "msgstat: --fields chooses columns of the table, CSV and JSON; a Parquet file has every column\n" +
        "  Leave out --fields: a Parquet reader reads only the columns a query names (SELECT id, recipient FROM " +
        "'m.parquet'). msgstat help parquet lists them.\n",
    ],
    [
      "--follow",
      ["--follow", "--format", "parquet"],
      "msgstat: --follow never ends, and a Parquet file is readable only once it is whole\n" +
        "  Use --jsonl with --follow, or leave out --follow.\n",
    ],
    [
      ".parquet.gz",
      ["-o", "m.parquet.gz"],
      "msgstat: -o m.parquet.gz: parquet is compressed inside already\n  Leave out .gz: name the file m.parquet.\n",
    ],
    [
      "--csv -o m.parquet",
      ["--csv", "-o", "m.parquet"],
      "msgstat: --csv contradicts -o m.parquet: a .parquet file is parquet\n" +
        "  Leave out --csv (the extension sets the format), or name the file for csv.\n",
    ],
  ])("%s", async (_name, args, stderr) => {
    const folder = scratchFolder("msgstat-parquet-refused-");
    const result = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", ...args]);
    expect(result).toEqual({ code: 2, stdout: "", stderr, urls: [] });
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("a failed run leaves x.parquet as it was", () => {
  it("a 404: the old file untouched, no temporary file", async () => {
    const folder = scratchFolder("msgstat-parquet-fail-");
    const target = path.join(folder, "m.parquet");
    writeFileSync(target, "previous run\n");
    const result = await cli(sandbox, ["messages", "cmp-nope", "--all", "-o", target]);
    expect(result.code).not.toBe(0);
    expect(readFileSync(target, "utf8")).toBe("previous run\n");
    expect(readdirSync(folder)).toEqual(["m.parquet"]);
  });
});
