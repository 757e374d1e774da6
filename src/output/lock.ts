// The one lock file msgstat takes, for the config folder's writers and for a dataset's export. It is
// taken in one step: the holder ({pid, host}) is written to a private temporary file, then hard-linked
// to the lock's name, which fails if anything is there, so a reader never sees a lock without its
// holder. One staleness rule: a lock is stale when its holder's process is gone from this machine, or
// when its holder has not refreshed it for STALE_LOCK_MS (a holder that hung, or died on another machine
// sharing the folder); a holder refreshes it while it holds it, however long that is.
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { temporaryName } from "./atomic-file.js";

/** A lock not refreshed for this long is stale. */
export const STALE_LOCK_MS = 60_000;

/** Who holds a lock, as found in it. */
export interface Holder {
  pid?: number;
  host?: string;
  /** When the lock was last refreshed (its modification time), in ms since the epoch. */
  since: number;
}

export interface LockOptions {
  /** How long to wait for a live holder before `busy`; 0: at once. */
  waitMs: number;
  staleMs?: number;
  /** The file's mode (a dataset's lock may be read by its other users). */
  mode?: number;
  /** The error for a lock held past the wait. */
  busy: (holder: Holder) => Error;
  /** The error for a lock that is a symbolic link (never read, removed or taken over); else it is held. */
  link?: (file: string) => Error;
  /** The error for a lock that cannot be created (the folder is not writable). */
  cannotCreate: (code: string) => Error;
}

/** Creates `file` holding `text` if no file (or link) has that name: true when taken, false when held. */
export async function createLockFile(file: string, text: string, mode = 0o600): Promise<boolean> {
  const temporary = path.join(path.dirname(file), temporaryName(path.basename(file)));
  // "wx": created here, never opened through a link planted under its name.
  await fs.writeFile(temporary, text, { flag: "wx", mode });
  try {
    // link(2) neither follows nor replaces what is at its new name: it fails with EEXIST.
    await fs.link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.rm(temporary, { force: true });
  }
}

/** Takes the lock `file`; the function returned gives it back. */
export async function takeLock(file: string, options: LockOptions): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? STALE_LOCK_MS;
  const deadline = Date.now() + options.waitMs;
  const holder = `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`;
  let pause = 2;
  for (;;) {
    try {
      if (await createLockFile(file, holder, options.mode)) return held(file, staleMs / 4);
    } catch (error) {
      throw options.cannotCreate((error as NodeJS.ErrnoException).code ?? String(error));
    }
    const found = await fs.lstat(file).catch(() => undefined);
    if (found === undefined) continue; // given back meanwhile
    if (found.isSymbolicLink() && options.link) throw options.link(file);
    const holderNow = await heldBy(file, found.mtimeMs);
    if (isStale(holderNow, staleMs)) {
      await removeStaleLock(file, found.ino);
      continue;
    }
    if (Date.now() >= deadline) throw options.busy(holderNow);
    // A short pause that grows, with jitter so writers started together do not wake together.
    await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, 50);
  }
}

/** Runs `change` holding the lock `file`. */
export async function withLock<T>(file: string, options: LockOptions, change: () => Promise<T>): Promise<T> {
  const release = await takeLock(file, options);
  try {
    return await change();
  } finally {
    await release();
  }
}

/** A lock taken: refreshed well within the staleness bound while held, removed when given back. */
function held(file: string, everyMs: number): () => Promise<void> {
  const timer = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now).catch(() => undefined);
  }, everyMs);
  // The refresh never keeps the process alive by itself.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await fs.rm(file, { force: true });
  };
}

async function heldBy(file: string, since: number): Promise<Holder> {
  try {
    const { pid, host } = JSON.parse(await fs.readFile(file, "utf8")) as { pid?: unknown; host?: unknown };
    return {
      pid: typeof pid === "number" ? pid : undefined,
      host: typeof host === "string" ? host : undefined,
      since,
    };
  } catch {
    // Damaged or unreadable (a lock is never seen half written): its age decides.
    return { since };
  }
}

function isStale(held: Holder, staleMs: number): boolean {
  if (Date.now() - held.since > staleMs) return true;
  if (held.pid === undefined || held.host !== hostname()) return false;
  try {
    process.kill(held.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Removes a stale lock, unless another process already replaced it with its own (another inode). */
async function removeStaleLock(file: string, ino: number): Promise<void> {
  const now = await fs.lstat(file).catch(() => undefined);
  if (now?.ino === ino) await fs.rm(file, { force: true });
}
