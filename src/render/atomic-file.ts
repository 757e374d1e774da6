// One way to replace a file whole, for -o (sink.ts) and for the config and credentials files
// (config/atomic-write.ts): written to a temporary file beside the target, flushed to disk, then
// renamed over it. A crash, an interrupt or a full disk leaves the target as it was, never half a file;
// without the flush, a crash soon after the rename could leave an empty file under the target's name.
// The temporary file is created with its final mode, so a 0600 file is never readable by others, not
// even for the moment between creating it and a chmod.
import { close, createWriteStream, fsync, open, promises as fs, type WriteStream } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const openFile = promisify(open);
const closeFile = promisify(close);

/** The steps that make a replacement durable and visible; a test passes its own to see their order. */
export interface ReplaceSteps {
  sync(descriptor: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

const ON_DISK: ReplaceSteps = {
  sync: promisify(fsync),
  rename: (from, to) => fs.rename(from, to),
};

// NAME_MAX of Linux, macOS and Windows file systems, in bytes.
const NAME_MAX = 255;
let created = 0;

/**
 * `.<target name>.msgstat-<pid>-<time>-<n>.tmp`, the target's name cut (at a character) so the whole
 * fits in NAME_MAX bytes. Hidden, and named after its target and msgstat, for whoever finds one left
 * by a crash.
 */
export function temporaryName(base: string): string {
  const suffix = `.msgstat-${process.pid}-${Date.now().toString(36)}-${(created++).toString(36)}.tmp`;
  let room = NAME_MAX - 1 - Buffer.byteLength(suffix);
  let kept = "";
  for (const character of base) {
    room -= Buffer.byteLength(character);
    if (room < 0) break;
    kept += character;
  }
  return `.${kept}${suffix}`;
}

// Linux's SYMLOOP_MAX: a longer chain is a loop.
const MAX_LINKS = 40;
// /dev/stdout links to /proc/self/fd/1, whose "target" names an open file description, not a path.
const DESCRIPTOR = /^\/(?:proc\/(self|\d+)|dev)\/fd\/(\d+)$/;

/**
 * Where a chain of symbolic links ends (which need not exist yet: writing there creates it), or the open
 * descriptor it names (`descriptor`: its number when it is this process's, else -1); undefined for a loop. -o and
 * the config folder's files write through a link to its target, so a link a person made (dotfiles) stays a link.
 */
export async function followLinks(file: string): Promise<{ target: string; descriptor?: number } | undefined> {
  let current = path.resolve(file);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const named = DESCRIPTOR.exec(current);
    if (named)
      return {
        target: current,
        descriptor:
          named[1] === undefined || named[1] === "self" || Number(named[1]) === process.pid ? Number(named[2]) : -1,
      };
    const link = await fs.readlink(current).catch(() => undefined);
    if (link === undefined) return { target: current };
    // Relative to the link's real folder, as the kernel resolves it (a "../" in it climbs from there).
    const folder = await fs.realpath(path.dirname(current)).catch(() => path.dirname(current));
    current = path.resolve(folder, link);
  }
  return undefined;
}

/** A replacement under way: the temporary file is open; `commit` puts it in the target's place. */
export class AtomicFile {
  /** Onto the temporary file, for content written as it comes; end it before `commit`. */
  readonly stream: WriteStream;
  /** `commit` closed the descriptor itself (else the stream closes it when destroyed). */
  private closedByCommit = false;

  private constructor(
    readonly target: string,
    readonly temporary: string,
    private readonly descriptor: number,
    private readonly steps: ReplaceSteps,
  ) {
    // Not closed when the stream ends: `commit` syncs the descriptor first (Node's `flush` option would
    // sync too, but out of a test's sight).
    this.stream = createWriteStream(temporary, { fd: descriptor, autoClose: false });
  }

  /** Opens a new temporary file beside `target` with `mode` (the umask can only narrow it). */
  static async open(target: string, mode: number, steps: ReplaceSteps = ON_DISK): Promise<AtomicFile> {
    const temporary = path.join(path.dirname(target), temporaryName(path.basename(target)));
    // "wx": a new file that nothing else has open.
    const descriptor = await openFile(temporary, "wx", mode);
    return new AtomicFile(target, temporary, descriptor, steps);
  }

  /** Once the stream has ended: flushed to disk, closed, and renamed over the target. */
  async commit(): Promise<void> {
    await this.steps.sync(this.descriptor);
    this.closedByCommit = true;
    await closeFile(this.descriptor);
    await this.steps.rename(this.temporary, this.target);
  }

  /** Leaves the target as it was: the temporary file closed and removed. */
  async abandon(): Promise<void> {
    const stream = this.stream;
    if (!this.closedByCommit && !stream.closed)
      await new Promise<void>((resolve) => stream.once("close", () => resolve()).destroy());
    await fs.rm(this.temporary, { force: true });
  }
}

/** Replaces `target` with `text`, written, flushed and renamed; on failure nothing is left behind. */
export async function replaceFile(
  target: string,
  text: string,
  mode: number,
  steps: ReplaceSteps = ON_DISK,
): Promise<void> {
  const file = await AtomicFile.open(target, mode, steps);
  try {
    await new Promise<void>((resolve, reject) => {
      file.stream.once("error", reject);
      file.stream.end(text, "utf8", resolve);
    });
    await file.commit();
  } catch (error) {
    await file.abandon();
    throw error;
  }
}
