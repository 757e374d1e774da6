// JSON and JSONL: the server's message objects exactly as sent (unknown keys kept), or, with
// --fields, an object of the chosen paths. Streamed: the array is written as pages arrive.
import { jsonText } from "../core/json-text.js";
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import type { Field } from "./fields.js";
import type { Sink } from "./sink.js";


function projector(fields: readonly Field[] | undefined): (message: CheckedMessage) => object {
  if (!fields) return (message) => message;
  return (message) => {
    const picked: Record<string, unknown> = {};
    for (const field of fields) picked[field.name] = field.get(message) ?? null;
    return picked;
  };
}

export async function renderJsonl(chunks: Chunks, sink: Sink, fields?: readonly Field[]): Promise<void> {
  const project = projector(fields);
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const flushing = sink.write(jsonText(project(message)) + "\n");
      if (flushing) await flushing;
    }
  }
}

/**
 * One JSON array. The closing bracket is written only after the last page: if the listing fails
 * part way, the output is visibly incomplete (and the exit code says so) rather than a valid, short array.
 */
export async function renderJson(chunks: Chunks, sink: Sink, options: { fields?: readonly Field[]; pretty: boolean }): Promise<void> {
  const project = projector(options.fields);
  const indent = options.pretty ? 2 : undefined;
  const pad = options.pretty ? "  " : "";
  let first = true;
  // "[" goes out with the first message (or at the end): a listing that fails before any leaves stdout empty.
  for await (const chunk of chunks) {
    for (const message of chunk) {
      let encoded = jsonText(project(message), indent);
      if (options.pretty) encoded = encoded.replace(/\n/g, "\n  ");
      const flushing = sink.write((first ? "[\n" : ",\n") + pad + encoded);
      first = false;
      if (flushing) await flushing;
    }
  }
  await sink.write(first ? "[]\n" : "\n]\n");
}

/** One object, exactly as sent: `msgstat message --json`. */
export async function renderJsonValue(value: unknown, sink: Sink, pretty: boolean): Promise<void> {
  await sink.write(jsonText(value, pretty ? 2 : undefined) + "\n");
}
