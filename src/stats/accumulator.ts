// The running tally behind `msgstat stats`: fed one message at a time, it keeps counts only, so a
// campaign of a million messages costs the same memory as one of ten.
import { attemptCount, newestFailedAttempt } from "../core/attempts.js";
import { BATCH, isPlainObject, MESSAGE, read, type CheckedMessage } from "../core/message.js";
import { instantOf, type TimeZone } from "../core/time.js";
import { BoundedCounts } from "./bounded-counts.js";
import { TimeTally, type Interval } from "./time-buckets.js";
import { TimeToFinalTally } from "./time-to-final.js";

export const ATTEMPT_BUCKETS = ["0", "1", "2", "3", "4+", "unknown"] as const;
export type AttemptBucket = (typeof ATTEMPT_BUCKETS)[number];

export interface Outcomes {
  messages: number;
  success: number;
  failure: number;
}

export interface ErrorCounts {
  errorType: string | null;
  errorCode: string | null;
  count: number;
}

export interface BatchCounts extends Outcomes {
  fileName: string | null;
  totalMessages: number | null;
}

/** Past these many distinct values the rest are counted together (see BoundedCounts). */
export const CAPS = { statuses: 100, errors: 500, batches: 5_000 } as const;

const outcomes = (): Outcomes => ({ messages: 0, success: 0, failure: 0 });

export class StatsAccumulator {
  messages = 0;
  attempts = 0;
  undated = 0;
  succeededAfterRetry = 0;
  oldest: { at: number; text: string } | undefined;
  newest: { at: number; text: string } | undefined;
  readonly statuses = new BoundedCounts<{ count: number }>(CAPS.statuses, () => ({ count: 0 }));
  readonly errors = new BoundedCounts<ErrorCounts>(CAPS.errors, () => ({ errorType: null, errorCode: null, count: 0 }));
  readonly attemptBuckets = new Map<AttemptBucket, Outcomes>(ATTEMPT_BUCKETS.map((bucket) => [bucket, outcomes()]));
  /** Undefined for a batch's stats: its listing carries no batch fields. */
  readonly batches: BoundedCounts<BatchCounts> | undefined;
  /** Messages in no batch (campaign stats only). */
  readonly noBatch: Outcomes = outcomes();
  /** Messages without a latestStatus: kept apart, as any string could be a status. */
  withoutStatus = 0;
  readonly time: TimeTally;
  readonly timeToFinal: TimeToFinalTally;

  /** `maxTimeToFinalMs`: --max-time-to-final's duration, whose messages within it are counted exactly. */
  constructor(options: { byBatch: boolean; interval?: Interval; timeZone: TimeZone; maxTimeToFinalMs?: number }) {
    this.timeToFinal = new TimeToFinalTally(options.maxTimeToFinalMs);
    this.batches = options.byBatch
      ? new BoundedCounts<BatchCounts>(CAPS.batches, () => ({ ...outcomes(), fileName: null, totalMessages: null }))
      : undefined;
    this.time = new TimeTally(options.interval ?? "hour", options.timeZone);
  }

  add(message: CheckedMessage): void {
    const status = read(MESSAGE, message, "latestStatus");
    this.messages++;
    if (status === undefined) this.withoutStatus++;
    else this.statuses.entry(status).count++;
    if (status === "failure") this.countError(message);
    const count = attemptCount(message);
    if (count !== undefined) this.attempts += count;
    if (status === "success" && count !== undefined && count >= 2) this.succeededAfterRetry++;
    tallyOutcome(this.attemptBuckets.get(attemptBucket(count))!, status);
    if (this.batches) this.countBatches(message, status);
    this.countTime(message, status);
  }

  /**
   * Adds another tally's counts into this one, as if its messages had been added here: the total of several
   * campaigns is the sum of those counted to their end (one cut short by a failure is left out whole).
   */
  absorb(other: StatsAccumulator): void {
    this.messages += other.messages;
    this.attempts += other.attempts;
    this.undated += other.undated;
    this.succeededAfterRetry += other.succeededAfterRetry;
    this.withoutStatus += other.withoutStatus;
    if (other.oldest && (this.oldest === undefined || other.oldest.at < this.oldest.at)) this.oldest = other.oldest;
    if (other.newest && (this.newest === undefined || other.newest.at > this.newest.at)) this.newest = other.newest;
    this.statuses.absorb(other.statuses, (into, from) => (into.count += from.count));
    this.errors.absorb(other.errors, (into, from) => {
      if (into.count === 0) Object.assign(into, { errorType: from.errorType, errorCode: from.errorCode });
      into.count += from.count;
    });
    for (const [bucket, from] of other.attemptBuckets) addOutcomes(this.attemptBuckets.get(bucket)!, from);
    if (this.batches && other.batches)
      this.batches.absorb(other.batches, (into, from) => {
        into.fileName ??= from.fileName;
        into.totalMessages ??= from.totalMessages;
        addOutcomes(into, from);
      });
    addOutcomes(this.noBatch, other.noBatch);
    this.time.absorb(other.time);
    this.timeToFinal.absorb(other.timeToFinal);
  }

  private countError(message: CheckedMessage): void {
    const failed = newestFailedAttempt(message);
    const errorType = failed?.errorType ?? null;
    const errorCode = failed?.errorCode ?? null;
    const entry = this.errors.entry(JSON.stringify([errorType, errorCode]));
    if (entry.count === 0) Object.assign(entry, { errorType, errorCode });
    entry.count++;
  }

  /** A message in several batches counts in each; one in none counts in the "no batch" row. */
  private countBatches(message: CheckedMessage, status: string | undefined): void {
    const seen = new Set<string>();
    for (const batch of read(MESSAGE, message, "batches") ?? []) {
      if (!isPlainObject(batch)) continue;
      const id = read(BATCH, batch, "id");
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const entry = this.batches!.entry(id);
      entry.fileName ??= read(BATCH, batch, "originalFileName") ?? null;
      entry.totalMessages ??= read(BATCH, batch, "totalMessages") ?? null;
      tallyOutcome(entry, status);
    }
    const batchId = read(MESSAGE, message, "batchId");
    if (batchId !== undefined && batchId !== "" && !seen.has(batchId)) {
      seen.add(batchId);
      tallyOutcome(this.batches!.entry(batchId), status);
    }
    if (seen.size === 0) tallyOutcome(this.noBatch, status);
  }

  private countTime(message: CheckedMessage, status: string | undefined): void {
    const createdAt = read(MESSAGE, message, "createdAt");
    const at = instantOf(createdAt);
    this.timeToFinal.add(message, status, at);
    if (at === undefined || createdAt === undefined) {
      this.undated++;
      return;
    }
    if (this.oldest === undefined || at < this.oldest.at) this.oldest = { at, text: createdAt };
    if (this.newest === undefined || at > this.newest.at) this.newest = { at, text: createdAt };
    this.time.add(at, status === "failure");
  }
}

function tallyOutcome(into: Outcomes, status: string | undefined): void {
  into.messages++;
  if (status === "success") into.success++;
  else if (status === "failure") into.failure++;
}

function addOutcomes(into: Outcomes, from: Outcomes): void {
  into.messages += from.messages;
  into.success += from.success;
  into.failure += from.failure;
}

function attemptBucket(count: number | undefined): AttemptBucket {
  if (count === undefined) return "unknown";
  if (count >= 4) return "4+";
  return String(Math.floor(count)) as AttemptBucket;
}
