// A partition's file, encoded from its spill into a temporary file in the run's staging folder
// (AtomicFile's, beside `target`), flushed to disk and closed; the rename to the data file is left to the run,
// which makes every rename of a run only once each partition it replaces is ready (run.ts).
import { fsync, promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { JsonSource, SourcedMessage } from "../../core/json-source.js";
import type { CheckedMessage } from "../../core/message.js";
import { renderJsonl } from "../../render/json.js";
import { renderParquet } from "../../render/parquet.js";
import { openOutput, type Sink } from "../../render/sink.js";
import type { Context } from "../context.js";
import type { ExportFormat } from "./layout.js";
import { uniqueMessages } from "./spill.js";

/** A temporary file ready to be renamed over its data file. */
export interface ReadyFile {
  temporary: string;
  target: string;
}

// How a partition's messages become a file. Its version is part of each partition's digest: a change in
// how msgstat encodes a format is a reason to write every partition again. msgstat's own version (which
// Parquet's created_by names) is not: a release that encodes the same would otherwise rewrite every partition.
interface Encoder {
  version: string;
  /** The file is gzipped as it is written (render/gzip-stream.ts, as -o x.jsonl.gz). */
  gzip: boolean;
  render(chunks: AsyncIterable<SourcedMessage[]>, sink: Sink, msgstatVersion: string): Promise<void>;
}

export const ENCODERS: Record<ExportFormat, Encoder> = {
  "jsonl.gz": { version: "jsonl.gz-1", gzip: true, render: (chunks, sink) => renderJsonl(chunks, sink) },
  // render/parquet.ts: the columns of `messages --format parquet`, from the parsed messages.
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

/** Writes the partition's file from its spill under a temporary name beside `target` (in staging), synced, closed. */
export async function encodePartition(
  spill: string,
  target: string,
  format: ExportFormat,
  msgstatVersion: string,
  ctx: Pick<Context, "stdout" | "stderr" | "signal">,
): Promise<ReadyFile> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  let ready: ReadyFile | undefined;
  const sink = await openOutput(target, ctx, {
    gzip: ENCODERS[format].gzip,
    staged: true,
    steps: {
      sync: promisify(fsync),
      rename: (temporary, to) => {
        ready = { temporary, target: to };
        return Promise.resolve();
      },
    },
  });
  try {
    await ENCODERS[format].render(spilledChunks(spill, { count: 0 }), sink, msgstatVersion);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  await sink.finish();
  return ready!;
}
