// Where an export's files lie in <dir>: the Hive layout that DuckDB, Spark, Trino and BigQuery read as
// one table (campaign_id=<id>/created_date=<YYYY-MM-DD>/messages.<ext>), the staging folder of a run
// (spills, named so no *.parquet or *.jsonl.gz glob matches them), and the leftovers of a killed run.
import { promises as fs } from "node:fs";
import path from "node:path";

export const EXPORT_FORMATS = ["parquet", "jsonl.gz"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The manifest's name in <dir>: not matched by a data glob. */
export const MANIFEST_NAME = "msgstat-export.json";
/** The staging folder of a run, inside <dir> (same file system: renames stay renames). */
export const STAGING_NAME = ".msgstat-staging";
/** The lock of the run writing <dir> (run.ts, `lockDataset`). */
export const LOCK_NAME = ".msgstat-export.lock";
/** Hive's name for a partition whose value is null: here, a message without a readable createdAt. */
export const UNDATED = "__HIVE_DEFAULT_PARTITION__";

/** A partition: one campaign's messages created on one UTC day. */
export interface PartitionKey {
  campaignId: string;
  /** YYYY-MM-DD (UTC), or UNDATED. */
  date: string;
}

/** The UTC day of an instant, as the partition names it; UNDATED without one. */
export function dateOf(instant: number | undefined): string {
  if (instant === undefined || !Number.isFinite(instant)) return UNDATED;
  return new Date(instant).toISOString().slice(0, 10);
}

/**
 * A value as a path segment, as Hive escapes it: every byte outside letters, digits and `_ . -` as %XX
 * (DuckDB and Spark decode it back), so an id with a slash, a space or `=` stays one folder.
 */
export function escapeValue(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  // "." and ".." alone would name the folder itself or its parent.
  return out.replace(/^\.\.?$/, (dots) => dots.replace(/\./g, "%2E"));
}

/** NAME_MAX of Linux, macOS and Windows file systems: the bytes of one folder's name. */
export const NAME_MAX = 255;

/** A campaign's folder in <dir>: its id escaped. */
export function campaignFolder(campaignId: string): string {
  return `campaign_id=${escapeValue(campaignId)}`;
}

/** The partition's folder, relative to <dir>, with `/` between segments (the manifest's key). */
export function partitionPath(key: PartitionKey): string {
  return `${campaignFolder(key.campaignId)}/created_date=${key.date}`;
}

export function dataFileName(format: ExportFormat): string {
  return `messages.${format}`;
}

/** The lock's temporary file (the one lock's, taken in one step), left only by a run killed as it took the lock. */
export function isLockTemporary(name: string): boolean {
  return name.startsWith(`.${LOCK_NAME}.msgstat-`) && name.endsWith(".tmp");
}

/** The atomic writer's temporary file of a data file: `.messages.<ext>.msgstat-<pid>-<t>-<n>.tmp`. */
const TEMPORARY = /^\.messages\..+\.msgstat-[0-9]+-[0-9a-z]+-[0-9a-z]+\.tmp$/;

/**
 * Removes what a killed run left: its staging folder, temporary files beside partition files (an older
 * msgstat encoded there), and partition folders left empty (never a data file: each is whole, old or
 * new). Returns how many temporary files were removed.
 */
export async function removeLeftovers(dir: string): Promise<number> {
  await fs.rm(path.join(dir, STAGING_NAME), { recursive: true, force: true });
  let removed = 0;
  for (const campaign of await folders(dir, "campaign_id=")) {
    for (const day of await folders(campaign, "created_date=")) {
      for (const entry of await fs.readdir(day).catch(() => [] as string[]))
        if (TEMPORARY.test(entry)) {
          await fs.rm(path.join(day, entry), { force: true });
          removed++;
        }
      // rmdir removes a folder only when it is empty.
      await fs.rmdir(day).catch(() => undefined);
    }
    await fs.rmdir(campaign).catch(() => undefined);
  }
  return removed;
}

async function folders(parent: string, prefix: string): Promise<string[]> {
  const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => path.join(parent, entry.name));
}
