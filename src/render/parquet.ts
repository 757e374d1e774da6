// Parquet: one row a message, typed and nested columns (parquet-columns.ts), snappy-compressed, written
// as pages arrive: a row group every ROW_GROUP_MESSAGES messages, handed to the sink and flushed, so
// memory holds one row group, never the listing. hyparquet-writer (pure JavaScript: no native build, no
// download at install) is loaded only here, when Parquet is asked for; why that library, measured, is in
// docs/parquet.md.
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import { MESSAGE_COLUMNS, messageRow, messageSchema } from "./parquet-columns.js";
import type { Sink } from "./sink.js";

/**
 * Messages in a row group, by measurement (docs/parquet.md): at 100,000 messages, groups of 1,000, 2,000,
 * 5,000 and 10,000 peaked at 171, 181, 222 and 279 MB for files of 21.2, 20.4, 19.8 and 19.7 MB, with the
 * least CPU time at 2,000 to 5,000. A group's rows are held until it is written.
 */
export const ROW_GROUP_MESSAGES = 2_000;

/**
 * Columns written without min/max statistics: the structs, lists and the map. A reader prunes row groups
 * by the flat columns (createdAt, latestStatus, campaignId); statistics cost time for every leaf (all of
 * them: 8 % of the writer's CPU time at 100,000 messages) and those inside would prune little.
 */
const NESTED = new Set(
  messageSchema()
    .filter((element) => element.num_children !== undefined)
    .map((e) => e.name),
);

export interface ParquetOptions {
  /** Messages per row group (a test makes several groups of a small listing). */
  rowGroupMessages?: number;
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
  const { ByteWriter, ParquetWriter } = await import("hyparquet-writer");
  const groupSize = options.rowGroupMessages ?? ROW_GROUP_MESSAGES;

  // The writer's buffer is handed to the sink at each row group's end (and at the footer), then reused.
  const bytes = new ByteWriter();
  const handOver = async (): Promise<void> => {
    const writing = sink.writeBytes(Buffer.from(bytes.buffer, 0, bytes.index), 0, bytes.index);
    bytes.index = 0;
    if (writing) await writing;
    await sink.flush();
  };
  const output = Object.assign(bytes, { flush: handOver, finish: handOver });

  const writer = new ParquetWriter({ writer: output, schema: messageSchema(), codec: "SNAPPY", createdBy: "msgstat" });
  let columns = MESSAGE_COLUMNS.map((): unknown[] => []);
  let rows = 0;
  const writeGroup = async () => {
    await writer.write({
      columnData: MESSAGE_COLUMNS.map((name, i) => ({ name, data: columns[i]!, statistics: !NESTED.has(name) })),
      rowGroupSize: rows,
    });
    columns = MESSAGE_COLUMNS.map((): unknown[] => []);
    rows = 0;
  };

  for await (const chunk of chunks) {
    for (const message of chunk) {
      const row = messageRow(message);
      for (let i = 0; i < MESSAGE_COLUMNS.length; i++) columns[i]!.push(row[MESSAGE_COLUMNS[i]!]);
      if (++rows === groupSize) await writeGroup();
    }
  }
  if (rows > 0) await writeGroup();
  await writer.finish();
}
