// The one way to open a target: stdout, or a file replaced atomically (-o), written in place (the live
// modes), or prepared now and committed later (export); a FIFO or a device is streamed to; a name
// ending in .gz is gzipped. Text is gathered into large writes (a write per record would cost more than
// rendering it), and backpressure is honoured so memory stays flat however fast pages arrive.
import { createWriteStream, promises as fs, type Stats, type WriteStream } from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { InterruptedError, OutputClosedError, OutputError, UsageError } from "../core/errors.js";
import { AtomicFile, followLinks } from "./atomic-file.js";
import { gzipInto, type GzipWritable } from "./gzip-stream.js";

export interface Sink {
  /**
   * Buffers the text; returns a promise only when it wrote the buffer out, so a renderer awaits once
   * per 64 KB rather than once per record. Small pieces matter: a whole page as one string outlives
   * V8's young generation and piles up in the old one (peak RSS of the 1M export, bench/run.mjs).
   */
  write(text: string): void | Promise<void>;
  /** The same for bytes [start, end) of a buffer (JSON as the server sent it), copied: the buffer may be reused. */
  writeBytes(bytes: Buffer, start: number, end: number): void | Promise<void>;
  /** Writes out what is buffered now (a terminal's reader should see a page as it arrives). */
  flush(): Promise<void>;
  /** Everything was written: flush, and for a file, move it into place. */
  finish(): Promise<void>;
  /** Something failed: for a file, remove the temporary one and leave the target as it was. */
  discard(): Promise<void>;
  /**
   * What a failure or a discard leaves, for a person: "x.csv was left as it was", "x.csv was not written"
   * (there was no x.csv), or for a stream "the output is incomplete".
   */
  readonly fate: string;
  /** A failure leaves the target as it was, or not made at all (a file replaced only at the end): `fate` names it. */
  readonly untouchedByFailure: boolean;
}

const FLUSH_AT = 64 * 1024;
const NEWLINE = 0x0a;
/** Strings this short are copied a character at a time when they are ASCII: a call into the encoder costs more. */
const SHORT_TEXT = 16;

/** The words of a system error ("no space left on device"), from Node's "ENOSPC: no space left on device, write". */
function describeWriteError(error: NodeJS.ErrnoException): string {
  const words = /^[A-Z0-9_]+: ([^,]+)/.exec(error.message)?.[1];
  return error.code && words ? `${words} (${error.code})` : error.message;
}

/**
 * Text is gathered into one string and encoded when it is written out; once bytes are written (JSON
 * as the server sent it), everything is encoded or copied into a buffer as it comes instead, so bytes
 * are never decoded to join text. Either way the stream gets about 64 KB at a time.
 */
class BufferedSink implements Sink {
  private text = "";
  /** Set by the first writeBytes: from then on, text is encoded into `chunk` too. */
  private chunk: Buffer | undefined;
  private used = 0;
  /** What did not fit into the chunk: written out with it by the flush, which is then due at once. */
  private overflow: Buffer[] = [];
  private closed: Error | undefined;
  /**
   * What was written last ended a line. A flush for size waits for a line's end, so the stream is only
   * ever handed whole lines (whole records of JSONL, CSV, a table): an interrupt, which stops the
   * renderer between a record and its newline, then leaves no cut record behind.
   */
  private atLineEnd = true;
  readonly untouchedByFailure: boolean = false;

  /** `name`: what the user calls the destination, for an error line; `fate`: what became of it then. */
  constructor(
    protected readonly stream: Writable,
    protected readonly signal: AbortSignal,
    private readonly name: string,
    readonly fate: string,
  ) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      this.closed ??=
        error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED"
          ? new OutputClosedError("output closed")
          : this.failure(error);
    });
  }

  protected failure(error: NodeJS.ErrnoException): OutputError {
    return new OutputError(`cannot write to ${this.name}: ${describeWriteError(error)}; ${this.fate}`);
  }

  write(text: string): void | Promise<void> {
    if (this.closed) throw this.closed;
    if (text.length > 0) this.atLineEnd = text.charCodeAt(text.length - 1) === NEWLINE;
    if (this.chunk === undefined) {
      this.text += text;
      return this.text.length >= FLUSH_AT && this.atLineEnd ? this.flush() : undefined;
    }
    this.encode(this.chunk, text);
    return this.due();
  }

  writeBytes(bytes: Buffer, start: number, end: number): void | Promise<void> {
    if (this.closed) throw this.closed;
    if (end > start) this.atLineEnd = bytes[end - 1] === NEWLINE;
    if (this.chunk === undefined) {
      this.chunk = Buffer.allocUnsafe(FLUSH_AT);
      const text = this.text;
      this.text = "";
      this.encode(this.chunk, text);
    }
    // Once something waits in `overflow`, what follows goes after it, in order.
    if (this.overflow.length === 0 && end - start <= this.chunk.length - this.used)
      this.used += bytes.copy(this.chunk, this.used, start, end);
    else this.overflow.push(Buffer.from(bytes.subarray(start, end)));
    return this.due();
  }

  private encode(chunk: Buffer, text: string): void {
    if (this.overflow.length > 0) {
      this.overflow.push(Buffer.from(text, "utf8"));
      return;
    }
    const room = chunk.length - this.used;
    if (text.length <= SHORT_TEXT && text.length <= room && this.copyAscii(chunk, text)) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; past that, the exact size decides.
    if (text.length * 3 <= room || Buffer.byteLength(text) <= room) this.used += chunk.write(text, this.used);
    else this.overflow.push(Buffer.from(text, "utf8"));
  }

  private copyAscii(chunk: Buffer, text: string): boolean {
    let at = this.used;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) return false;
      chunk[at++] = code;
    }
    this.used = at;
    return true;
  }

  private due(): Promise<void> | undefined {
    return this.atLineEnd && (this.used >= FLUSH_AT || this.overflow.length > 0) ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.closed) throw this.closed;
    let out: string | Buffer;
    if (this.chunk === undefined) {
      out = this.text;
      this.text = "";
    } else {
      const written = this.chunk.subarray(0, this.used);
      out = this.overflow.length === 0 ? written : Buffer.concat([written, ...this.overflow]);
      // The stream holds what it was given until it is written: a new chunk, never the old one refilled.
      if (this.used > 0) this.chunk = Buffer.allocUnsafe(FLUSH_AT);
      this.used = 0;
      this.overflow = [];
    }
    if (out.length === 0) return;
    if (!this.stream.write(out)) await this.drained();
    // The stream may have closed during the wait, which TypeScript's narrowing above does not know.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (this.closed) throw this.closed;
  }

  /**
   * Waits until the reader took the data, the stream failed, or the run was interrupted (a reader that never reads must
   * not hold a signal off).
   */
  private drained(): Promise<void> {
    this.signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const done = () => {
        this.stream.off("drain", done);
        this.stream.off("error", done);
        this.stream.off("close", done);
        this.signal.removeEventListener("abort", aborted);
        resolve();
      };
      const aborted = () => {
        done();
        reject(this.signal.reason);
      };
      this.stream.on("drain", done);
      this.stream.on("error", done);
      this.stream.on("close", done);
      this.signal.addEventListener("abort", aborted);
    });
  }

  async finish(): Promise<void> {
    await this.flush();
  }

  async discard(): Promise<void> {
    // Whole records only: what is buffered is complete records, so it is written; a partial one never is.
    if (!this.signal.aborted) await this.flush().catch(() => undefined);
  }

  /** Ends the stream and waits until its last byte is written (or it failed). */
  protected async end(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once("error", reject);
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    }).catch((error: NodeJS.ErrnoException) => {
      throw this.closed ?? this.failure(error);
    });
    if (this.closed) throw this.closed;
  }
}

/**
 * Streams into the temporary file of an AtomicFile as rows come, and puts it in the target's place at
 * the end (flushed to disk, then renamed), so the target is never half-written; a prepared file is only
 * sealed at the end, and its owner commits it later.
 */
class AtomicFileSink extends BufferedSink {
  constructor(
    readonly file: AtomicFile,
    signal: AbortSignal,
    name: string,
    { gzip, existed, prepared }: { gzip: boolean; existed: boolean; prepared: boolean },
  ) {
    super(gzip ? gzipInto(file.stream) : file.stream, signal, name, untouched(name, existed));
    this.prepared = prepared;
  }

  private readonly prepared: boolean;
  override readonly untouchedByFailure = true;

  override async finish(): Promise<void> {
    try {
      await this.end();
      await (this.prepared ? this.file.seal() : this.file.commit()).catch((error: NodeJS.ErrnoException) => {
        throw this.failure(error);
      });
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  override async discard(): Promise<void> {
    await this.file.abandon();
    // The interrupt's own line (cli.ts) then says what became of the file, as a failure's line does.
    const reason: unknown = this.signal.reason;
    if (
      this.signal.aborted &&
      !this.prepared &&
      reason instanceof InterruptedError &&
      !reason.hints.includes(this.fate)
    )
      reason.withHint(this.fate);
  }
}

/** What a discard leaves of -o's file: the file as it was, or none at all. */
function untouched(name: string, existed: boolean): string {
  return existed ? `${name} was left as it was` : `${name} was not written`;
}

/** A FIFO or a device: written straight through, since it cannot be replaced (and must never be). */
class StraightThroughSink extends BufferedSink {
  override async finish(): Promise<void> {
    await this.end();
  }

  override async discard(): Promise<void> {
    await super.discard();
    this.stream.destroy();
  }
}

/**
 * The live modes' file (--follow, --watch): written in place as records come, every flush reaching the
 * file (through gzip's sync flush for a .gz name), and ended properly however the run ends, so what was
 * received survives Ctrl-C as whole records and, gzipped, as a whole gzip file.
 */
class LiveFileSink extends BufferedSink {
  constructor(
    stream: Writable,
    private readonly gzip: GzipWritable | undefined,
    signal: AbortSignal,
    name: string,
  ) {
    super(gzip ?? stream, signal, name, "the output is incomplete");
  }

  override async flush(): Promise<void> {
    await super.flush();
    await this.gzip?.syncFlush();
  }

  override async finish(): Promise<void> {
    await this.end();
  }

  override async discard(): Promise<void> {
    await super.discard();
    await this.end().catch(() => undefined);
  }
}

type Streams = { stdout: Writable; stderr: Writable; signal: AbortSignal };

/**
 * How a file is written. By default it is replaced atomically when the sink finishes; `live`: written in
 * place as it comes (the live modes, which have no end to wait for); `prepared`: sealed under its
 * temporary name when the sink finishes, for its owner to commit (`PreparedSink`). `gzip`: compressed as
 * it is written (the name ends in .gz).
 */
export interface OutputOptions {
  gzip?: boolean;
  live?: boolean;
}

/** A sink on a stream already open: stdout, or a file the caller opened (`name` says which in an error line). */
export function streamSink(stream: Writable, signal: AbortSignal, name = "stdout"): Sink {
  return new BufferedSink(stream, signal, name, "the output is incomplete");
}

/** Where a command writes: stdout, or the file named by -o (`output`). */
export async function openOutput(output: string | undefined, io: Streams, options: OutputOptions = {}): Promise<Sink> {
  if (output === undefined) return streamSink(io.stdout, io.signal);
  return fileSink(output, io, options);
}

/** A sink whose `finish` seals its file without moving it; `file.commit()` then puts it in place. */
export interface PreparedSink extends Sink {
  readonly file: AtomicFile;
}

/**
 * A file prepared in `folder` (a staging folder on the target's file system) to replace `target` later:
 * export encodes every partition first, then commits each.
 */
export async function prepareFile(
  target: string,
  folder: string,
  signal: AbortSignal,
  { gzip = false }: { gzip?: boolean } = {},
): Promise<PreparedSink> {
  signal.throwIfAborted();
  const file = await AtomicFile.open(target, 0o666, folder);
  return new AtomicFileSink(file, signal, target, { gzip, existed: true, prepared: true });
}

/**
 * -o never destroys what it does not own: a symbolic link is followed and the file it points to is
 * replaced atomically, in that file's folder, the link kept; a FIFO, a character device (/dev/null,
 * /dev/full) or an open descriptor (/dev/stdout, /dev/fd/3) is written straight through, without a
 * temporary file, so not atomically; a folder, a socket or a block device is a usage error.
 */
async function fileSink(output: string, io: Streams, { gzip = false, live = false }: OutputOptions): Promise<Sink> {
  const followed = await followLinks(output);
  if (followed === undefined) throw new UsageError(`-o ${output}: too many levels of symbolic links`);
  const { target, descriptor } = followed;
  // This process's own stdout or stderr: the stream already open on it (a socket cannot be opened by path).
  const own = descriptor === 1 ? io.stdout : descriptor === 2 ? io.stderr : undefined;
  // Its stream stays open after msgstat's output (stdout carries nothing else, but stderr does): no gzip there.
  if (own && gzip)
    throw new UsageError(
      `-o ${output} is this process's own ${descriptor === 1 ? "stdout" : "stderr"}; pipe it into gzip instead`,
    );
  if (own) return streamSink(own, io.signal, output);
  const existing = await fs.stat(target).catch(() => undefined);
  const device = descriptor !== undefined || existing?.isFIFO() || existing?.isCharacterDevice();
  if (!device && existing && !existing.isFile())
    throw new UsageError(
      existing.isDirectory()
        ? `-o ${output} is a folder; name a file`
        : `-o ${output} is neither a file, a FIFO nor a character device; name a file`,
    );
  if (!device) {
    const directory = path.dirname(target);
    const folder = await fs.stat(directory).catch(() => undefined);
    if (!folder?.isDirectory()) throw new UsageError(`-o ${output}: the folder ${directory} does not exist`);
  }
  if (live) return liveFile(output, target, device ? "a" : "w", io.signal, gzip);
  if (device) return straightThrough(output, target, io.signal, gzip);
  return atomic(output, target, existing, io.signal, gzip);
}

async function straightThrough(output: string, target: string, signal: AbortSignal, gzip: boolean): Promise<Sink> {
  // O_NONBLOCK is not used: opening a FIFO waits for its reader, as a shell redirection does.
  const stream = await opened(createWriteStream(target, { flags: "a" }), output, signal);
  return new StraightThroughSink(gzip ? gzipInto(stream) : stream, signal, output, "the output is incomplete");
}

async function liveFile(
  output: string,
  target: string,
  flags: "a" | "w",
  signal: AbortSignal,
  gzip: boolean,
): Promise<Sink> {
  // "w": a plain file is started afresh; "a": a FIFO or a device is never truncated.
  const stream = await opened(createWriteStream(target, { flags }), output, signal);
  return new LiveFileSink(stream, gzip ? gzipInto(stream) : undefined, signal, output);
}

async function atomic(
  output: string,
  target: string,
  existing: Stats | undefined,
  signal: AbortSignal,
  gzip: boolean,
): Promise<Sink> {
  signal.throwIfAborted();
  // The replacement keeps the target's permissions (an export may be private); a new file gets the umask's.
  const file = await AtomicFile.open(target, existing ? existing.mode & 0o777 : 0o666).catch(
    (error: NodeJS.ErrnoException) => {
      throw cannotWrite(output, error);
    },
  );
  return new AtomicFileSink(file, signal, output, { gzip, existed: existing !== undefined, prepared: false });
}
function cannotWrite(output: string, error: NodeJS.ErrnoException): UsageError {
  return new UsageError(`-o ${output}: cannot write there: ${describeWriteError(error)}`);
}

/** The stream once its file is open. Opening a FIFO waits for a reader, so an interrupt ends the wait too. */
function opened(stream: WriteStream, output: string, signal: AbortSignal): Promise<WriteStream> {
  return new Promise<WriteStream>((resolve, reject) => {
    const aborted = () => {
      stream.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
    stream.once("open", () => {
      signal.removeEventListener("abort", aborted);
      resolve(stream);
    });
    stream.once("error", (error: NodeJS.ErrnoException) => {
      signal.removeEventListener("abort", aborted);
      reject(cannotWrite(output, error));
    });
  });
}
