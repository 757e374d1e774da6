// `msgstat export <campaignId...> --to <dir>`: every message of each campaign into a Hive-partitioned
// dataset (docs/export.md). A run has three phases, so that a run killed at any point leaves each
// message in exactly one whole file, old or new:
//  1. each campaign is read to its end (several at once, service/fan-out.ts) and spilled by partition;
//     each partition's digest is compared with the manifest's, and only a changed one is encoded, to a
//     temporary file in the run's staging folder (no partition folder is created yet);
//  2. the manifest marks the partitions about to change as pending, then each partition's folder is
//     created if new and its temporary file renamed over its data file (a partition whose messages are
//     all gone is removed, its folder too);
//  3. the manifest is written with the new digests.
import { promises as fs } from "node:fs";
import path from "node:path";
import { takeLock } from "../../output/lock.js";
import { OutputError, ServiceError, UsageError } from "../../core/errors.js";
import { MESSAGE, read } from "../../core/message.js";
import { count, countText } from "../../core/numbers.js";
import { instantOf } from "../../core/time.js";
import { SOURCED_MESSAGES } from "../../service/endpoints.js";
import { forEachCampaign, type CampaignResult } from "../../service/fan-out.js";
import { MessageSelector } from "../../service/select.js";
import { startProgress } from "../../terminal/spinner.js";
import type { Context } from "../context.js";
import { failedCampaignLine, incompleteCampaigns } from "../shared/campaign-outcomes.js";
import { progressText } from "../shared/progress.js";
import { fingerprintOf, PartitionDigest, type FileFingerprint } from "./digest.js";
import type { AtomicFile } from "../../output/atomic-file.js";
import { encodePartition, ENCODERS } from "./encode.js";
import {
  campaignFolder,
  dataFileName,
  dateOf,
  EXPORT_FORMATS,
  isLockTemporary,
  LOCK_NAME,
  MANIFEST_NAME,
  NAME_MAX,
  partitionPath,
  removeLeftovers,
  STAGING_NAME,
  type ExportFormat,
} from "./layout.js";
import { linkRefused, refuseLinks, surveyDataset } from "./links.js";
import { readManifest, writeManifest, type Manifest, type PartitionEntry } from "./manifest.js";
import { CampaignSpill, uniqueMessages } from "./spill.js";

/** The steps of a run a test can hold it at (Context's `atStep`), in the order a run reaches them. */
export const EXPORT_STEPS = ["fetching", "spilling", "encoded", "between-renames", "before-manifest"] as const;
type PauseStep = (typeof EXPORT_STEPS)[number];

export interface ExportOptions {
  /** --to: the dataset's folder, created if missing. */
  dir: string;
  /** --format; without it, the format the manifest records (parquet for a new dataset). */
  format: ExportFormat | undefined;
  concurrency: number;
  /** Recorded in the manifest. */
  msgstatVersion: string;
}

/** What phase 1 made of one partition of a campaign read to its end. */
interface PartitionPlan {
  key: string;
  entry: PartitionEntry | undefined;
  /** Set when the file changes: the new file prepared, to be committed over its data file; or null to remove it. */
  change?: AtomicFile | null;
}

interface CampaignExport {
  messages: number;
  partitions: PartitionPlan[];
}

/** What the run tells the person as it goes. */
interface Tally {
  selectors: Map<string, MessageSelector>;
  done: number;
  /** Partitions of the campaigns read to their end, and how many of those were digested and written. */
  partitions: number;
  planned: number;
  /** Campaigns whose pages are all read (or whose reading failed). */
  read: number;
  repeats: { count: number };
}

export async function runExport(campaignIds: readonly string[], options: ExportOptions, ctx: Context): Promise<void> {
  const startedAt = new Date(ctx.now()).toISOString();
  const { dir } = options;
  await checkTarget(dir);
  await fs.mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--to ${dir}: cannot create it (${error.code ?? error.message})`);
  });
  const unlock = await lockDataset(dir);
  try {
    await exportLocked(campaignIds, options, ctx, startedAt);
  } finally {
    await unlock();
  }
}

/**
 * One run at a time in a dataset's folder (a second would remove the first's staging folder as
 * leftovers): <dir>/.msgstat-export.lock, refused at once while another run holds it.
 */
export function lockDataset(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_NAME);
  return takeLock(file, {
    waitMs: 0,
    mode: 0o666,
    link: linkRefused,
    cannotCreate: (code) => new UsageError(`--to ${dir}: cannot write there (${code})`),
    busy: (held) =>
      new UsageError(
        `another msgstat export (pid ${held.pid ?? "unknown"} on ${held.host ?? "an unknown machine"}) ` +
          `is writing ${dir}`,
      ).withHint(`Wait for it to end. If no export is running there, remove ${file}.`),
  });
}

async function exportLocked(
  campaignIds: readonly string[],
  options: ExportOptions,
  ctx: Context,
  startedAt: string,
): Promise<void> {
  const { dir } = options;
  const survey = await surveyDataset(dir);
  const previous = await readManifest(dir, ctx.warn);
  const held = previous?.format ?? formatOnDisk(dir, survey.formats);
  if (held !== undefined && options.format !== undefined && held !== options.format)
    throw new UsageError(`--to ${dir} holds a ${held} dataset, not ${options.format}`).withHint(
      `Leave out --format (or give --format ${held}), or export to another folder.`,
    );
  const format = options.format ?? held ?? "parquet";
  const stale = EXPORT_FORMATS.filter((other) => other !== format && survey.formats.has(other));
  // Left by an older msgstat, which could switch a dataset's format when its manifest was lost.
  if (previous !== undefined && stale.length > 0)
    ctx.warn(
      `${dir} also holds ${stale.map(dataFileName).join(", ")} files, which export does not update ` +
        `(the dataset's format is ${format}): remove them, or a reader of them sees stale messages`,
    );
  // Partitions of an id too long to name a folder were never written (an older msgstat recorded them).
  for (const key of Object.keys(previous?.partitions ?? {}))
    if (Buffer.byteLength(key.split("/")[0]!) > NAME_MAX) delete previous!.partitions[key];
  const chosen = { ...options, format };
  await removeLeftovers(dir);
  // Made here, not by a recursive mkdir that would follow a link made since the survey.
  await fs.mkdir(path.join(dir, STAGING_NAME), { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw cannotWrite(path.join(dir, STAGING_NAME), error);
  });
  await refuseLinks(dir, STAGING_NAME);
  const pause = async (step: PauseStep) => ctx.atStep?.(step);
  const staging = path.join(dir, STAGING_NAME, `run-${process.pid}-${Date.now().toString(36)}`);
  const progress = await startProgress(ctx, "Exporting…");
  const tally: Tally = { selectors: new Map(), done: 0, partitions: 0, planned: 0, read: 0, repeats: { count: 0 } };
  try {
    const results = await readCampaigns(campaignIds, chosen, previous, staging, tally, progress, pause, ctx);
    // Repeats the paging dropped (within a few pages) and those found in a partition's spill.
    let repeats = tally.repeats.count;
    for (const selector of tally.selectors.values()) repeats += selector.reader.duplicatesDropped;
    if (repeats > 0) {
      progress.pause();
      ctx.warn(`the service sent ${count(repeats, "message")} again in this run; each was kept once`);
      progress.resume();
    }
    const plans = results.flatMap((result) => result.value?.partitions ?? []);
    const manifest = nextManifest(previous, chosen, plans);
    await commit(dir, format, plans, manifest, pause, (line) => progress.update(line));
    await pause("before-manifest");
    progress.stop();
    await warnMissing(dir, format, manifest, plans, ctx);
    const summary = summarise(results, plans, campaignIds, startedAt, ctx);
    manifest.lastRun = summary.lastRun;
    recordCampaigns(manifest, results, summary.lastRun.finishedAt);
    await writeManifest(dir, manifest);
    ctx.note(summary.line);
    const incomplete = incompleteCampaigns(results, "", { causes: true });
    if (incomplete) throw incomplete;
  } finally {
    progress.stop();
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rmdir(path.join(dir, STAGING_NAME)).catch(() => undefined);
  }
}

/**
 * The format of a dataset without a manifest msgstat can read: that of its files, so that a lost manifest
 * never leaves a reader of one format's files with stale data; both formats at once is refused.
 */
function formatOnDisk(dir: string, formats: ReadonlySet<ExportFormat>): ExportFormat | undefined {
  if (formats.size > 1)
    throw new UsageError(
      `--to ${dir} holds both ${EXPORT_FORMATS.map(dataFileName).join(" and ")} files, ` +
        "and no manifest says which is its format",
    ).withHint("A dataset holds one format: remove the other's files, or export to another folder.");
  return [...formats][0];
}

/** Phase 1: each campaign read to its end, spilled, and each changed partition encoded into staging. */
async function readCampaigns(
  campaignIds: readonly string[],
  options: ExportOptions & { format: ExportFormat },
  previous: Manifest | undefined,
  staging: string,
  tally: Tally,
  progress: Awaited<ReturnType<typeof startProgress>>,
  pause: (step: PauseStep) => Promise<void>,
  ctx: Context,
): Promise<Array<CampaignResult<CampaignExport>>> {
  const { dir } = options;
  const client = await ctx.client();
  try {
    return await forEachCampaign(
      campaignIds,
      async (campaignId) => {
        const folder = campaignFolder(campaignId);
        // A ServiceError fails this campaign alone (fan-out.ts); the others are exported.
        if (Buffer.byteLength(folder) > NAME_MAX)
          throw new ServiceError(
            `not exported: its partition folder's name would be ${countText(Buffer.byteLength(folder))} bytes ` +
              `(the id %-escaped), over the ${NAME_MAX} a file system allows`,
          );
        const spill = await CampaignSpill.create(path.join(staging, String(campaignIds.indexOf(campaignId))));
        let pagesRead = false;
        const readToEnd = () => {
          if (!pagesRead) tally.read++;
          pagesRead = true;
        };
        try {
          const selector = new MessageSelector(client, {
            listing: { campaignId },
            limit: Number.POSITIVE_INFINITY,
            pageSize: 1000,
            onPage: () => progress.update(progressLine(tally, campaignIds.length)),
          });
          tally.selectors.set(campaignId, selector);
          for await (const chunk of selector.chunks(SOURCED_MESSAGES)) {
            await pause("fetching");
            for (const item of chunk)
              await spill.add(dateOf(instantOf(read(MESSAGE, item.message, "createdAt"))), item);
          }
          await spill.flush();
          readToEnd();
          await pause("spilling");
          const encoded = path.join(staging, "encoded", String(campaignIds.indexOf(campaignId)));
          const update = () => progress.update(progressLine(tally, campaignIds.length));
          const done = await planCampaign(campaignId, spill, previous, { ...options, encoded, update }, tally, ctx);
          if (done.partitions.some((plan) => plan.change)) await pause("encoded");
          tally.done++;
          progress.update(progressLine(tally, campaignIds.length));
          return done;
        } finally {
          readToEnd();
          await spill.remove();
        }
      },
      {
        concurrency: options.concurrency,
        onFailure: (result) => {
          progress.pause();
          ctx.always.warn(failedCampaignLine(result));
          progress.resume();
        },
      },
    );
  } catch (error) {
    // Interrupted, or the folder could not be written: no data file was touched; temporary files go too.
    await removeLeftovers(dir).catch(() => undefined);
    throw error;
  }
}

/**
 * Refuses a --to that is a file, a partition folder of a dataset, or a folder holding other files and
 * no manifest: export writes only into a fresh or empty folder, or a dataset's root.
 */
async function checkTarget(dir: string): Promise<void> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (stat === undefined) return;
  if (!stat.isDirectory())
    throw new UsageError(`--to ${dir} is a file, not a folder`).withHint(
      "Give a fresh or empty folder, or an existing dataset's root.",
    );
  if (/^(campaign_id|created_date)=/.test(path.basename(path.resolve(dir))))
    throw new UsageError(`--to ${dir} is a partition folder of a dataset, not its root`).withHint(
      `Give the dataset's root (the folder holding ${MANIFEST_NAME}), or a fresh or empty folder.`,
    );
  const entries = await fs.readdir(dir);
  if (entries.includes(MANIFEST_NAME)) return;
  // What a run killed before its first manifest leaves, and the lock of a run under way.
  const ours = new Set([STAGING_NAME, LOCK_NAME]);
  const others = entries.filter((name) => !ours.has(name) && !/^campaign_id=/.test(name) && !isLockTemporary(name));
  if (others.length > 0)
    throw new UsageError(`--to ${dir} holds other files and no ${MANIFEST_NAME}: not a msgstat dataset`).withHint(
      "Give a fresh or empty folder, or an existing dataset's root.",
    );
}

/**
 * A campaign read to its end: each partition it has now is digested (from its spill) and, if its digest
 * is not the manifest's, encoded to a temporary file; each partition it had before and has no more is to
 * be removed.
 */
async function planCampaign(
  campaignId: string,
  spill: CampaignSpill,
  previous: Manifest | undefined,
  options: ExportOptions & { format: ExportFormat; encoded: string; update: () => void },
  tally: Tally,
  ctx: Context,
): Promise<CampaignExport> {
  const encoding = ENCODERS[options.format].version;
  const plans: PartitionPlan[] = [];
  let messages = 0;
  const present = new Set<string>();
  const dates = [...spill.lines.keys()].sort();
  tally.partitions += dates.length;
  for (const [i, date] of dates.entries()) {
    const key = partitionPath({ campaignId, date });
    present.add(key);
    const digest = new PartitionDigest();
    for await (const { body } of uniqueMessages(spill.fileOf(date), tally.repeats)) digest.add(body);
    const entry: PartitionEntry = { digest: digest.value(encoding), messages: digest.count };
    messages += digest.count;
    const plan: PartitionPlan = { key, entry };
    const target = path.join(options.dir, ...key.split("/"), dataFileName(options.format));
    const before = previous?.partitions[key];
    if (before?.digest === entry.digest && (await intact(target, before.file))) entry.file = before.file;
    else {
      // Prepared in staging: the partition's folder is created only when its file is committed (phase 2).
      const staged = path.join(options.encoded, String(i));
      const ready = await encodePartition(
        spill.fileOf(date),
        target,
        staged,
        options.format,
        options.msgstatVersion,
        ctx.signal,
      ).catch((error: unknown) => {
        throw cannotWrite(path.join(staged, dataFileName(options.format)), error);
      });
      entry.file = await fingerprintOf(ready.temporary);
      plan.change = ready;
    }
    plans.push(plan);
    tally.planned++;
    options.update();
  }
  const prefix = `${partitionPath({ campaignId, date: "" })}`;
  for (const key of Object.keys(previous?.partitions ?? {}))
    if (key.startsWith(prefix) && !present.has(key)) plans.push({ key, entry: undefined, change: null });
  return { messages, partitions: plans };
}

/**
 * The partitions of campaigns this run did not read (not named, or failed) are not written, even when
 * their file is gone: said, so that a person exports those campaigns again.
 */
async function warnMissing(
  dir: string,
  format: ExportFormat,
  manifest: Manifest,
  plans: readonly PartitionPlan[],
  ctx: Context,
): Promise<void> {
  const planned = new Set(plans.map((plan) => plan.key));
  const missing: string[] = [];
  for (const key of Object.keys(manifest.partitions)) {
    if (planned.has(key)) continue;
    const stats = await fs.lstat(path.join(dir, ...key.split("/"), dataFileName(format))).catch(() => undefined);
    if (!stats?.isFile()) missing.push(key);
  }
  if (missing.length > 0)
    ctx.warn(
      `${count(missing.length, "partition")} of campaigns not exported in this run ` +
        `${missing.length === 1 ? "has" : "have"} no file (${missing[0]}${missing.length > 1 ? ", …" : ""}); ` +
        "export those campaigns to write them again",
    );
}

/** Whether the data file is still the one msgstat wrote: there, a plain file, of the same size and SHA-256. */
async function intact(file: string, written: FileFingerprint | undefined): Promise<boolean> {
  if (written === undefined) return false;
  const now = await fingerprintOf(file);
  return now?.bytes === written.bytes && now.sha256 === written.sha256;
}

function cannotWrite(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined ? error : new OutputError(`cannot write ${file} (${code})`);
}

/** The manifest after this run: partitions of campaigns read to their end as they are now, the others as they were. */
function nextManifest(
  previous: Manifest | undefined,
  options: ExportOptions & { format: ExportFormat },
  plans: readonly PartitionPlan[],
): Manifest {
  const manifest: Manifest = {
    manifestVersion: 1,
    msgstatVersion: options.msgstatVersion,
    format: options.format,
    campaigns: { ...previous?.campaigns },
    partitions: { ...previous?.partitions },
  };
  for (const plan of plans) {
    if (plan.entry === undefined) delete manifest.partitions[plan.key];
    else manifest.partitions[plan.key] = plan.entry;
  }
  return manifest;
}

/** Each campaign's last complete run and its count, or why the last run could not read it. */
function recordCampaigns(manifest: Manifest, results: ReadonlyArray<CampaignResult<CampaignExport>>, at: string): void {
  for (const result of results) {
    const entry = { ...manifest.campaigns[result.campaignId] };
    if (result.state === "complete") {
      entry.lastComplete = at;
      entry.messages = result.value?.messages ?? 0;
      delete entry.lastFailure;
    } else entry.lastFailure = { at, reason: result.error?.message ?? "" };
    manifest.campaigns[result.campaignId] = entry;
  }
}

/**
 * Phase 2: the partitions that change are first marked pending in the manifest (their digest unknown),
 * then each prepared file is committed over its data file, or the partition removed. A run killed in
 * between leaves each partition whole, old or new, and the next run writes every pending one again.
 */
async function commit(
  dir: string,
  format: ExportFormat,
  plans: readonly PartitionPlan[],
  next: Manifest,
  pause: (step: PauseStep) => Promise<void>,
  show: (line: string) => void,
): Promise<void> {
  const changes = plans.filter((plan) => plan.change !== undefined);
  if (changes.length === 0) return;
  show(`Moving partitions into place… 0 of ${countText(changes.length)}`);
  const pending: Manifest = { ...next, partitions: { ...next.partitions } };
  for (const plan of changes) pending.partitions[plan.key] = { digest: null, messages: plan.entry?.messages ?? 0 };
  await writeManifest(dir, pending);
  for (const [i, plan] of changes.entries()) {
    if (i > 0) await pause("between-renames");
    // Checked again at each use: a link made since the run began is refused too.
    await refuseLinks(dir, `${plan.key}/${dataFileName(format)}`);
    if (plan.change) {
      await fs.mkdir(path.dirname(plan.change.target), { recursive: true });
      await refuseLinks(dir, `${plan.key}/${dataFileName(format)}`);
      await plan.change.commit();
    } else await removePartition(dir, plan.key, format);
    show(`Moving partitions into place… ${countText(i + 1)} of ${countText(changes.length)}`);
  }
}

/** A partition with no message left: its file, then its folder and its campaign's if they are empty. */
async function removePartition(dir: string, key: string, format: ExportFormat): Promise<void> {
  const folder = path.join(dir, ...key.split("/"));
  await fs.rm(path.join(folder, dataFileName(format)), { force: true });
  await fs.rmdir(folder).catch(() => undefined);
  await fs.rmdir(path.dirname(folder)).catch(() => undefined);
}

function summarise(
  results: ReadonlyArray<CampaignResult<CampaignExport>>,
  plans: readonly PartitionPlan[],
  campaignIds: readonly string[],
  startedAt: string,
  ctx: Context,
): { line: string; lastRun: NonNullable<Manifest["lastRun"]> } {
  const complete = results.filter((result) => result.state === "complete");
  const messages = complete.reduce((sum, result) => sum + (result.value?.messages ?? 0), 0);
  const written = plans.filter((plan) => plan.change).length;
  const removed = plans.filter((plan) => plan.change === null).length;
  const unchanged = plans.length - written - removed;
  const campaigns = `${countText(complete.length)} of ${count(campaignIds.length, "campaign")}`;
  // Short enough that the usual case fits 80 columns; the partitions held are those written and unchanged.
  const line =
    `exported ${campaigns}, ${count(messages, "message")}: ` +
    `${count(written, "file")} written, ${countText(unchanged)} unchanged` +
    (removed > 0 ? `, ${countText(removed)} removed` : "");
  return {
    line,
    lastRun: {
      startedAt,
      finishedAt: new Date(ctx.now()).toISOString(),
      campaigns: [...campaignIds],
      messages,
      partitionsWritten: written,
      partitionsRemoved: removed,
      partitionsUnchanged: unchanged,
    },
  };
}

function progressLine(tally: Tally, campaigns: number): string {
  // Once every campaign's pages are read, what is left is digesting and encoding the partitions.
  if (tally.read === campaigns)
    return `Writing partitions… ${countText(tally.planned)} of ${countText(tally.partitions)}`;
  return progressText("Exporting…", tally.selectors.values(), { done: tally.done, of: campaigns });
}
