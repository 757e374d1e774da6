// A partition encoded from its spill: a prepared file in the staging folder, synced and closed, not
// yet at its target (the run commits every partition at once); each id once, in the order spilled,
// each message as sent (jsonl.gz) or in its columns (parquet, read back by DuckDB).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePartition, ENCODERS } from "../../../src/commands/export/encode.js";
import { duckdb, sqlText } from "../../support/duckdb.js";
import { scratchFolder } from "../../support/scratch.js";

const LINES = [
  ['"m2"', '{"id":"m2","createdAt":"2026-11-19T10:00:00.000+01:00","latestStatus":"success","n":9007199254740993}'],
  ['"m1"', '{"id":"m1","createdAt":"2026-11-19T09:00:00.000+01:00","latestStatus":"failure"}'],
  ['"m2"', '{"id":"m2","createdAt":"2026-11-19T10:00:00.000+01:00","latestStatus":"created"}'],
];

function spillIn(dir: string): string {
  const file = path.join(dir, "2026-11-19.spill");
  writeFileSync(file, LINES.map(([id, body]) => `${id}\t${body}\n`).join(""));
  return file;
}

describe("encodePartition", () => {
  it("jsonl.gz: a gzip of each message once, as sent, prepared in staging and not yet at its target", async () => {
    const dir = scratchFolder("export-encode-");
    const target = path.join(dir, "campaign_id=c", "created_date=2026-11-19", "part.jsonl.gz");
    const staging = path.join(dir, ".staging");
    const file = await encodePartition(
      spillIn(dir),
      target,
      staging,
      "jsonl.gz",
      "0.1.0",
      new AbortController().signal,
    );
    expect(existsSync(target)).toBe(false);
    expect(path.dirname(file.temporary)).toBe(staging);
    expect(file.target).toBe(target);
    expect(gunzipSync(readFileSync(file.temporary)).toString("utf8")).toBe(`${LINES[0]![1]}\n${LINES[1]![1]}\n`);
  });

  it("parquet: the messages' columns, read back by DuckDB, each id once", async () => {
    const dir = scratchFolder("export-encode-");
    const target = path.join(dir, "part.parquet");
    const file = await encodePartition(
      spillIn(dir),
      target,
      path.join(dir, ".staging"),
      "parquet",
      "0.1.0",
      new AbortController().signal,
    );
    expect(existsSync(target)).toBe(false);
    expect(
      await duckdb(
        `SELECT id, latestStatus, epoch_ms(createdAt) AS ms FROM read_parquet(${sqlText(file.temporary)}) ORDER BY id`,
      ),
    ).toEqual([
      { id: "m1", latestStatus: "failure", ms: String(Date.parse("2026-11-19T08:00:00.000Z")) },
      { id: "m2", latestStatus: "success", ms: String(Date.parse("2026-11-19T09:00:00.000Z")) },
    ]);
  });

  it("names each format's encoding, part of every partition's digest; only jsonl.gz is gzipped", () => {
    expect(Object.entries(ENCODERS).map(([format, { version, gzip }]) => [format, version, gzip])).toEqual([
      ["jsonl.gz", "jsonl.gz-1", true],
      ["parquet", "parquet-2", false],
    ]);
  });
});
