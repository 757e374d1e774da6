// msgstat's own Parquet encoder (formats/parquet/writer.ts, parquet-columns.ts), through renderParquet,
// read back by DuckDB: several row groups and pages, multi-byte UTF-8, the statistics a reader prunes
// row groups by (and DuckDB does prune by them), a listing that fails part way; and the RLE/bit-packing
// hybrid against a decoder written here from the format's description.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../../src/core/message.js";
import { renderParquet } from "../../../src/formats/parquet.js";
import { encodeHybrid, PAGE_BYTES } from "../../../src/formats/parquet/writer.js";
import type { Sink } from "../../../src/output/sink.js";
import { duckdb, sqlText } from "../../support/duckdb.js";
import { scratchFolder } from "../../support/scratch.js";

/** A sink that keeps every byte, in order. */
function byteSink(): Sink & { bytes: () => Buffer } {
  const parts: Buffer[] = [];
  return {
    bytes: () => Buffer.concat(parts),
    write: (text) => void parts.push(Buffer.from(text)),
    writeBytes: (bytes, start, end) => void parts.push(Buffer.from(bytes.subarray(start, end))),
    flush: async () => undefined,
    finish: async () => undefined,
    discard: async () => undefined,
    fate: "the output is incomplete",
    untouchedByFailure: false,
  };
}

async function* chunksOf(messages: CheckedMessage[], size = 100): AsyncGenerator<CheckedMessage[]> {
  for (let i = 0; i < messages.length; i += size) yield messages.slice(i, i + size);
}

const START = Date.parse("2026-11-01T00:00:00.000Z");
const STATUSES = ["created", "sent", "success", "failure"];

/** A message as the API has it, `i` apart from the next one by a minute. */
function message(i: number, overrides: Record<string, unknown> = {}): CheckedMessage {
  const createdAt = new Date(START + i * 60_000).toISOString();
  return {
    id: `msg-${String(i).padStart(6, "0")}`,
    createdAt,
    updatedAt: createdAt,
    recipient: `3460000${String(i).padStart(4, "0")}`,
    values: { first_name: `Name ${i % 7}`, order_id: `ORD-${i}` },
    fullMessage: `Message ${i}: ${"long text ".repeat(20)}`,
    latestStatus: STATUSES[i % 4],
    campaignId: "cmp-test",
    messageAttempts: Array.from({ length: i % 3 }, (_, n) => ({
      id: `att-${i}-${n}`,
      status: "sent",
      sentAt: createdAt,
    })),
    numAttempts: i % 3,
    ...overrides,
  };
}

async function written(messages: CheckedMessage[], options: { rowGroupMessages?: number } = {}) {
  const sink = byteSink();
  await renderParquet(chunksOf(messages), sink, { version: "0.0.0-test", ...options });
  const file = path.join(scratchFolder("msgstat-parquet-writer-"), "m.parquet");
  writeFileSync(file, sink.bytes());
  return file;
}

describe("renderParquet with msgstat's encoder, read back by DuckDB", () => {
  it("several row groups, each of several pages: every row back, in order", async () => {
    const messages = Array.from({ length: 1234 }, (_, i) => message(i));
    const file = await written(messages, { rowGroupMessages: 500 });
    const groups = await duckdb(
      `SELECT row_group_id, any_value(row_group_num_rows) AS n FROM parquet_metadata(${sqlText(file)}) GROUP BY 1 ORDER BY 1`,
    );
    expect(groups.map((group) => Number(group.n))).toEqual([500, 500, 234]);
    // fullMessage's chunk of 500 messages is over a page's worth: more than one page each.
    const [chunk] = await duckdb(
      `SELECT total_uncompressed_size FROM parquet_metadata(${sqlText(file)}) WHERE row_group_id = 0 AND path_in_schema = 'fullMessage'`,
    );
    expect(Number(chunk!.total_uncompressed_size)).toBeGreaterThan(PAGE_BYTES);
    const rows = await duckdb(`
      SELECT id, epoch_ms(createdAt) AS createdMs, recipient, to_json("values")::VARCHAR AS vals, fullMessage,
        latestStatus, campaignId, to_json(list_transform(messageAttempts, a -> a.id))::VARCHAR AS attempts, numAttempts
      FROM read_parquet(${sqlText(file)}, file_row_number = true) ORDER BY file_row_number`);
    expect(rows).toEqual(
      messages.map((sent) => ({
        id: sent.id,
        createdMs: String(Date.parse(sent.createdAt as string)),
        recipient: sent.recipient,
        vals: JSON.stringify(sent.values),
        fullMessage: sent.fullMessage,
        latestStatus: sent.latestStatus,
        campaignId: "cmp-test",
        attempts: JSON.stringify((sent.messageAttempts as Array<{ id: string }>).map((attempt) => attempt.id)),
        numAttempts: String(sent.numAttempts),
      })),
    );
  });

  it("multi-byte UTF-8, short and long, in PLAIN and dictionary columns, comes back as sent", async () => {
    const special = [
      "é",
      "envoyé",
      "🎉",
      "Olá 🎉 👨‍👩‍👧‍👦",
      "مرحبا",
      "日本語のテキスト",
      "ascii then é at 25 chars é",
      "x".repeat(30) + "ü",
    ];
    // Over 256 distinct: recipient and fullMessage give their dictionaries up (PLAIN); latestStatus keeps its own.
    const texts = [...special, ...Array.from({ length: 300 }, (_, i) => `é${i} 🎉 ${"ü".repeat(i % 40)}`)];
    const messages = texts.map((text, i) =>
      message(i, { recipient: text, latestStatus: special[i % 2], fullMessage: `${text} ${i}`, values: { k: text } }),
    );
    const file = await written(messages);
    const rows = await duckdb(
      `SELECT recipient, latestStatus, fullMessage, "values"['k'] AS v FROM read_parquet(${sqlText(file)}, file_row_number = true) ORDER BY file_row_number`,
    );
    expect(rows).toEqual(
      messages.map((sent) => ({
        recipient: sent.recipient,
        latestStatus: sent.latestStatus,
        fullMessage: sent.fullMessage,
        v: (sent.values as { k: string }).k,
      })),
    );
    const encodings = await duckdb(
      `SELECT path_in_schema AS name, encodings FROM parquet_metadata(${sqlText(file)}) WHERE path_in_schema IN ('recipient', 'latestStatus') ORDER BY 1`,
    );
    expect(encodings).toEqual([
      { name: "latestStatus", encodings: "PLAIN, RLE, RLE_DICTIONARY" },
      { name: "recipient", encodings: "PLAIN, RLE" },
    ]);
  });

  it("a dictionary given up part way through a chunk: its page and index pages first, then PLAIN pages", async () => {
    const messages = Array.from({ length: 16_000 }, (_, i) =>
      message(i, { fullMessage: i < 14_000 ? "the same text" : `text ${i} only` }),
    );
    const file = await written(messages);
    const [chunk] = await duckdb(
      `SELECT encodings, dictionary_page_offset IS NOT NULL AS dictionary FROM parquet_metadata(${sqlText(file)}) WHERE path_in_schema = 'fullMessage'`,
    );
    expect(chunk).toEqual({ encodings: "PLAIN, RLE, RLE_DICTIONARY", dictionary: true });
    const rows = await duckdb(
      `SELECT fullMessage FROM read_parquet(${sqlText(file)}, file_row_number = true) ORDER BY file_row_number`,
    );
    expect(rows.map((row) => row.fullMessage)).toEqual(messages.map((sent) => sent.fullMessage));
  });

  it("min and max of the flat columns, by UTF-8 bytes, a long one cut to 64 bytes; NULLs counted", async () => {
    // UTF-16 puts 😀 (a surrogate pair) before ～ (U+FF5E); its UTF-8 bytes, which readers compare, after.
    const recipients = ["～", "😀", "b", "a"];
    const long = "z".repeat(100);
    const messages = recipients.map((recipient, i) =>
      message(i, { recipient, fullMessage: i === 1 ? long : "short", numAttempts: i === 2 ? null : i }),
    );
    const file = await written(messages);
    const stats = await duckdb(`
      SELECT path_in_schema AS name, stats_min_value AS min, stats_max_value AS max, stats_null_count AS nulls,
        min_is_exact, max_is_exact
      FROM parquet_metadata(${sqlText(file)})
      WHERE path_in_schema IN ('id', 'createdAt', 'recipient', 'fullMessage', 'numAttempts', 'campaignId', 'batchId')
      ORDER BY column_id`);
    expect(stats).toEqual([
      { name: "id", min: "msg-000000", max: "msg-000003", nulls: "0", min_is_exact: true, max_is_exact: true },
      {
        name: "createdAt",
        min: "2026-11-01 00:00:00+00",
        max: "2026-11-01 00:03:00+00",
        nulls: "0",
        min_is_exact: true,
        max_is_exact: true,
      },
      { name: "recipient", min: "a", max: "😀", nulls: "0", min_is_exact: true, max_is_exact: true },
      // The max cut to 64 bytes, its last one raised: still above every value.
      {
        name: "fullMessage",
        min: "short",
        max: "z".repeat(63) + "{",
        nulls: "0",
        min_is_exact: true,
        max_is_exact: false,
      },
      { name: "campaignId", min: "cmp-test", max: "cmp-test", nulls: "0", min_is_exact: true, max_is_exact: true },
      { name: "batchId", min: null, max: null, nulls: "4", min_is_exact: null, max_is_exact: null },
      { name: "numAttempts", min: "0", max: "3", nulls: "1", min_is_exact: true, max_is_exact: true },
    ]);
  });

  it("DuckDB skips the row groups a filter on createdAt rules out, by their min and max", async () => {
    const messages = Array.from({ length: 300 }, (_, i) => message(i));
    const file = await written(messages, { rowGroupMessages: 100 });
    const [first] = await duckdb(
      `SELECT data_page_offset AS at, total_compressed_size AS size FROM parquet_metadata(${sqlText(file)})
       WHERE row_group_id = 0 AND path_in_schema = 'createdAt'`,
    );
    // Row group 0's createdAt made unreadable: a query that reads it fails, one its statistics rule out does not.
    const bytes = readFileSync(file);
    bytes.fill(0xff, Number(first!.at), Number(first!.at) + Number(first!.size));
    writeFileSync(file, bytes);
    const from = new Date(START + 100 * 60_000).toISOString();
    const expected = messages.slice(100).reduce((sum, sent) => sum + Date.parse(sent.createdAt as string), 0);
    expect(
      await duckdb(`SELECT sum(epoch_ms(createdAt)) AS total FROM ${sqlText(file)} WHERE createdAt >= '${from}'`),
    ).toEqual([{ total: String(expected) }]);
    await expect(duckdb(`SELECT sum(epoch_ms(createdAt)) AS total FROM ${sqlText(file)}`)).rejects.toThrow();
  });

  it("a listing that fails part way: the error, and the row groups written so far without a footer", async () => {
    async function* failing(): AsyncGenerator<CheckedMessage[]> {
      yield Array.from({ length: 150 }, (_, i) => message(i));
      throw new Error("the listing broke");
    }
    const sink = byteSink();
    await expect(renderParquet(failing(), sink, { version: "0.0.0-test", rowGroupMessages: 100 })).rejects.toThrow(
      "the listing broke",
    );
    const bytes = sink.bytes();
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("PAR1");
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.subarray(-4).toString("latin1")).not.toBe("PAR1");
    const file = path.join(scratchFolder("msgstat-parquet-cut-"), "cut.parquet");
    writeFileSync(file, bytes);
    await expect(duckdb(`SELECT count(*) FROM ${sqlText(file)}`)).rejects.toThrow();
  });

  it("an empty listing: a file of no row groups that still has every column", async () => {
    const file = await written([]);
    expect(await duckdb(`SELECT count(*) AS n FROM parquet_metadata(${sqlText(file)})`)).toEqual([{ n: "0" }]);
    const columns = await duckdb(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${sqlText(file)})`);
    expect(columns.map((column) => column.column_name)).toEqual(expect.arrayContaining(["id", "createdAt", "extra"]));
  });
});

/** The hybrid encoding, decoded: RLE runs (a count, a value) and bit-packed groups of 8, least significant first. */
function decodeHybrid(bytes: Uint8Array, bitWidth: number, count: number): number[] {
  const values: number[] = [];
  let at = 0;
  while (values.length < count) {
    let header = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++]!;
      header += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (header % 2 === 0) {
      let value = 0;
      for (let i = 0; i < Math.ceil(bitWidth / 8); i++) value += bytes[at++]! * 2 ** (8 * i);
      for (let i = 0; i < header / 2; i++) values.push(value);
    } else {
      const total = ((header - 1) / 2) * 8;
      for (let i = 0; i < total; i++) {
        let value = 0;
        for (let bit = 0; bit < bitWidth; bit++) {
          const position = i * bitWidth + bit;
          value |= ((bytes[at + (position >>> 3)]! >>> (position & 7)) & 1) << bit;
        }
        values.push(value);
      }
      at += ((header - 1) / 2) * bitWidth;
    }
  }
  return values.slice(0, count);
}

describe("encodeHybrid", () => {
  it.each([1, 2, 3, 7, 12, 17])("bit width %i: runs, alternations and random values come back", (bitWidth) => {
    const max = 2 ** bitWidth - 1;
    let seed = bitWidth;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % (max + 1);
    const values = [
      ...Array<number>(20).fill(max),
      ...Array.from({ length: 37 }, (_, i) => i % 2),
      ...Array<number>(8).fill(0),
      ...Array.from({ length: 500 }, random),
      ...Array<number>(1000).fill(1),
      ...Array.from({ length: 13 }, random),
    ];
    const levels = bitWidth <= 8 ? Uint8Array.from(values) : Uint32Array.from(values);
    const output = new Uint8Array(values.length * 4 + 64);
    const end = encodeHybrid(levels, values.length, bitWidth, output, 0);
    expect(decodeHybrid(output.subarray(0, end), bitWidth, values.length)).toEqual(values);
    // The runs are RLE: far fewer bytes than packing every value.
    expect(end).toBeLessThan((values.length * bitWidth) / 8);
  });
});
