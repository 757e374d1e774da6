// Content codings (RFC 9110 §8.4): for a page msgstat asks for gzip, deflate and br, as curl
// --compressed and browsers do (client.ts says why one message is asked for uncompressed), and undoes
// whichever comes as the body streams in, so that the body cap counts decoded bytes as they are
// produced and a small body that inflates past it (a "decompression bomb") stops there.
// Hand-written on node:zlib rather than undici's decompress interceptor, which prints an
// ExperimentalWarning on stderr the first time it runs, passes a coding it does not know through as
// if it were the body, and drops Content-Length, so --verbose could not say what crossed the wire.
import { pipeline, type Readable } from "node:stream";
import type { ZlibOptions } from "node:zlib";

// node:zlib loads when a body is first found encoded: one message is asked for uncompressed
// (client.ts), and loading it was a share of that run's start
// (docs/bench.md, "The executable's start-up").
const zlib = () => process.getBuiltinModule("node:zlib");

/** What msgstat asks for: every coding Node decodes without an add-on. */
export const ACCEPTED_CODINGS = "gzip, deflate, br";

const DECODERS = {
  gzip: (options: ZlibOptions) => zlib().createGunzip(options),
  "x-gzip": (options: ZlibOptions) => zlib().createGunzip(options),
  deflate: (options: ZlibOptions) => zlib().createInflate(options),
  br: (options: ZlibOptions) => zlib().createBrotliDecompress(options),
} as const;

export type Coding = keyof typeof DECODERS;

// Codings stacked on one body: a server has no reason to apply more than two, and each layer is one
// more stream a hostile one could make msgstat run (curl and urllib3 cap them for the same reason).
const MAX_CODINGS = 2;

// zlib hands its output over in pieces of this size: fewer, larger pieces for a 1-3 MB page.
const DECODED_CHUNK = 64 * 1024;
// How much a decoder holds on each side before it asks the body to wait: msgstat's numbers, not Node's
// defaults (16 KiB on Node 20, 64 KiB from 22), so that how much of a "decompression bomb" is taken in
// and decoded before the cap stops it is the same on every Node line.
const BUFFERED = { writableHighWaterMark: 16 * 1024, readableHighWaterMark: DECODED_CHUNK };

export type CodingsOfBody = { readonly codings: readonly Coding[] } | { readonly refused: string };

/** The codings a Content-Encoding header says were applied, in the order applied; `identity` is none. */
export function codingsOf(header: string | string[] | undefined): CodingsOfBody {
  const named = [header ?? []]
    .flat()
    .join(",")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "" && name !== "identity");
  const unknown = named.find((name) => !Object.hasOwn(DECODERS, name));
  if (unknown !== undefined)
    return {
      refused:
        `is encoded as "${unknown}", which msgstat did not ask for and cannot decode (it decodes ` +
        `${ACCEPTED_CODINGS})`,
    };
  if (named.length > MAX_CODINGS)
    return {
      refused: `is encoded ${named.length} times over (${named.join(", ")}); msgstat undoes at most ${MAX_CODINGS}`,
    };
  return { codings: named as Coding[] };
}

/** A body being decoded: the decoded bytes as a stream, and what crossed the wire so far. */
export interface DecodingBody {
  readonly decoded: Readable;
  /** Encoded bytes received so far. */
  wireBytes(): number;
  /** Why the encoded bytes could not be decoded, once a decoder has said so. */
  failure(): string | undefined;
  /** More than the cap of encoded bytes crossed: the body was stopped. */
  tooLarge(): boolean;
}

/**
 * Pipes `body` through a decoder for each coding, last applied first. The stream of encoded bytes is
 * stopped once more than `wireCap` bytes have crossed: an endless stream that decodes to little
 * would otherwise run until the timeout.
 */
export function decoding(body: Readable, codings: readonly Coding[], wireCap: number): DecodingBody {
  let wireBytes = 0;
  let bodyError: unknown;
  let failure: string | undefined;
  let tooLarge = false;
  body.on("data", (chunk: Buffer) => {
    wireBytes += chunk.length;
    if (wireBytes > wireCap && !tooLarge) {
      tooLarge = true;
      body.destroy();
    }
  });
  // Registered before the pipeline's own listeners: the body's error is known here before the
  // pipeline passes it on to the decoders, so it is not taken for a decoder's complaint.
  body.once("error", (error) => (bodyError = error));
  const decoders = codings.toReversed().map((coding) => {
    const decoder = DECODERS[coding]({ chunkSize: DECODED_CHUNK, ...BUFFERED });
    decoder.once("error", (error) => {
      // zlib's own complaints carry an errno; a stream closed early (the cap, the body) does not.
      if (error !== bodyError && typeof (error as { errno?: unknown }).errno === "number")
        failure ??=
          `is not valid ${coding} ` +
          `(${error.message})${/unexpected end/i.test(error.message) ? "; it may have been cut short" : ""}`;
    });
    return decoder;
  });
  // Errors reach the reader through the last decoder; this callback only keeps them from being unhandled.
  pipeline([body, ...decoders], () => undefined);
  return { decoded: decoders.at(-1)!, wireBytes: () => wireBytes, failure: () => failure, tooLarge: () => tooLarge };
}
