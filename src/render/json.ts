// JSON and JSONL: the server's message objects as sent (unknown keys kept, every number and escape as
// it was, at any depth: on one line, a message is its own bytes, core/json-text.ts), or, with --fields,
// an object of the chosen paths. Streamed: the array is written as pages arrive.
import { jsonSourceOf, jsonText, jsonTextOf, needsOwnText } from "../core/json-text.js";
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import type { Field } from "./fields.js";
import { indentedJson, oneLineJson } from "./json-layout.js";
import type { Sink } from "./sink.js";

type Writer = (message: CheckedMessage, sink: Sink) => void | Promise<void>;

/** Writes a message as JSON, on one line or indented: the message, or with --fields the chosen values. */
function writer(fields: readonly Field[] | undefined, pretty = false): Writer {
  if (!fields)
    return pretty ? (message, sink) => sink.write(indentedText(message).replace(/\n/g, "\n  ")) : writeOneLine;
  return (message, sink) => {
    const picked: Record<string, unknown> = {};
    for (const field of fields) picked[field.name] = field.get(message) ?? null;
    return sink.write(pretty ? jsonText(picked, 2).replace(/\n/g, "\n  ") : jsonText(picked));
  };
}

/**
 * A value on one line: its own bytes where they were kept (laid out on one line if the server broke
 * lines), else as JSON.stringify writes it, which gives a value without such a source back as it was.
 */
function writeOneLine(value: unknown, sink: Sink): void | Promise<void> {
  const source = jsonSourceOf(value);
  if (source === undefined) return sink.write(jsonText(value) ?? "null");
  return source.oneLine
    ? sink.writeBytes(source.bytes, source.start, source.end)
    : sink.write(oneLineJson(source.text()));
}

/**
 * Indented by two spaces a level, for a person: from its own text (where one was kept; in a listing
 * only where a number would not survive JSON.stringify), else through JSON.stringify (escapes written
 * as characters, any depth: compact past the stack's).
 */
function indentedText(value: unknown, ownTextAlways = false): string {
  const text = ownTextAlways || needsOwnText(value) ? jsonTextOf(value) : undefined;
  return text !== undefined ? indentedJson(text, "  ") : (jsonText(value, 2) ?? "null");
}

export async function renderJsonl(chunks: Chunks, sink: Sink, fields?: readonly Field[]): Promise<void> {
  const write = writer(fields);
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const writing = write(message, sink);
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
export async function renderJson(
  chunks: Chunks,
  sink: Sink,
  options: { fields?: readonly Field[]; pretty: boolean },
): Promise<void> {
  const write = writer(options.fields, options.pretty);
  const before = options.pretty ? ",\n  " : ",\n";
  let first = true;
  // "[" goes out with the first message (or at the end): a listing that fails before any leaves stdout empty.
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const opening = sink.write(first ? before.replace(",", "[") : before);
      first = false;
      if (opening) await opening;
      const writing = write(message, sink);
      if (writing) await writing;
    }
  }
  await sink.write(first ? "[]\n" : "\n]\n");
}

/** One object, exactly as sent: `msgstat message --json`. */
export async function renderJsonValue(value: unknown, sink: Sink, pretty: boolean): Promise<void> {
  if (pretty) await sink.write(indentedText(value, true));
  else await writeOneLine(value, sink);
  await sink.write("\n");
}
