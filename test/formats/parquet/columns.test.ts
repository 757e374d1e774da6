// The Parquet columns of a message, read back by DuckDB: the schema follows the message shape, and
// what does not fit its column (another kind, an unreadable time, an unknown key) is NULL there and
// kept in its object's `extra`, so that a message always passes and nothing it held is lost.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../../src/core/message.js";
import { renderParquet } from "../../../src/formats/parquet.js";
import { isFlatColumn, MESSAGE_COLUMNS, messageSchema } from "../../../src/formats/parquet/columns.js";
import type { Sink } from "../../../src/output/sink.js";
import { duckdb, sqlText } from "../../support/duckdb.js";
import { scratchFolder } from "../../support/scratch.js";

/** The Parquet file of these messages, written as `messages --format parquet` writes it. */
async function parquetOf(messages: Record<string, unknown>[]): Promise<string> {
  const parts: Buffer[] = [];
  const sink: Sink = {
    write: (text) => void parts.push(Buffer.from(text)),
    writeBytes: (bytes, start, end) => void parts.push(Buffer.from(bytes.subarray(start, end))),
    flush: async () => undefined,
    finish: async () => undefined,
    discard: async () => undefined,
    fate: "the output is incomplete",
    untouchedByFailure: false,
  };
  await renderParquet(
    (async function* () {
      yield messages as CheckedMessage[];
    })(),
    sink,
    { version: "0.1.0" },
  );
  const file = path.join(scratchFolder("parquet-columns-"), "m.parquet");
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

const BASE = { id: "m1", createdAt: "2026-11-19T10:00:00.000+01:00", latestStatus: "success" };

describe("the message's columns", () => {
  it("are the shape's fields in order, a timestamp with its text beside it, then extra; id required", async () => {
    const schema = messageSchema();
    expect(schema[0]).toEqual({ name: "msgstat_message", children: MESSAGE_COLUMNS.length });
    expect(schema[1]).toMatchObject({ name: "id", repetition: "REQUIRED" });
    expect(MESSAGE_COLUMNS.slice(0, 3)).toEqual(["id", "createdAt", "createdAtText"]);
    expect(MESSAGE_COLUMNS.at(-1)).toBe("extra");
    const file = await parquetOf([BASE]);
    const described = await duckdb(`DESCRIBE SELECT * FROM read_parquet(${sqlText(file)})`);
    expect(described.map((row) => row.column_name)).toEqual(MESSAGE_COLUMNS);
    expect(isFlatColumn(["id"])).toBe(true);
    expect(isFlatColumn(["batches", "list", "element", "id"])).toBe(false);
  });

  it("a timestamp: the instant in UTC and the server's text; an unreadable one NULL, its text kept", async () => {
    const file = await parquetOf([BASE, { ...BASE, id: "m2", createdAt: "last tuesday" }]);
    expect(
      await duckdb(
        `SELECT id, epoch_ms(createdAt) AS ms, createdAtText FROM read_parquet(${sqlText(file)}) ORDER BY id`,
      ),
    ).toEqual([
      { id: "m1", ms: String(Date.parse("2026-11-19T09:00:00.000Z")), createdAtText: "2026-11-19T10:00:00.000+01:00" },
      { id: "m2", ms: null, createdAtText: "last tuesday" },
    ]);
  });

  it("a value of another kind is NULL in its column and kept in extra (in the shape's order), then keys msgstat does not know", async () => {
    const file = await parquetOf([
      { ...BASE, numAttempts: "3", recipient: 4915112345678, surprise: { a: [1, 2] } },
      { ...BASE, id: "m2", numAttempts: 2, recipient: "4915112345678" },
    ]);
    expect(
      await duckdb(`SELECT id, numAttempts, recipient, extra FROM read_parquet(${sqlText(file)}) ORDER BY id`),
    ).toEqual([
      {
        id: "m1",
        numAttempts: null,
        recipient: null,
        extra: '{"recipient":4915112345678,"numAttempts":"3","surprise":{"a":[1,2]}}',
      },
      { id: "m2", numAttempts: "2", recipient: "4915112345678", extra: null },
    ]);
  });

  it("values: a map of strings; a value not text is NULL there, and the whole map kept in extra", async () => {
    const file = await parquetOf([
      { ...BASE, values: { name: "Ana", code: "7" } },
      { ...BASE, id: "m2", values: { name: "Bo", n: 5 } },
      { ...BASE, id: "m3", values: {} },
    ]);
    expect(
      await duckdb(`SELECT id, to_json("values") AS v, extra FROM read_parquet(${sqlText(file)}) ORDER BY id`),
    ).toEqual([
      { id: "m1", v: '{"name":"Ana","code":"7"}', extra: null },
      { id: "m2", v: '{"name":"Bo","n":null}', extra: '{"values":{"name":"Bo","n":5}}' },
      { id: "m3", v: "{}", extra: null },
    ]);
  });
});
