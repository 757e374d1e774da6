// Parquet: one row a message, typed and nested columns (parquet/columns.ts), snappy-compressed, written
// as pages arrive: each message is walked once into its columns' bytes, and a row group is handed to
// the sink and flushed as soon as it is full, so memory holds one row group (compressed, but for each
// column's page being filled), never the listing. The encoder is msgstat's own (parquet/writer.ts,
// which says why), loaded only here, when Parquet is asked for.
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import { isFlatColumn, messageSchema, messageWriter } from "./parquet/columns.js";
import { leafColumns, ParquetFile } from "./parquet/writer.js";
import type { Sink } from "../output/sink.js";

/**
 * Messages in a row group, at most. Readers prefer large groups (DuckDB splits its work by them), and
 * the group is what memory holds: this size keeps Parquet's peak RSS within docs/bench.md's target
 * against CSV's (bench/HISTORY.md, "The Parquet encoder").
 */
export const ROW_GROUP_MESSAGES = 20_000;
/**
 * A row group is closed sooner when it holds this many bytes (compressed pages, and the pages being
 * filled): messages of very long texts would otherwise make a row group as large as the listing;
 * a full group of ordinary messages stays well under it.
 */
export const ROW_GROUP_BYTES = 16 * 1024 * 1024;

/** How much of a row group the sink is given before it is told to write it out. */
const FLUSH_BYTES = 64 * 1024;

export interface ParquetOptions {
  /** msgstat's version (`--version`'s), for the footer's created_by. */
  version: string;
  /** Messages per row group (a test makes several groups of a small listing). */
  rowGroupMessages?: number;
  /** Bytes per row group, at most (a test makes a row group close for its size). */
  rowGroupBytes?: number;
}

/**
 * The footer's created_by, in the form Parquet's readers parse (`<application> version <semver> (build
 * <hash>)`); without the build part, which a package installed from the registry has no commit for.
 */
const createdBy = (version: string) => `msgstat version ${version}`;

/**
 * Writes the listing as one Parquet file. Nothing reaches the sink before the first row group is full
 * (or the listing ends): a listing that fails before leaves it empty. A failure later leaves a file
 * without its footer, which no reader takes for a whole one; -o's file is left as it was.
 */
export async function renderParquet(
  chunks: Chunks<CheckedMessage>,
  sink: Sink,
  options: ParquetOptions,
): Promise<void> {
  const groupMessages = options.rowGroupMessages ?? ROW_GROUP_MESSAGES;
  const groupBytes = options.rowGroupBytes ?? ROW_GROUP_BYTES;
  const schema = messageSchema();
  const file = new ParquetFile(schema, leafColumns(schema, isFlatColumn), createdBy(options.version));
  const write = messageWriter(file.columns);

  // The sink copies what it is given, so the row group's buffer is reused at once. It writes out on its
  // own only at a line's end (text formats): here it is told to every FLUSH_BYTES, so that it never
  // holds a copy of a whole row group.
  let unflushed = 0;
  const out = async (bytes: Buffer, start: number, end: number) => {
    const writing = sink.writeBytes(bytes, start, end);
    if (writing) await writing;
    unflushed += end - start;
    if (unflushed < FLUSH_BYTES) return;
    unflushed = 0;
    await sink.flush();
  };
  for await (const chunk of chunks) {
    for (const message of chunk) {
      write(message);
      const held = file.endRow();
      if (file.rowsInGroup === groupMessages || held >= groupBytes) {
        await file.writeRowGroup(out);
        await sink.flush();
      }
    }
  }
  if (file.rowsInGroup > 0) await file.writeRowGroup(out);
  await file.writeFooter(out);
  await sink.flush();
}
