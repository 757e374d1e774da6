// Parquet: one row a message, typed and nested columns (parquet-columns.ts), snappy-compressed, written
// as pages arrive: each message is walked once into its columns' bytes, and a row group is handed to
// the sink and flushed as soon as it is full, so memory holds one row group (compressed, but for each
// column's page being filled), never the listing. The encoder is msgstat's own (parquet-writer.ts,
// which says why), loaded only here, when Parquet is asked for.
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import { isFlatColumn, messageSchema, messageWriter } from "./parquet-columns.js";
import { leafColumns, ParquetFile } from "./parquet-writer.js";
import type { Sink } from "./sink.js";

/** Messages in a row group, at most (docs/parquet.md says why this many). */
export const ROW_GROUP_MESSAGES = 2_000;
/**
 * A row group is closed sooner when it holds this many bytes (compressed pages, and the pages being
 * filled): messages of very long texts would otherwise make a row group as large as the listing.
 */
export const ROW_GROUP_BYTES = 64 * 1024 * 1024;

export interface ParquetOptions {
  /** Messages per row group (a test makes several groups of a small listing). */
  rowGroupMessages?: number;
  /** Bytes per row group, at most (a test makes a row group close for its size). */
  rowGroupBytes?: number;
}

/**
 * Writes the listing as one Parquet file. Nothing reaches the sink before the first row group is full
 * (or the listing ends): a listing that fails before leaves it empty. A failure later leaves a file
 * without its footer, which no reader takes for a whole one; -o's file is left as it was.
 */
export async function renderParquet(
  chunks: Chunks<CheckedMessage>,
  sink: Sink,
  options: ParquetOptions = {},
): Promise<void> {
  const groupMessages = options.rowGroupMessages ?? ROW_GROUP_MESSAGES;
  const groupBytes = options.rowGroupBytes ?? ROW_GROUP_BYTES;
  const schema = messageSchema();
  const file = new ParquetFile(schema, leafColumns(schema, isFlatColumn), "msgstat");
  const write = messageWriter(file.columns);

  const handOver = async (parts: Buffer[]) => {
    for (const part of parts) {
      const writing = sink.writeBytes(part, 0, part.length);
      if (writing) await writing;
    }
    await sink.flush();
  };

  for await (const chunk of chunks) {
    for (const message of chunk) {
      write(message);
      const held = file.endRow();
      if (file.rowsInGroup === groupMessages || held >= groupBytes) await handOver(file.rowGroup());
    }
  }
  if (file.rowsInGroup > 0) await handOver(file.rowGroup());
  await handOver(file.footer());
}
