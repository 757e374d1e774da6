// Writers of the config folder (auth login, auth logout, config set and unset, sandbox --save-profile)
// take turns: each holds the folder's lock file while it reads a file afresh, changes it and renames
// the new one over it, so two writers started together both keep their change (without it the last
// rename won and the other profiles were lost). The lock is a file created exclusively, naming its
// holder; a lock whose holder died (its pid is gone from this machine) or that is older than any
// write takes is stale and taken over. A writer waits a bounded time, then says who holds the lock.
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { ensureFolder } from "./atomic-write.js";
import { untrusted } from "./file-safety.js";
import { createLockFile, removeStaleLock } from "./lock-file.js";

export const LOCK_NAME = "config.lock";
/** How long a writer waits for another to finish; a write holds the lock for milliseconds. */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is left by a writer that hung or crashed elsewhere (another machine sharing the folder). */
export const STALE_LOCK_MS = 60_000;

interface Holder {
  pid?: number;
  host?: string;
}

export interface LockOptions {
  waitMs?: number;
  staleMs?: number;
}

/** Runs `change` holding the config folder's lock. */
export async function withConfigLock<T>(dir: string, change: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const file = path.join(dir, LOCK_NAME);
  await ensureFolder(dir);
  // Nothing is written into a folder another user could change (or swap the files of).
  const problem = untrusted("the config folder", dir, await fs.stat(dir));
  if (problem !== undefined) throw new UsageError(problem.reason).withHint(problem.hint);
  await acquire(file, options.waitMs ?? LOCK_WAIT_MS, options.staleMs ?? STALE_LOCK_MS);
  try {
    return await change();
  } finally {
    await fs.rm(file, { force: true });
  }
}

async function acquire(file: string, waitMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = 2;
  for (;;) {
    try {
      if (await createLockFile(file, `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`)) return;
    } catch (error) {
      throw new UsageError(
        `cannot create the lock file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    const held = await heldBy(file);
    if (held === undefined) continue; // released between the two calls
    if (isStale(held, staleMs)) {
      await removeStaleLock(file, held.ino);
      continue;
    }
    if (Date.now() >= deadline) {
      const seconds = Math.round((Date.now() - held.since) / 1000);
      throw new UsageError(
        `another msgstat is changing the config folder: ${file} has been held for ${seconds} s` +
          `${held.pid !== undefined ? ` by process ${held.pid}` : ""}`,
      ).withHint(`Try again; if no msgstat is running, remove ${file}.`);
    }
    // A short pause that grows, with jitter so writers started together do not wake together.
    await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, 50);
  }
}

async function heldBy(file: string): Promise<(Holder & { since: number; ino: number }) | undefined> {
  const stats = await fs.stat(file).catch(() => undefined);
  if (stats === undefined) return undefined;
  let holder: Holder = {};
  try {
    holder = JSON.parse(await fs.readFile(file, "utf8")) as Holder;
  } catch {
    // Damaged (a lock is never seen half written): its age decides.
  }
  return { pid: holder.pid, host: holder.host, since: stats.mtimeMs, ino: stats.ino };
}

function isStale(held: Holder & { since: number }, staleMs: number): boolean {
  if (Date.now() - held.since > staleMs) return true;
  if (typeof held.pid !== "number" || held.host !== hostname()) return false;
  try {
    process.kill(held.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
