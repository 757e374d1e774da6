// JSON and JSONL: the server's message objects as sent (unknown keys kept, every number and escape as
// it was, at any depth: on one line, a message is its own bytes, its JsonSource), or, with --fields,
// an object of the chosen paths. Streamed: the array is written as pages arrive.
import { stringifyAtAnyDepth } from "../core/json-stringify.js";
import { needsOwnText, type JsonSource, type SourcedMessage } from "../core/json-source.js";
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import type { Field } from "./fields.js";
import { indentedJson, oneLineJson } from "./json-layout.js";
import type { Sink } from "../output/sink.js";

/** Writes one item as JSON: on one line, or indented (continuation lines indented once more, for an array). */
type Writer<M> = (item: M, sink: Sink) => void | Promise<void>;

/** A message on one line: its own bytes (laid out on one line if the server broke lines). */
function writeSourceLine(source: JsonSource, sink: Sink): void | Promise<void> {
  if (!source.oneLine) return sink.write(oneLineJson(source.text()));
  source.checkHeld();
  return sink.writeBytes(source.bytes, source.start, source.end);
}

/**
 * Indented by two spaces a level, for a person: from its own text where a number would not survive
 * JSON.stringify (or always, with `ownTextAlways`), else through JSON.stringify (escapes written as
 * characters, any depth: compact past the stack's).
 */
function indentedText({ message, source }: SourcedMessage, ownTextAlways = false): string {
  return ownTextAlways || needsOwnText(message) ? indentedJson(source.text(), "  ") : stringifyAtAnyDepth(message, 2);
}

function messageWriter(pretty: boolean): Writer<SourcedMessage> {
  return pretty
    ? (item, sink) => sink.write(indentedText(item).replace(/\n/g, "\n  "))
    : (item, sink) => writeSourceLine(item.source, sink);
}

function fieldsWriter(fields: readonly Field[], pretty: boolean): Writer<CheckedMessage> {
  return (message, sink) => {
    const picked: Record<string, unknown> = {};
    for (const field of fields) picked[field.name] = field.get(message) ?? null;
    return sink.write(pretty ? stringifyAtAnyDepth(picked, 2).replace(/\n/g, "\n  ") : stringifyAtAnyDepth(picked));
  };
}

/** JSONL of whole messages, each as the server sent it. */
export function renderJsonl(chunks: Chunks<SourcedMessage>, sink: Sink): Promise<void> {
  return jsonLines(chunks, sink, messageWriter(false));
}

/** JSONL of the --fields chosen. */
export function renderFieldsJsonl(chunks: Chunks, sink: Sink, fields: readonly Field[]): Promise<void> {
  return jsonLines(chunks, sink, fieldsWriter(fields, false));
}

/** A JSON array of whole messages, each as the server sent it (indented for a person when `pretty`). */
export function renderJson(chunks: Chunks<SourcedMessage>, sink: Sink, pretty: boolean): Promise<void> {
  return jsonArray(chunks, sink, messageWriter(pretty), pretty);
}

/** A JSON array of the --fields chosen. */
export function renderFieldsJson(
  chunks: Chunks,
  sink: Sink,
  options: { fields: readonly Field[]; pretty: boolean },
): Promise<void> {
  return jsonArray(chunks, sink, fieldsWriter(options.fields, options.pretty), options.pretty);
}

async function jsonLines<M>(chunks: Chunks<M>, sink: Sink, write: Writer<M>): Promise<void> {
  for await (const chunk of chunks) {
    for (const item of chunk) {
      const writing = write(item, sink);
      if (writing) await writing;
      const flushing = sink.write("\n");
      if (flushing) await flushing;
    }
  }
}

/**
 * One JSON array. The closing bracket is written only after the last page: if the listing fails
 * part way, the output is visibly incomplete (and the exit code says so) rather than a valid, short array.
 */
async function jsonArray<M>(chunks: Chunks<M>, sink: Sink, write: Writer<M>, pretty: boolean): Promise<void> {
  const before = pretty ? ",\n  " : ",\n";
  let first = true;
  // "[" goes out with the first message (or at the end): a listing that fails before any leaves stdout empty.
  for await (const chunk of chunks) {
    for (const item of chunk) {
      const opening = sink.write(first ? before.replace(",", "[") : before);
      first = false;
      if (opening) await opening;
      const writing = write(item, sink);
      if (writing) await writing;
    }
  }
  await sink.write(first ? "[]\n" : "\n]\n");
}

/** One message, exactly as sent: `msgstat message --json`. */
export async function renderJsonValue(item: SourcedMessage, sink: Sink, pretty: boolean): Promise<void> {
  if (pretty) await sink.write(indentedText(item, true));
  else await writeSourceLine(item.source, sink);
  await sink.write("\n");
}
