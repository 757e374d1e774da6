// Every file of the config folder is replaced whole: written to a temporary file beside it, flushed
// to disk, then renamed over it, so a crash or a full disk never leaves half a file behind. The
// temporary file is created with its final mode, so a 0600 file is never readable by others, not
// even for the moment between creating it and a chmod.
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";

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

export async function writeFileAtomic(target: string, text: string, mode: number): Promise<void> {
  await ensureFolder(path.dirname(target));
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`,
  );
  try {
    // "wx": a new file that nothing else has open, created with `mode` (the umask can only narrow it).
    const handle = await fs.open(temporary, "wx", mode);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw new UsageError(`cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Removes a file that may not exist. */
export async function removeFile(target: string): Promise<void> {
  await fs.rm(target, { force: true });
}
