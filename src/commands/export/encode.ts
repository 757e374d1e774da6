// A partition's file, encoded from its spill into a prepared file in the run's staging folder, flushed
// to disk and closed; its commit (the rename over the data file) is left to the run, which commits only
// once every partition it replaces is ready (run.ts).
import { promises as fs } from "node:fs";
import { JsonSource, SourcedMessage } from "../../core/json-source.js";
import type { CheckedMessage } from "../../core/message.js";
import { renderJsonl } from "../../formats/json.js";
import { renderParquet } from "../../formats/parquet.js";
import { prepareFile, type Sink } from "../../output/sink.js";
import type { AtomicFile } from "../../output/atomic-file.js";
import type { ExportFormat } from "./layout.js";
import { uniqueMessages } from "./spill.js";

// How a partition's messages become a file. Its version is part of each partition's digest: a change in
// how msgstat encodes a format is a reason to write every partition again. msgstat's own version (which
// Parquet's created_by names) is not: a release that encodes the same would otherwise rewrite every partition.
interface Encoder {
  version: string;
  /** The file is gzipped as it is written (as -o x.jsonl.gz). */
  gzip: boolean;
  render(chunks: AsyncIterable<SourcedMessage[]>, sink: Sink, msgstatVersion: string): Promise<void>;
}

export const ENCODERS: Record<ExportFormat, Encoder> = {
  "jsonl.gz": { version: "jsonl.gz-1", gzip: true, render: (chunks, sink) => renderJsonl(chunks, sink) },
  // formats/parquet.ts: the columns of `messages --format parquet`, from the parsed messages.
  parquet: {
    version: "parquet-2",
    gzip: false,
    render: (chunks, sink, msgstatVersion) => renderParquet(parsed(chunks), sink, { version: msgstatVersion }),
  },
};

const CHUNK = 1000;

async function* parsed(chunks: AsyncIterable<SourcedMessage[]>): AsyncGenerator<CheckedMessage[]> {
  for await (const chunk of chunks) yield chunk.map((item) => item.message);
}

/** The spill's messages, each id once, as a renderer takes them. */
async function* spilledChunks(file: string, repeats: { count: number }): AsyncGenerator<SourcedMessage[]> {
  let chunk: SourcedMessage[] = [];
  for await (const { body } of uniqueMessages(file, repeats)) {
    const bytes = Buffer.from(body, "utf8");
    chunk.push(new SourcedMessage(JSON.parse(body) as CheckedMessage, new JsonSource(bytes, 0, bytes.length, true)));
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Writes the partition's file for `target` from its spill, prepared in `staging`: synced, closed, not yet in place. */
export async function encodePartition(
  spill: string,
  target: string,
  staging: string,
  format: ExportFormat,
  msgstatVersion: string,
  signal: AbortSignal,
): Promise<AtomicFile> {
  await fs.mkdir(staging, { recursive: true });
  const sink = await prepareFile(target, staging, signal, { gzip: ENCODERS[format].gzip });
  try {
    await ENCODERS[format].render(spilledChunks(spill, { count: 0 }), sink, msgstatVersion);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  await sink.finish();
  return sink.file;
}
