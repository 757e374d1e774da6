// The one way msgstat replaces a file whole (-o, export's partitions and manifest, the config and
// credentials files): written to a temporary file, flushed to disk, then renamed over the target. A
// crash, an interrupt or a full disk leaves the target as it was, never half a file; without the flush,
// a crash soon after the rename could leave an empty file under the target's name.
// The temporary file is created with its final mode, so a 0600 file is never readable by others, not
// even for the moment between creating it and a chmod.
import { close, createWriteStream, fsync, open, promises as fs, type WriteStream } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const openFile = promisify(open);
const closeFile = promisify(close);
const sync = promisify(fsync);

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

/**
 * A replacement under way: the temporary file is open. `seal` makes it durable (flushed, closed) without
 * moving it, so a caller with many files (export) prepares them all, then commits each; `commit` seals
 * if need be and renames it over its target.
 */
export class AtomicFile {
  /** Onto the temporary file, for content written as it comes; end it before `seal` or `commit`. */
  readonly stream: WriteStream;
  /** `seal` closed the descriptor itself (else the stream closes it when destroyed). */
  private sealed = false;

  private constructor(
    readonly target: string,
    readonly temporary: string,
    private readonly descriptor: number,
  ) {
    // Not closed when the stream ends: `seal` syncs the descriptor first.
    this.stream = createWriteStream(temporary, { fd: descriptor, autoClose: false });
  }

  /**
   * Opens a new temporary file with `mode` (the umask can only narrow it), beside `target` or in
   * `folder` (export's staging folder, on the same file system, so the rename stays atomic).
   */
  static async open(target: string, mode: number, folder = path.dirname(target)): Promise<AtomicFile> {
    const temporary = path.join(folder, temporaryName(path.basename(target)));
    // "wx": a new file that nothing else has open.
    const descriptor = await openFile(temporary, "wx", mode);
    return new AtomicFile(target, temporary, descriptor);
  }

  /** Once the stream has ended: flushed to disk and closed, still under its temporary name. */
  async seal(): Promise<void> {
    if (this.sealed) return;
    await sync(this.descriptor);
    this.sealed = true;
    await closeFile(this.descriptor);
  }

  /** Sealed, then renamed over the target; on failure the temporary file is removed. */
  async commit(): Promise<void> {
    try {
      await this.seal();
      await fs.rename(this.temporary, this.target);
    } catch (error) {
      await this.abandon();
      throw error;
    }
  }

  /** Leaves the target as it was: the temporary file closed and removed. */
  async abandon(): Promise<void> {
    const stream = this.stream;
    if (!this.sealed && !stream.closed)
      await new Promise<void>((resolve) => stream.once("close", () => resolve()).destroy());
    await fs.rm(this.temporary, { force: true });
  }
}

/** Replaces `target` with `text`, written, flushed and renamed; on failure nothing is left behind. */
export async function replaceFile(target: string, text: string, mode: number): Promise<void> {
  const file = await AtomicFile.open(target, mode);
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

/**
 * Replaces `file` with `text` through a symbolic link (a dotfiles manager's): the link's target is
 * replaced and the link stays, as -o does. `describe` words a failure's error from its code.
 */
export async function replaceThroughLinks(
  file: string,
  text: string,
  mode: number,
  describe: (target: string, code: string) => Error,
): Promise<void> {
  const followed = await followLinks(file);
  if (followed === undefined) throw describe(file, "too many levels of symbolic links");
  try {
    await replaceFile(followed.target, text, mode);
  } catch (error) {
    throw describe(followed.target, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}
