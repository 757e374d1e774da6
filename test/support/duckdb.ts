// An independent reader for the Parquet msgstat writes: DuckDB (its own C++ Parquet reader), queried
// with SQL and answered as JSON values (BIGINT as text, so nothing is rounded on the way).
import { DuckDBInstance } from "@duckdb/node-api";

export type DuckRow = Record<string, unknown>;

/** Runs `sql` in a new in-memory DuckDB and returns its rows. */
export async function duckdb(sql: string): Promise<DuckRow[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A file name as a SQL string literal. */
export const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Every column of every row of a file msgstat wrote, in the order written, with each timestamp also as
 * epoch milliseconds (`<name>Ms`), and the structs, lists and the map as JSON text DuckDB wrote itself.
 */
export function readMessages(file: string): Promise<DuckRow[]> {
  return duckdb(`
    SELECT id, epoch_ms(createdAt) AS createdAtMs, createdAtText, epoch_ms(updatedAt) AS updatedAtMs, updatedAtText,
      recipient, to_json("values") AS valuesJson, fullMessage, latestStatus, templateBodyId, campaignId,
      to_json(templateBody) AS templateBodyJson, epoch_ms(templateBody.createdAt) AS templateCreatedMs,
      to_json(batches) AS batchesJson, list_transform(batches, b -> epoch_ms(b.createdAt)) AS batchCreatedMs,
      list_transform(batches, b -> epoch_ms(b.BatchMessage.createdAt)) AS linkCreatedMs,
      to_json(messageAttempts) AS attemptsJson,
      list_transform(messageAttempts, a -> epoch_ms(a.sentAt)) AS sentMs,
      list_transform(messageAttempts, a -> epoch_ms(a.deliveredAt)) AS deliveredMs,
      to_json(attempts) AS summariesJson, language, batchId, creatorEmail, numAttempts, extra
    FROM read_parquet(${sqlText(file)}, file_row_number = true) ORDER BY file_row_number`);
}
