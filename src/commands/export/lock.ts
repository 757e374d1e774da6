// One run at a time in a dataset's folder: a second would remove the first's staging folder and
// temporary files as leftovers. The lock is <dir>/.msgstat-export.lock, taken in one step naming its
// holder (pid and host); a lock whose process is gone from this machine (a run killed) is taken over.
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { UsageError } from "../../core/errors.js";
import { createLockFile, removeStaleLock } from "../../config/lock-file.js";
import { LOCK_NAME } from "./layout.js";
import { linkRefused } from "./links.js";

/** Whether a process of this machine is running (EPERM: it is, under another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the folder's lock; the function returned gives it back. */
export async function lockDataset(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_NAME);
  const holder = `${process.pid} ${hostname()}\n`;
  for (;;) {
    try {
      if (await createLockFile(file, holder, 0o666)) return () => fs.rm(file, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`--to ${dir}: cannot write there (${code ?? String(error)})`);
    }
    const held = await fs.lstat(file).catch(() => undefined);
    if (held === undefined) continue; // given back meanwhile
    if (held.isSymbolicLink()) throw linkRefused(file);
    const [pid, host] = (await fs.readFile(file, "utf8").catch(() => "")).trim().split(" ");
    const other = Number(pid);
    if (host !== undefined && Number.isInteger(other) && other > 0 && (host !== hostname() || running(other)))
      throw new UsageError(`another msgstat export (pid ${other} on ${host}) is writing ${dir}`).withHint(
        `Wait for it to end. If no export is running there, remove ${file}.`,
      );
    // Its holder is gone (killed): nothing of its run can still change the folder.
    await removeStaleLock(file, held.ino);
  }
}
