// Response bodies: read under a size cap as the bytes arrive, checked to be JSON, and parsed with
// errors that say what was wrong. On request, a value comes with where its text lies in the bytes
// (a JsonSource: JSON output writes it as sent), an array's elements found by json-spans.ts.
import { isUtf8 } from "node:buffer";
import type { Readable } from "node:stream";
import type { ResponseError } from "../core/errors.js";
import { JsonSource } from "../core/json-source.js";
import { inlineSafe } from "../core/text.js";
import { codingsOf, decoding, type Coding } from "./content-coding.js";
import { bodyError, type RequestTarget } from "./errors.js";
import { arraySpans, trimmedSpan, type ArraySpans } from "./json-spans.js";

/** A 1000-message page is about 2-3 MB; anything past this is not a page of this API. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export type BodyRead = { readonly bytes: Buffer } | { readonly tooLarge: true };

/**
 * The whole body, or `tooLarge` as soon as it passes the cap (by its Content-Length, or as it
 * arrives). With a Content-Length the bytes go straight into one buffer of that size, so a large
 * body is not held twice while its pieces are joined. Read by its events: a stream's first
 * `for await` sets up Node's async iteration of streams, a millisecond or more of the one request
 * of `msgstat message` (docs/bench.md, "The executable's start-up").
 */
export function readCapped(
  body: Readable,
  declaredLength: string | string[] | undefined,
  cap: number,
): Promise<BodyRead> {
  const declared =
    typeof declaredLength === "string" && /^\d+$/.test(declaredLength) ? Number(declaredLength) : undefined;
  if (declared !== undefined && declared > cap) {
    body.destroy();
    return Promise.resolve({ tooLarge: true });
  }
  if (body.errored) {
    // Its 'error' event may be still to come: heard here, so that it is not an uncaught one.
    body.once("error", () => undefined);
    return Promise.reject(body.errored);
  }
  const whole = declared !== undefined ? ownBuffer(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  const read = (): BodyRead => {
    if (whole !== undefined) return { bytes: size === whole.length ? whole : whole.subarray(0, size) };
    if (chunks.length === 1) return { bytes: chunks[0]! };
    const joined = ownBuffer(size);
    let at = 0;
    for (const chunk of chunks) at += chunk.copy(joined, at);
    return { bytes: joined };
  };
  // Nothing more will come: its end was read before, or it was destroyed on the way.
  if (body.readableEnded) return Promise.resolve(read());
  if (body.destroyed) return Promise.reject(prematureClose());
  return new Promise<BodyRead>((resolve, reject) => {
    body.on("data", (chunk: Buffer) => {
      if (size + chunk.length > cap || (whole !== undefined && size + chunk.length > whole.length)) {
        body.destroy();
        resolve({ tooLarge: true });
        return;
      }
      if (whole !== undefined) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    // Once settled, the promise ignores what comes after: an error of a body already read or refused.
    const closedEarly = () => reject(prematureClose());
    body.once("error", reject);
    body.once("close", closedEarly);
    body.once("end", () => {
      body.off("close", closedEarly);
      resolve(read());
    });
  });
}

/** A body that closed before its end without an error, named as Node's streams name it. */
function prematureClose(): Error {
  return Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
}

/** Bodies read into a buffer of their own (never one of Node's shared pool): the ones releaseBody may free. */
const ownBodies = new WeakSet<ArrayBuffer>();

function ownBuffer(size: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(size);
  ownBodies.add(buffer.buffer);
  return buffer;
}

/**
 * Frees a body's memory now, once nothing will read its bytes again. V8 frees a buffer that outlived a
 * collection only at a full one, which waits for much such memory to pile up: pages of a long export,
 * already parsed and written (bench/HISTORY.md, "A page's bytes freed"). The bytes are moved into a
 * throwaway clone, which the next minor collection frees; every view of them reads as empty from then
 * on, so a read that came too late would find nothing, never other bytes.
 */
export function releaseBody(body: JsonBody): void {
  const buffer = body.bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || !ownBodies.has(buffer) || buffer.byteLength === 0) return;
  ownBodies.delete(buffer);
  structuredClone(buffer, { transfer: [buffer] });
}

/** A response body as read: its decoded bytes and what crossed the wire (for --verbose), or why not. */
export type ResponseBodyRead =
  | { readonly bytes: Buffer; readonly wireBytes: number; readonly codings: readonly Coding[] }
  /** Past the cap: `coded` when it was the decoded bytes that passed it. */
  | { readonly tooLarge: true; readonly coded?: boolean }
  /** The body cannot be decoded: a coding msgstat does not know, or bytes that are not what it says. */
  | { readonly unreadable: string };

/**
 * A response's body, its content codings undone as it streams in (content-coding.ts), under the cap
 * on decoded bytes (and the same cap on the bytes that cross the wire).
 */
export async function readBody(
  body: Readable,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  cap: number,
): Promise<ResponseBodyRead> {
  const coded = codingsOf(headers["content-encoding"]);
  if ("refused" in coded) {
    // A body destroyed before its end may report that as an error: nobody is left to hear it.
    body.once("error", () => undefined).destroy();
    return { unreadable: coded.refused };
  }
  if (coded.codings.length === 0) {
    const read = await readCapped(body, headers["content-length"], cap);
    return "bytes" in read ? { bytes: read.bytes, wireBytes: read.bytes.length, codings: [] } : read;
  }
  const decoded = decoding(body, coded.codings, cap);
  try {
    const read = await readCapped(decoded.decoded, undefined, cap);
    if (decoded.tooLarge()) return { tooLarge: true };
    if ("tooLarge" in read) {
      // Stop the transfer now, not once the stopped decoder's close has travelled back up the pipe.
      body.destroy();
      return { tooLarge: true, coded: true };
    }
    return { bytes: read.bytes, wireBytes: decoded.wireBytes(), codings: coded.codings };
  } catch (error) {
    if (decoded.tooLarge()) return { tooLarge: true };
    const failure = decoded.failure();
    if (failure !== undefined) return { unreadable: failure };
    throw error;
  }
}

/** The charset a Content-Type names, lower-cased; undefined when it names none. */
function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * The body in UTF-8, JSON's own encoding (RFC 8259): as it is, or decoded from the charset its
 * Content-Type names (any TextDecoder knows: ISO-8859-1, windows-1252, UTF-16, ...). A charset that
 * cannot be decoded is refused: reading it as UTF-8 would turn "café" into "caf\uFFFD" without a word.
 */
export function inUtf8(
  bytes: Buffer,
  contentType: string,
): { readonly bytes: Buffer } | { readonly unreadable: string } {
  const charset = charsetOf(contentType);
  if (charset === undefined || charset === "utf-8" || charset === "utf8") return { bytes: withoutBom(bytes) };
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    return { unreadable: `is in charset "${inlineSafe(charset)}", which msgstat cannot decode` };
  }
  if (decoder.encoding === "utf-8") return { bytes: withoutBom(bytes) };
  try {
    // TextDecoder drops a byte-order mark itself.
    return { bytes: Buffer.from(decoder.decode(bytes), "utf8") };
  } catch {
    return { unreadable: `is not valid ${decoder.encoding}, the charset its Content-Type names` };
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The bytes without a leading UTF-8 byte-order mark: RFC 8259 lets a parser ignore one, and some servers (and
 * editors) write it; JSON.parse would call it an unexpected token, naming an invisible character.
 */
export function withoutBom(bytes: Buffer): Buffer {
  return bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
}

/** Why a 2xx body cannot be read as JSON before parsing it (its type, or nothing at all), if it cannot. */
export function jsonBodyProblem(contentType: string, bytes: Buffer): string | undefined {
  if (contentType !== "" && !/[/+]json\b/i.test(contentType))
    return `is ${inlineSafe(contentType.split(";")[0] ?? contentType)}, not JSON`;
  if (bytes.length === 0) return "has an empty body, not JSON";
  return undefined;
}

/** The elements of a top-level array of a body, each parsed on demand from its own bytes. */
export interface JsonList {
  /** The body with that array left empty. */
  readonly rest: unknown;
  readonly count: number;
  /** Bytes of element i, as sent. */
  sizeOf(index: number): number;
  /** Element i, parsed; a ResponseError if it is not JSON. */
  parse(index: number): unknown;
  /** Where element i's text lies. */
  sourceOf(index: number): JsonSource;
}

/** A 2xx response's JSON body, not yet parsed. */
export class JsonBody {
  private utf8: boolean | undefined;

  constructor(
    readonly bytes: Buffer,
    readonly target: RequestTarget,
  ) {}

  /** The body parsed whole, or a ResponseError that says why it is not JSON. */
  value(): unknown {
    try {
      return JSON.parse(this.bytes.toString("utf8"));
    } catch (error) {
      throw this.notJson(error);
    }
  }

  /** The body parsed whole, with where its text lies (the body without the spaces around it). */
  sourcedValue(): { readonly value: unknown; readonly source: JsonSource } {
    const value = this.value();
    const { start, end } = trimmedSpan(this.bytes);
    return { value, source: this.source(start, end, new LineBreaks(this.bytes).within(start, end)) };
  }

  /**
   * A source in these bytes; one line only when the body is valid UTF-8 (else its text is decoded, as JSON.parse saw
   * it).
   */
  source(start: number, end: number, lineBreak: boolean): JsonSource {
    this.utf8 ??= isUtf8(this.bytes);
    return new JsonSource(this.bytes, start, end, this.utf8 && !lineBreak);
  }

  /**
   * The array under the top-level `key`, element by element, for a body too large to parse at once
   * or whose elements' texts are wanted; undefined when the body is not an object holding such an
   * array (`value()` then says what it is).
   */
  listAt(key: string): JsonList | undefined {
    const spans = arraySpans(this.bytes, key);
    if (spans === undefined) return undefined;
    const around = Buffer.concat([
      this.bytes.subarray(0, spans.arrayStart),
      Buffer.from("[]"),
      this.bytes.subarray(spans.arrayEnd),
    ]);
    let rest: unknown;
    try {
      rest = JSON.parse(around.toString("utf8"));
    } catch {
      return undefined;
    }
    return new SpannedList(this, spans, rest);
  }

  /** The error for a body that does not parse, in the words of a parse of the whole body. */
  notJson(error?: unknown): ResponseError {
    const text = this.bytes.toString("utf8");
    let reason = error instanceof Error ? error.message : undefined;
    if (reason === undefined) {
      try {
        JSON.parse(text);
        reason = "unexpected end";
      } catch (whole) {
        reason = whole instanceof Error ? whole.message : String(whole);
      }
    }
    const cutShort = endedEarly(reason, text) ? "; it may have been cut short" : "";
    return bodyError(this.target, `is not valid JSON (${inlineSafe(reason)})${cutShort}`);
  }
}

/**
 * Whether JSON.parse stopped because the text ended (V8 says "Unexpected end", "Unterminated string", or names the
 * position just past the last non-space character): only then may the body have been cut short.
 */
export function endedEarly(reason: string, text: string): boolean {
  if (/unexpected end|unterminated/i.test(reason)) return true;
  const position = /at position (\d+)/.exec(reason)?.[1];
  return position !== undefined && Number(position) >= text.trimEnd().length;
}

class SpannedList implements JsonList {
  readonly count: number;

  constructor(
    private readonly body: JsonBody,
    private readonly spans: ArraySpans,
    readonly rest: unknown,
  ) {
    this.count = spans.count;
  }

  sizeOf(index: number): number {
    return this.spans.offsets[2 * index + 1]! - this.spans.offsets[2 * index]!;
  }

  parse(index: number): unknown {
    const start = this.spans.offsets[2 * index]!;
    const end = this.spans.offsets[2 * index + 1]!;
    try {
      return JSON.parse(this.body.bytes.toString("utf8", start, end));
    } catch {
      throw this.body.notJson();
    }
  }

  sourceOf(index: number): JsonSource {
    const start = this.spans.offsets[2 * index]!;
    const end = this.spans.offsets[2 * index + 1]!;
    // Line breaks (a server that pretty-prints) are looked for ahead of the element, each byte once.
    this.lineBreaks ??= new LineBreaks(this.body.bytes);
    return this.body.source(start, end, this.lineBreaks.within(start, end));
  }

  private lineBreaks: LineBreaks | undefined;
}

/** Whether element after element holds a line break (LF or CR), each byte of the body looked at once. */
class LineBreaks {
  private readonly lf: NextByte;
  private readonly cr: NextByte;

  constructor(bytes: Buffer) {
    this.lf = new NextByte(bytes, 0x0a);
    this.cr = new NextByte(bytes, 0x0d);
  }

  within(start: number, end: number): boolean {
    return this.lf.from(start) < end || this.cr.from(start) < end;
  }
}

/**
 * Where a byte next occurs, asked for element after element: a search that already went past an
 * index answers for it, so asking in order reads each byte once (a part read from the end searches again).
 */
class NextByte {
  private searchedFrom = Number.POSITIVE_INFINITY;
  private at = -1;

  constructor(
    private readonly bytes: Buffer,
    private readonly byte: number,
  ) {}

  /** The index of the byte's first occurrence at or after `from` (Infinity when none). */
  from(from: number): number {
    if (from < this.searchedFrom && this.at >= this.searchedFrom) {
      // Before the last search: only the bytes up to where it started are new.
      const found = this.bytes.subarray(from, this.searchedFrom).indexOf(this.byte);
      if (found >= 0) this.at = from + found;
      this.searchedFrom = from;
    } else if (from > this.at || from < this.searchedFrom) {
      const found = this.bytes.indexOf(this.byte, from);
      this.searchedFrom = from;
      this.at = found < 0 ? Number.POSITIVE_INFINITY : found;
    }
    return this.at;
  }
}
