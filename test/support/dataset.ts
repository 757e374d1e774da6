// An export's dataset as an independent reader sees it: DuckDB reads the files (hive partitioning on),
// and the data files' names, sizes and modification times, to tell which a run touched.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

export interface DatasetRow {
  campaignId: string;
  /** YYYY-MM-DD, or null for the undated partition. */
  createdDate: string | null;
  /** The message as the file holds it, parsed. */
  message: Record<string, unknown>;
}

/** Every row of a jsonl.gz dataset, each message's JSON as DuckDB read it from the files. */
export async function readJsonlDataset(dir: string): Promise<DatasetRow[]> {
  const rows = await query(
    `SELECT campaign_id, CAST(created_date AS VARCHAR) AS created_date, json::VARCHAR AS json ` +
      `FROM read_json_objects('${dir}/**/*.jsonl.gz', format = 'newline_delimited', hive_partitioning = true)`,
  );
  return rows.map((row) => ({
    campaignId: row.campaign_id as string,
    createdDate: row.created_date as string | null,
    message: JSON.parse(row.json as string) as Record<string, unknown>,
  }));
}

export async function query(sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Each file under `dir` (the manifest and hidden files left out): its size and modification time. */
export function dataFiles(dir: string): Record<string, { size: number; mtimeMs: number }> {
  const files: Record<string, { size: number; mtimeMs: number }> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== "msgstat-export.json") {
        const stat = statSync(full);
        files[path.relative(dir, full)] = { size: stat.size, mtimeMs: stat.mtimeMs };
      }
    }
  };
  walk(dir);
  return files;
}

/** The UTC day of a timestamp with an offset, as the partition names it. */
export const utcDate = (timestamp: string) => new Date(Date.parse(timestamp)).toISOString().slice(0, 10);
