// The Parquet dataset, read back by DuckDB (read_parquet over <dir>/**/*.parquet, hive partitioning on) and
// compared row by row with what the server sent: ids, statuses, timestamps as instants and as the server's
// text, values, the template, batches, every attempt, and what msgstat does not know (extra), with hostile
// values among them: the sandbox's hostile text, unknown keys, a value of the wrong type, a huge string, a
// deep metadata.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import type { Message } from "../../../src/core/message.js";
import { FIXED_NOW, pageForward } from "../../sandbox/http-helpers.js";
import { dataFiles, query, utcDate } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import packageJson from "../../../package.json" with { type: "json" };
import { scratchFolder } from "../../support/scratch.js";

const CAMPAIGNS = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts"];
const HUGE = "x".repeat(2_000_000);
const deep = (levels: number): unknown => (levels === 0 ? { bottom: true } : { down: deep(levels - 1) });

/** Every 97th message gets what msgstat does not expect. */
function roughen(message: Record<string, unknown>, index: number): void {
  if (index % 97 !== 0) return;
  message.surprise = { nested: [1, "two", null] };
  message.numAttempts = "three";
  if (index % 2 === 0) message.fullMessage = HUGE;
  const attempts = message.messageAttempts as Array<Record<string, unknown>>;
  if (attempts[0]) attempts[0].metadata = deep(300);
}

let sandbox: Sandbox;
const sent = new Map<string, Message[]>();

beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 9,
    messages: 1500,
    now: FIXED_NOW,
    transform: (body) => {
      (body as { data?: Array<Record<string, unknown>> }).data?.forEach((message) => {
        const serial = Number(/(\d+)$/.exec(String(message.id))?.[1] ?? 1);
        roughen(message, serial);
      });
      return body;
    },
  });
  for (const id of CAMPAIGNS)
    sent.set(id, (await pageForward(sandbox.url, `/campaigns/${id}/messages`, 1000)).messages);
});
afterAll(() => sandbox.close());

const ROWS =
  `SELECT campaign_id, CAST(created_date AS VARCHAR) AS created_date, id, createdAtText, ` +
  `epoch_ms(createdAt) AS createdMs, updatedAtText, recipient, to_json("values")::VARCHAR AS vals, fullMessage, ` +
  `latestStatus, templateBodyId, campaignId, templateBody.body AS templateText, templateBody.createdAtText AS templateCreated, ` +
  `to_json(list_transform(batches, b -> b.id))::VARCHAR AS batchIds, ` +
  `to_json(list_transform(messageAttempts, a -> struct_pack(id := a.id, status := a.status, ` +
  `createdAt := a.createdAtText, sentMs := epoch_ms(a.sentAt), errorType := a.errorType, errorCode := a.errorCode, ` +
  `externalAttemptId := a.externalAttemptId, metadata := a.metadata, email := a.creator.email)))::VARCHAR AS attempts, ` +
  `language, batchId, creatorEmail, numAttempts, extra ` +
  `FROM read_parquet('DIR/**/*.parquet', hive_partitioning = true) ORDER BY id`;

/** What DuckDB should read for a message the server sent (the columns of ROWS). */
function expectedRow(campaignId: string, m: Message & Record<string, unknown>) {
  const rough = m.surprise !== undefined;
  return {
    campaign_id: campaignId,
    created_date: utcDate(m.createdAt),
    id: m.id,
    createdAtText: m.createdAt,
    createdMs: Date.parse(m.createdAt),
    updatedAtText: m.updatedAt,
    recipient: m.recipient,
    vals: m.values,
    fullMessage: m.fullMessage,
    latestStatus: m.latestStatus,
    templateBodyId: m.templateBodyId,
    campaignId: m.campaignId,
    templateText: m.templateBody.body,
    templateCreated: m.templateBody.createdAt,
    batchIds: (m.batches ?? []).map((batch) => batch.id),
    attempts: (m.messageAttempts ?? []).map((a) => ({
      id: a.id,
      status: a.status,
      createdAt: a.createdAt,
      sentMs: Date.parse(a.sentAt),
      errorType: a.errorType,
      errorCode: a.errorCode,
      externalAttemptId: a.externalAttemptId,
      metadata: a.metadata,
      email: a.creator.email,
    })),
    language: m.language,
    batchId: m.batchId ?? null,
    creatorEmail: m.creatorEmail,
    numAttempts: rough ? null : m.numAttempts,
    extra: rough ? { numAttempts: "three", surprise: m.surprise } : null,
  };
}

/** DuckDB's row with its JSON texts parsed, to compare as values. */
function readRow(row: Record<string, unknown>) {
  const attempts = JSON.parse(row.attempts as string) as Array<Record<string, unknown>>;
  return {
    ...row,
    createdMs: Number(row.createdMs),
    numAttempts: row.numAttempts === null ? null : Number(row.numAttempts),
    vals: JSON.parse(row.vals as string) as unknown,
    batchIds: JSON.parse(row.batchIds as string) as unknown,
    attempts: attempts.map((a) => ({ ...a, metadata: JSON.parse(a.metadata as string) as unknown })),
    extra: row.extra === null ? null : (JSON.parse(row.extra as string) as unknown),
  };
}

describe("msgstat export (Parquet, the default)", () => {
  it("DuckDB reads every message back as the server sent it, hostile values included", async () => {
    const dir = scratchFolder("export-parquet-");
    const result = await runCli(["--base-url", sandbox.url, "export", ...CAMPAIGNS, "--to", dir]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/^exported 3 of 3 campaigns, 1,830 messages: \d+ files written, 0 unchanged\n$/);
    const rows = (await query(ROWS.replace("DIR", dir))).map(readRow);
    const expected = [...sent]
      .flatMap(([campaignId, messages]) =>
        messages.map((m) => expectedRow(campaignId, m as Message & Record<string, unknown>)),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(rows.length).toBe(expected.length);
    expect(expected.filter((row) => row.extra !== null).length).toBeGreaterThan(10);
    expect(expected.some((row) => row.fullMessage === HUGE)).toBe(true);
    for (let i = 0; i < rows.length; i++) expect(rows[i], expected[i]!.id).toEqual(expected[i]);
  });

  it("a second run against the unchanged service touches no file; the files are named messages.parquet", async () => {
    const dir = scratchFolder("export-parquet-");
    expect((await runCli(["--base-url", sandbox.url, "export", ...CAMPAIGNS, "--to", dir])).code).toBe(0);
    const before = dataFiles(dir);
    // Each file names the msgstat that wrote it; that version is no part of the digest (the run below rewrites nothing).
    const writers = await query(`SELECT DISTINCT created_by FROM parquet_file_metadata('${dir}/**/*.parquet')`);
    expect(writers).toEqual([{ created_by: `msgstat version ${packageJson.version}` }]);
    expect(
      Object.keys(before).every((name) => /^campaign_id=[^/]+\/created_date=[0-9-]{10}\/messages\.parquet$/.test(name)),
    ).toBe(true);
    const again = await runCli(["--base-url", sandbox.url, "export", ...CAMPAIGNS, "--to", dir]);
    expect(again.stderr).toMatch(/: 0 files written, \d+ unchanged\n$/);
    expect(dataFiles(dir)).toEqual(before);
  });
});
