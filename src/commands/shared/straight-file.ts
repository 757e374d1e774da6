// -o for the live modes (--follow, --watch): written straight through, not atomically. There is no end
// at which a temporary file could be moved into place, and what was received must survive Ctrl-C, so
// the file holds every complete record written so far.
import { createWriteStream } from "node:fs";
import { UsageError } from "../../core/errors.js";
import { streamSink, type Sink } from "../../render/sink.js";

export async function straightFileSink(
  file: string,
  signal: AbortSignal,
): Promise<{ sink: Sink; close: () => Promise<void> }> {
  const stream = createWriteStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (error: NodeJS.ErrnoException) =>
      reject(new UsageError(`-o ${file}: cannot write there (${error.code ?? error.message})`)),
    );
  });
  return { sink: streamSink(stream, signal, file), close: () => new Promise<void>((resolve) => stream.end(resolve)) };
}
