// JSON and JSONL: the server's message objects as sent (unknown keys kept, every value as it was, at
// any depth; a message with a number JSON.stringify cannot give back is written from its own text,
// core/json-text.ts), or, with --fields, an object of the chosen paths. Streamed: the array is
// written as pages arrive.
import { jsonText, jsonTextOf } from "../core/json-text.js";
import type { CheckedMessage } from "../core/message.js";
import type { Chunks } from "./chunks.js";
import type { Field } from "./fields.js";
import { indentedJson, oneLineJson } from "./json-layout.js";
import type { Sink } from "./sink.js";

/** A message as JSON, on one line or indented: the message, or with --fields the chosen values. */
function encoder(fields: readonly Field[] | undefined, pretty = false): (message: CheckedMessage) => string {
  if (!fields) return pretty ? indentedText : oneLineText;
  return (message) => {
    const picked: Record<string, unknown> = {};
    for (const field of fields) picked[field.name] = field.get(message) ?? null;
    return jsonText(picked, pretty ? 2 : undefined);
  };
}

/** A value on one line: its own text where it kept one, else as JSON.stringify writes it, which gives it back as it was. */
function oneLineText(value: unknown): string {
  const text = jsonTextOf(value);
  return text !== undefined ? oneLineJson(text) : jsonText(value) ?? "null";
}

/** The same, indented by two spaces a level. */
function indentedText(value: unknown): string {
  const text = jsonTextOf(value);
  return text !== undefined ? indentedJson(text, "  ") : jsonText(value, 2) ?? "null";
}

export async function renderJsonl(chunks: Chunks, sink: Sink, fields?: readonly Field[]): Promise<void> {
  const encode = encoder(fields);
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const flushing = sink.write(encode(message) + "\n");
      if (flushing) await flushing;
    }
  }
}

/**
 * One JSON array. The closing bracket is written only after the last page: if the listing fails
 * part way, the output is visibly incomplete (and the exit code says so) rather than a valid, short array.
 */
export async function renderJson(chunks: Chunks, sink: Sink, options: { fields?: readonly Field[]; pretty: boolean }): Promise<void> {
  const encode = encoder(options.fields, options.pretty);
  const pad = options.pretty ? "  " : "";
  let first = true;
  // "[" goes out with the first message (or at the end): a listing that fails before any leaves stdout empty.
  for await (const chunk of chunks) {
    for (const message of chunk) {
      let encoded = encode(message);
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
  await sink.write((pretty ? indentedText(value) : oneLineText(value)) + "\n");
}
