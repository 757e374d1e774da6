// The files of the config folder are replaced whole, by the same writer as -o (render/atomic-file.ts:
// a temporary file with the final mode, flushed to disk, renamed over the target).
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { followLinks, replaceFile, type ReplaceSteps } from "../render/atomic-file.js";

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
 * Replaces `file` with `text`, its folder created if need be; `steps` only for a test. A symbolic link (a dotfiles
 * manager's) is written through: its target is replaced and the link stays, as -o does.
 */
export async function writeFileAtomic(file: string, text: string, mode: number, steps?: ReplaceSteps): Promise<void> {
  await ensureFolder(path.dirname(file));
  const followed = await followLinks(file);
  if (followed === undefined) throw new UsageError(`cannot write ${file} (too many levels of symbolic links)`);
  const target = followed.target;
  try {
    await replaceFile(target, text, mode, steps);
  } catch (error) {
    throw new UsageError(`cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Removes a file that may not exist. */
export async function removeFile(target: string): Promise<void> {
  await fs.rm(target, { force: true });
}
