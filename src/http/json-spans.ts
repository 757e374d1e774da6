// Where each element of a body's top-level array sits, found in the raw bytes without parsing them.
// With it each message keeps where the text the server sent lies (numbers digit for digit, for exact
// JSON output), and a huge page is parsed a part at a time, each message from its own bytes.
//
// The scan is structural only (strings, nesting, separators); it never decides what a value is.
// The values come from JSON.parse: of the whole body, or of each element and of the body around the
// array (with the array emptied), which together check exactly what one parse of the body would.
// On anything it does not expect, the scan gives up (undefined) and the caller parses the body whole.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** What the scanning functions return instead of an index when the bytes are not what they expect. */
const LOST = -1;

export interface ArraySpans {
  /** The array's own brackets: bytes[arrayStart] is `[`, bytes[arrayEnd - 1] is `]`. */
  readonly arrayStart: number;
  readonly arrayEnd: number;
  /** Element i is bytes[offsets[2i], offsets[2i + 1]). */
  readonly offsets: Uint32Array;
  readonly count: number;
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** `at` is an opening quote; the index after the closing one. */
function endOfString(bytes: Buffer, at: number): number {
  let quote = at;
  for (;;) {
    quote = bytes.indexOf(QUOTE, quote + 1);
    if (quote < 0) return LOST;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/** The index after the value that starts at `at` (no leading space). */
function endOfValue(bytes: Buffer, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return endOfString(bytes, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = at; i < bytes.length;) {
      const byte = bytes[i]!;
      if (byte === QUOTE) {
        i = endOfString(bytes, i);
        if (i === LOST) return LOST;
        continue;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
      i++;
    }
    return LOST;
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
    i++;
  }
  return i === at ? LOST : i;
}

function keyIs(bytes: Buffer, start: number, end: number, key: string): boolean {
  const text = bytes.toString("utf8", start, end);
  if (text === `"${key}"`) return true;
  if (!text.includes("\\")) return false;
  // An escaped spelling ("d\u0061ta") is the same key to JSON.parse.
  try {
    return JSON.parse(text) === key;
  } catch {
    return false;
  }
}

/**
 * Offsets in a typed array that doubles as it fills: 8 bytes an element, where a plain array of numbers takes 16 and
 * more garbage.
 */
class Offsets {
  private values = new Uint32Array(2048);
  length = 0;

  push(start: number, end: number): void {
    if (this.length + 2 > this.values.length) {
      const larger = new Uint32Array(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values[this.length++] = start;
    this.values[this.length++] = end;
  }

  done(): Uint32Array {
    return this.values.slice(0, this.length);
  }
}

/** The element offsets of the array opening at `arrayStart`, and the index after its `]`. */
function elementsOf(bytes: Buffer, arrayStart: number): { offsets: Offsets; arrayEnd: number } | undefined {
  const offsets = new Offsets();
  let at = skipSpace(bytes, arrayStart + 1);
  if (bytes[at] === CLOSE_ARRAY) return { offsets, arrayEnd: at + 1 };
  for (;;) {
    const end = endOfValue(bytes, at);
    if (end === LOST) return undefined;
    offsets.push(at, end);
    at = skipSpace(bytes, end);
    if (bytes[at] === CLOSE_ARRAY) return { offsets, arrayEnd: at + 1 };
    if (bytes[at] !== COMMA) return undefined;
    at = skipSpace(bytes, at + 1);
  }
}

/** Where the value of a whole body lies, without the spaces around it. */
export function trimmedSpan(bytes: Buffer): { start: number; end: number } {
  let end = bytes.length;
  while (end > 0 && isSpace(bytes[end - 1])) end--;
  return { start: skipSpace(bytes, 0), end };
}

/**
 * The elements of the array under `key` in a body that is a JSON object (the last such key, as
 * JSON.parse takes it), or undefined when the body is not shaped so.
 */
export function arraySpans(bytes: Buffer, key: string): ArraySpans | undefined {
  let found: { offsets: Offsets; arrayStart: number; arrayEnd: number } | undefined;
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  at = skipSpace(bytes, at + 1);
  while (bytes[at] !== CLOSE_OBJECT) {
    if (bytes[at] !== QUOTE) return undefined;
    const keyEnd = endOfString(bytes, at);
    if (keyEnd === LOST) return undefined;
    const matches = keyIs(bytes, at, keyEnd, key);
    at = skipSpace(bytes, keyEnd);
    if (bytes[at] !== COLON) return undefined;
    at = skipSpace(bytes, at + 1);
    if (matches && bytes[at] === OPEN_ARRAY) {
      const elements = elementsOf(bytes, at);
      if (elements === undefined) return undefined;
      found = { ...elements, arrayStart: at };
      at = elements.arrayEnd;
    } else {
      if (matches) found = undefined; // a later value that is not an array wins over an earlier array
      at = endOfValue(bytes, at);
      if (at === LOST) return undefined;
    }
    at = skipSpace(bytes, at);
    if (bytes[at] === COMMA) at = skipSpace(bytes, at + 1);
    else if (bytes[at] !== CLOSE_OBJECT) return undefined;
  }
  if (found === undefined || skipSpace(bytes, at + 1) !== bytes.length) return undefined;
  return {
    arrayStart: found.arrayStart,
    arrayEnd: found.arrayEnd,
    offsets: found.offsets.done(),
    count: found.offsets.length / 2,
  };
}
