// JSON text of a value the service sent. JSON.parse accepts any nesting depth, but JSON.stringify
// recurses and overflows the stack a few thousand levels down; so a value that deep is written by the
// loop below instead, with an explicit stack, as JSON.stringify would write it had it the stack.
//
// And where the text a message was parsed from lies (its source), kept beside it for JSON output:
// JSON.parse reads numbers as doubles, so 9007199254740993 becomes ...992, 1e400 Infinity (null when
// stringified), a 30-digit integer 1.2345678901234568e+29, and 0.1000000000000000055 0.1. Writing the
// bytes as sent keeps every number and escape exact, and costs a copy where JSON.stringify and
// encoding its text again cost more than parsing the page (CPU profile of --jsonl, docs/bench.md).
// The source is a non-enumerable symbol property: no key list, spread, JSON.stringify or for-in sees
// it, and it lives and dies with its message (holding the page's bytes as long as one is held).

type Frame =
  | { array: readonly unknown[]; index: number }
  | { object: Readonly<Record<string, unknown>>; keys: string[]; index: number; written: number };

/**
 * JSON.stringify(value, null, indent), whatever the depth. Past the stack's depth the text is compact
 * even when `indent` asks for more: indenting that deep would make the text grow with the square of it.
 */
export function jsonText(value: object, indent?: number): string;
export function jsonText(value: unknown, indent?: number): string | undefined;
export function jsonText(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError) || !isContainer(value)) throw error;
    return deepJsonText(value);
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function deepJsonText(root: object): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const open = (value: unknown) => {
    if (Array.isArray(value)) {
      parts.push("[");
      stack.push({ array: value, index: 0 });
    } else if (isContainer(value)) {
      parts.push("{");
      stack.push({ object: value as Record<string, unknown>, keys: Object.keys(value), index: 0, written: 0 });
    } else {
      parts.push(omitted(value) ? "null" : JSON.stringify(value));
    }
  };
  open(root);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if ("array" in top) {
      if (top.index === top.array.length) {
        parts.push("]");
        stack.pop();
        continue;
      }
      if (top.index > 0) parts.push(",");
      open(top.array[top.index++]);
      continue;
    }
    while (top.index < top.keys.length && omitted(top.object[top.keys[top.index]!])) top.index++;
    if (top.index === top.keys.length) {
      parts.push("}");
      stack.pop();
      continue;
    }
    const key = top.keys[top.index++]!;
    parts.push(`${top.written++ > 0 ? "," : ""}${JSON.stringify(key)}:`);
    open(top.object[key]);
  }
  return parts.join("");
}

/** Where a value's JSON text lies: bytes [start, end) of the body it was parsed from. */
export class JsonSource {
  constructor(
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
    /** The bytes are valid UTF-8 without a line break: one line of JSON as they are. */
    readonly oneLine: boolean,
  ) {}

  /** The text, decoded (an invalid UTF-8 sequence becomes U+FFFD, as when the body was parsed). */
  text(): string {
    return this.bytes.toString("utf8", this.start, this.end);
  }
}

const SOURCE = Symbol("json source");

export function keepJsonSource(value: object, source: JsonSource): void {
  Object.defineProperty(value, SOURCE, { value: source });
}

/** Where `value`'s text lies, if that was kept. */
export function jsonSourceOf(value: unknown): JsonSource | undefined {
  return isContainer(value) ? (value as { [SOURCE]?: JsonSource })[SOURCE] : undefined;
}

/** The text `value` was parsed from, if it was kept. */
export function jsonTextOf(value: unknown): string | undefined {
  return jsonSourceOf(value)?.text();
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
    } else if (isContainer(next)) {
      for (const key in next) pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}
