// export never writes, renames or removes through a symbolic link inside its folder: in a folder others
// can write (a root cron job's export), a link where a partition, its file, the manifest, the staging
// folder or the lock belongs would make msgstat replace or remove a file anywhere. A link found is
// refused by name before anything is changed, and each path is checked again just before it is used.
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../../core/errors.js";
import { EXPORT_FORMATS, LOCK_NAME, MANIFEST_NAME, STAGING_NAME, type ExportFormat } from "./layout.js";

export function linkRefused(file: string): UsageError {
  return new UsageError(`${file} is a symbolic link: export never writes through a link in its dataset`).withHint(
    "Remove the link (and find out who made it), or export to another folder.",
  );
}

/** Refuses a link at any folder or file of `relative` (segments split by `/`) under `dir`; what is missing is fine. */
export async function refuseLinks(dir: string, relative: string): Promise<void> {
  let at = dir;
  for (const segment of relative.split("/")) {
    at = path.join(at, segment);
    const stats = await fs.lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (stats === undefined) return;
    if (stats.isSymbolicLink()) throw linkRefused(at);
  }
}

/** What a dataset's folder holds, as found on disk. */
export interface Survey {
  /** The formats of the data files found in its partitions. */
  formats: Set<ExportFormat>;
}

/**
 * Walks <dir>'s own names (the manifest, the lock, the staging folder, each partition folder and its
 * files), refusing the first symbolic link, and notes the formats of the data files.
 */
export async function surveyDataset(dir: string): Promise<Survey> {
  const formats = new Set<ExportFormat>();
  const ours = new Set([MANIFEST_NAME, LOCK_NAME, STAGING_NAME]);
  for (const top of await entries(dir)) {
    if (!ours.has(top.name) && !top.name.startsWith("campaign_id=")) continue;
    const campaign = path.join(dir, top.name);
    if (top.isSymbolicLink()) throw linkRefused(campaign);
    if (!top.isDirectory() || !top.name.startsWith("campaign_id=")) continue;
    for (const day of await entries(campaign)) {
      const folder = path.join(campaign, day.name);
      if (day.isSymbolicLink()) throw linkRefused(folder);
      if (!day.isDirectory()) continue;
      for (const file of await entries(folder)) {
        if (file.isSymbolicLink()) throw linkRefused(path.join(folder, file.name));
        const format = EXPORT_FORMATS.find((each) => file.name === `messages.${each}`);
        if (format !== undefined && file.isFile()) formats.add(format);
      }
    }
  }
  return { formats };
}

async function entries(folder: string) {
  return fs.readdir(folder, { withFileTypes: true }).catch(() => []);
}
