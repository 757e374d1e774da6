// A message's JSON text as the server sent it, carried beside the parsed message for JSON output.
// JSON.parse reads numbers as doubles, so 9007199254740993 becomes ...992, 1e400 Infinity (null when
// stringified), a 30-digit integer 1.2345678901234568e+29, and 0.1000000000000000055 0.1; it keeps
// the last of two equal keys, and -0 stringifies as 0. Writing the bytes as sent keeps all of it, and
// costs a copy where JSON.stringify and encoding its text again cost more than parsing the page
// (bench/HISTORY.md, "JSON and JSONL from each message's own bytes"). A source holds the page's bytes
// as long as one of its messages is held, or until a listing frees the page once its messages are written
// (service/paging.ts, freeEachPage).
import type { CheckedMessage } from "./message.js";
import { stringifyAtAnyDepth } from "./json-stringify.js";

/** Where a value's JSON text lies: bytes [start, end) of the body it was parsed from. */
export class JsonSource {
  constructor(
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
    /** The bytes are valid UTF-8 without a line break: one line of JSON as they are. */
    readonly oneLine: boolean,
  ) {}

  /**
   * The text JSON.stringify writes for `value`, as a source: for a message whose bytes could not be
   * told apart from its page's (the scan of json-spans.ts gave up where JSON.parse did not).
   */
  static written(value: unknown): JsonSource {
    const bytes = Buffer.from(stringifyAtAnyDepth(value) ?? "null", "utf8");
    return new JsonSource(bytes, 0, bytes.length, true);
  }

  /** The text, decoded (an invalid UTF-8 sequence becomes U+FFFD, as when the body was parsed). */
  text(): string {
    this.checkHeld();
    return this.bytes.toString("utf8", this.start, this.end);
  }

  /**
   * Throws if the bytes were freed (their page released before this message was written): they would
   * read as empty, and the message would be written as nothing, silently. Only a bug in msgstat does that.
   */
  checkHeld(): void {
    if (this.end > this.bytes.length)
      throw new Error("internal error: a message's text was freed before it was written");
  }
}

/**
 * A message with the text it was parsed from: what JSON output writes for it. A class, not an object
 * literal: V8 may allocate what a literal makes straight in the old generation once most of it
 * outlives a collection, and there a pair holding a young message keeps it alive until a full one,
 * which made a long --jsonl export's CPU time erratic.
 */
export class SourcedMessage {
  constructor(
    readonly message: CheckedMessage,
    readonly source: JsonSource,
  ) {}
}

/**
 * Whether JSON output could write a number of `value` otherwise than it was sent: one that is not a
 * safe integer (a fraction, an exponent, -0, beyond 2^53, infinite). Integers written as 1E2 or
 * 100.0 are read as 100 and do not count: they come out as 100. A loop, not recursion: any depth.
 */
export function needsOwnText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "number") {
      if (!Number.isSafeInteger(next) || Object.is(next, -0)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === "object" && next !== null) {
      for (const key in next) pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}
