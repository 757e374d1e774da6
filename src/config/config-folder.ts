// The config folder: made private to its owner when msgstat creates it, and its files (config,
// credentials) replaced whole by the one atomic writer. Writers (auth login and logout, config set and
// unset, sandbox --save-profile) take turns under the folder's lock, so two started together both keep
// their change; a writer waits a bounded time, then says who holds the lock.
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { replaceThroughLinks } from "../output/atomic-file.js";
import { STALE_LOCK_MS, withLock } from "../output/lock.js";
import { untrusted } from "./file-safety.js";

export const LOCK_NAME = "config.lock";
/** How long a writer waits for another to finish; a write holds the lock for milliseconds. */
export const LOCK_WAIT_MS = 10_000;
export { STALE_LOCK_MS };

export interface LockOptions {
  waitMs?: number;
  staleMs?: number;
}

/** The config folder, made private to its owner when msgstat creates it. */
export async function ensureFolder(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UsageError(
      `cannot create the config folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/**
 * Replaces `file` with `text`, its folder created if need be. A symbolic link (a dotfiles manager's) is
 * written through: its target is replaced and the link stays, as -o does.
 */
export async function writeFileAtomic(file: string, text: string, mode: number): Promise<void> {
  await ensureFolder(path.dirname(file));
  await replaceThroughLinks(file, text, mode, (target, reason) => new UsageError(`cannot write ${target} (${reason})`));
}

/** Runs `change` holding the config folder's lock. */
export async function withConfigLock<T>(dir: string, change: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const file = path.join(dir, LOCK_NAME);
  await ensureFolder(dir);
  // Nothing is written into a folder another user could change (or swap the files of).
  const problem = untrusted("the config folder", dir, await fs.stat(dir));
  if (problem !== undefined) throw new UsageError(problem.reason).withHint(problem.hint);
  const lock = {
    waitMs: options.waitMs ?? LOCK_WAIT_MS,
    staleMs: options.staleMs,
    cannotCreate: (code: string) => new UsageError(`cannot create the lock file ${file} (${code})`),
    busy: (held: { pid?: number; since: number }) =>
      new UsageError(
        `another msgstat is changing the config folder: ${file} has been held for ` +
          `${Math.round((Date.now() - held.since) / 1000)} s${held.pid !== undefined ? ` by process ${held.pid}` : ""}`,
      ).withHint(`Try again; if no msgstat is running, remove ${file}.`),
  };
  return withLock(file, lock, change);
}
