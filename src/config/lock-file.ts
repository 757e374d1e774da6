// Taking a lock file in one atomic step, for the config folder's lock (config-lock.ts) and a dataset's
// (commands/export/lock.ts): the holder's line is written to a private temporary file first, then
// hard-linked to the lock's name, which fails if a lock is there. A reader never sees a lock without its
// holder (created, then written, a second process could read it empty in between and take it over).
import { promises as fs } from "node:fs";
import path from "node:path";
import { temporaryName } from "../render/atomic-file.js";

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

/** Removes a stale lock, unless another process already replaced it with its own (another inode). */
export async function removeStaleLock(file: string, ino: number): Promise<void> {
  const now = await fs.lstat(file).catch(() => undefined);
  if (now?.ino === ino) await fs.rm(file, { force: true });
}
