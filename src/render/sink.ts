// Where rendered text goes: stdout, or a file written atomically. Text is gathered into large
// writes (a write per record would cost more than rendering it), and backpressure is honoured so
// memory stays flat however fast pages arrive.
import { createWriteStream, promises as fs, type WriteStream } from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { OutputClosedError, UsageError } from "../core/errors.js";

export interface Sink {
  /**
   * Buffers the text; returns a promise only when it wrote the buffer out, so a renderer awaits once
   * per 64 KB rather than once per record. Small pieces matter: a whole page as one string outlives
   * V8's young generation and piles up in the old one (peak RSS of the 1M export, bench/run.mjs).
   */
  write(text: string): void | Promise<void>;
  /** Writes out what is buffered now (a terminal's reader should see a page as it arrives). */
  flush(): Promise<void>;
  /** Everything was written: flush, and for a file, move it into place. */
  finish(): Promise<void>;
  /** Something failed: for a file, remove the temporary one and leave the target as it was. */
  discard(): Promise<void>;
}

const FLUSH_AT = 64 * 1024;

class BufferedSink implements Sink {
  private buffer = "";
  private closed: Error | undefined;

  constructor(protected readonly stream: Writable) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      this.closed = error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED" ? new OutputClosedError("output closed") : error;
    });
  }

  write(text: string): void | Promise<void> {
    if (this.closed) throw this.closed;
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) return this.flush();
  }

  async flush(): Promise<void> {
    if (this.closed) throw this.closed;
    if (this.buffer === "") return;
    const chunk = this.buffer;
    this.buffer = "";
    if (!this.stream.write(chunk)) await this.drained();
    if (this.closed) throw this.closed;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off("drain", done);
        this.stream.off("error", done);
        this.stream.off("close", done);
        resolve();
      };
      this.stream.on("drain", done);
      this.stream.on("error", done);
      this.stream.on("close", done);
    });
  }

  async finish(): Promise<void> {
    await this.flush();
  }

  async discard(): Promise<void> {
    // Whole records only: what is buffered is complete records, so it is written; a partial one never is.
    await this.flush().catch(() => undefined);
  }
}

export function streamSink(stream: Writable): Sink {
  return new BufferedSink(stream);
}

/** Writes to a temporary file beside the target and renames it at the end, so the target is never half-written. */
class AtomicFileSink extends BufferedSink {
  constructor(
    private readonly target: string,
    private readonly temporary: string,
    stream: WriteStream,
  ) {
    super(stream);
  }

  override async finish(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      (this.stream as WriteStream).once("error", reject);
      this.stream.end(resolve);
    });
    await fs.rename(this.temporary, this.target);
  }

  override async discard(): Promise<void> {
    this.stream.destroy();
    await fs.rm(this.temporary, { force: true });
  }
}

export async function atomicFileSink(target: string): Promise<Sink> {
  const directory = path.dirname(path.resolve(target));
  const stat = await fs.stat(directory).catch(() => undefined);
  if (!stat?.isDirectory()) throw new UsageError(`-o ${target}: the folder ${directory} does not exist`);
  const existing = await fs.stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`-o ${target} is a folder; name a file`);
  const temporary = path.join(directory, `.${path.basename(target)}.msgstat-${process.pid}-${Date.now().toString(36)}.tmp`);
  // The replacement keeps the target's permissions (an export may be private); a new file gets the umask's.
  const stream = createWriteStream(temporary, { flags: "wx", mode: existing ? existing.mode & 0o777 : 0o666 });
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (error) => reject(new UsageError(`-o ${target}: cannot write there (${(error as NodeJS.ErrnoException).code ?? error.message})`)));
  });
  return new AtomicFileSink(target, temporary, stream);
}
