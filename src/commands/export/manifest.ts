// The manifest, <dir>/msgstat-export.json: what the last run did (when, which campaigns, counts, the
// msgstat version) and, per partition, the digest and count of the messages its file holds. Written
// by the one atomic writer, after the partition files it describes. A
// partition about to be replaced is first recorded without a digest ("pending"): if the run is killed
// between the rename and the final manifest, the next run cannot trust any digest for it, and writes it.
import { promises as fs } from "node:fs";
import path from "node:path";
import { OutputError, UsageError } from "../../core/errors.js";
import { replaceFile } from "../../output/atomic-file.js";
import type { FileFingerprint } from "./digest.js";
import { MANIFEST_NAME, type ExportFormat } from "./layout.js";
import { refuseLinks } from "./links.js";

export interface PartitionEntry {
  /** The digest of the messages in its file; null while a run is replacing it (pending). */
  digest: string | null;
  messages: number;
  /** The data file as written (its size and SHA-256): a run writes it again when it is not so any more. */
  file?: FileFingerprint;
}

export interface CampaignEntry {
  /** When a run last read it to its end (ISO 8601, UTC). */
  lastComplete?: string;
  messages?: number;
  /** The last run could not read it: its partitions were left as they were. */
  lastFailure?: { at: string; reason: string };
}

export interface Manifest {
  manifestVersion: 1;
  msgstatVersion: string;
  format: ExportFormat;
  lastRun?: {
    startedAt: string;
    finishedAt: string;
    campaigns: string[];
    messages: number;
    partitionsWritten: number;
    partitionsRemoved: number;
    partitionsUnchanged: number;
  };
  campaigns: Record<string, CampaignEntry>;
  /** By the partition's folder relative to <dir> (campaign_id=…/created_date=…). */
  partitions: Record<string, PartitionEntry>;
}

export function manifestFile(dir: string): string {
  return path.join(dir, MANIFEST_NAME);
}

/**
 * The manifest of <dir>, or undefined when there is none. One that cannot be read as a manifest is
 * treated as none with a warning: every partition is then written again (digests unknown), which is safe.
 */
export async function readManifest(dir: string, warn: (line: string) => void): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await fs.readFile(manifestFile(dir), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(
      `cannot read ${manifestFile(dir)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  try {
    const value = JSON.parse(text) as Partial<Manifest>;
    if (value.manifestVersion === 1 && typeof value.partitions === "object" && value.partitions !== null)
      return { campaigns: {}, ...value } as Manifest;
  } catch {
    // Said below.
  }
  warn(`${manifestFile(dir)} is not a manifest msgstat can read; every partition will be written again`);
  return undefined;
}

/** Replaces the manifest, never through a link at its name (writeFileAtomic would write the link's target). */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await refuseLinks(dir, MANIFEST_NAME);
  try {
    await replaceFile(manifestFile(dir), JSON.stringify(manifest, null, 2) + "\n", 0o666);
  } catch (error) {
    throw new OutputError(
      `cannot write ${manifestFile(dir)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}
