// Gzip in front of a destination stream, for every file whose name ends in .gz (-o failures.csv.gz,
// the live modes' files, export's .jsonl.gz partitions). One Writable that a sink writes to as it
// would to the file: it compresses as text arrives (memory stays flat), passes the file's backpressure
// and errors back, and finishes only once the destination has every byte, so a caller that syncs and
// renames the file after `end` (AtomicFile) never moves half of it.
import { Writable } from "node:stream";
import type { Gzip } from "node:zlib";

// node:zlib loads with the first .gz file: a run that writes none does not pay for it
// (docs/bench.md, "The executable's start-up").
const zlib = () => process.getBuiltinModule("node:zlib");

/** gzip's own default level: what `gzip` and `gunzip -l` users expect of a .gz file's size and time. */
const LEVEL = 6;

export class GzipWritable extends Writable {
  private readonly gzip: Gzip;

  constructor(private readonly destination: Writable) {
    super();
    this.gzip = zlib().createGzip({ level: LEVEL, chunkSize: 64 * 1024 });
    this.gzip.on("error", (error) => this.destroy(error));
    destination.on("error", (error) => this.destroy(error));
    // pipe() waits for the destination's drain before taking more from gzip, and ends it when gzip ends.
    this.gzip.pipe(destination);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    // Called back once gzip took the chunk; its own buffer, held by the destination's backpressure through
    // pipe(), decides when it takes the next.
    if (this.gzip.write(chunk)) done();
    else this.gzip.once("drain", () => done());
  }

  /**
   * Once what was written before has reached gzip, a sync flush: everything so far goes out as bytes a
   * reader can decompress (a live file read while it grows, or cut short by a kill).
   */
  syncFlush(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.write(Buffer.alloc(0), (error) =>
        error ? reject(error) : this.gzip.flush(zlib().constants.Z_SYNC_FLUSH, () => resolve()),
      ),
    );
  }

  override _final(done: (error?: Error | null) => void): void {
    // Finished when the destination has written the last byte of the gzip trailer, not when gzip has it.
    const finished = () => {
      this.destination.off("error", failed);
      done();
    };
    const failed = (error: Error) => {
      this.destination.off("finish", finished);
      done(error);
    };
    this.destination.once("finish", finished);
    this.destination.once("error", failed);
    this.gzip.end();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.gzip.destroy();
    // Once finished, the destination is its owner's again (AtomicFile syncs its descriptor, then closes it);
    // destroyed before, as the destination itself would be (a failure, an interrupt).
    if (!this.writableFinished) this.destination.destroy();
    done(error);
  }
}

/** A Writable that gzips what it is given into `destination` (whose end it waits for), flushing nothing early. */
export function gzipInto(destination: Writable): GzipWritable {
  return new GzipWritable(destination);
}
