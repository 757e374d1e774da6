// The running tally behind `msgstat stats`: fed one message at a time, it keeps counts only, so a
// campaign of a million messages costs the same memory as one of ten.
import type { CheckedMessage } from "../api/schemas.js";
import { instantOf } from "../listing/time.js";
import { DERIVED_FIELDS } from "../output/fields.js";
import { BoundedCounts } from "./bounded-counts.js";
import { TimeTally, type Interval } from "./time-buckets.js";

/** The statuses after which nothing more happens to a message; `created` and unknown ones may still change. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["success", "failure"]);

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

  constructor(options: { byBatch: boolean; interval?: Interval }) {
    this.batches = options.byBatch ? new BoundedCounts<BatchCounts>(CAPS.batches, () => ({ ...outcomes(), fileName: null, totalMessages: null })) : undefined;
    this.time = new TimeTally(options.interval ?? "hour");
  }

  add(message: CheckedMessage): void {
    const status = message.latestStatus;
    this.messages++;
    if (status === undefined) this.withoutStatus++;
    else this.statuses.entry(status).count++;
    if (status === "failure") this.countError(message);
    const attempts = DERIVED_FIELDS.attemptCount!.get(message);
    const count = typeof attempts === "number" && Number.isFinite(attempts) && attempts >= 0 ? attempts : undefined;
    if (count !== undefined) this.attempts += count;
    if (status === "success" && count !== undefined && count >= 2) this.succeededAfterRetry++;
    tallyOutcome(this.attemptBuckets.get(attemptBucket(count))!, status);
    if (this.batches) this.countBatches(message, status);
    this.countTime(message, status);
  }

  private countError(message: CheckedMessage): void {
    const errorType = textOrNull(DERIVED_FIELDS.lastErrorType!.get(message));
    const errorCode = textOrNull(DERIVED_FIELDS.lastErrorCode!.get(message));
    const entry = this.errors.entry(JSON.stringify([errorType, errorCode]));
    if (entry.count === 0) Object.assign(entry, { errorType, errorCode });
    entry.count++;
  }

  /** A message in several batches counts in each; one in none counts in the "no batch" row. */
  private countBatches(message: CheckedMessage, status: string | undefined): void {
    const seen = new Set<string>();
    for (const batch of message.batches ?? []) {
      if (seen.has(batch.id)) continue;
      seen.add(batch.id);
      const entry = this.batches!.entry(batch.id);
      entry.fileName ??= batch.originalFileName ?? null;
      if (entry.totalMessages === null && typeof batch.totalMessages === "number") entry.totalMessages = batch.totalMessages;
      tallyOutcome(entry, status);
    }
    if (message.batchId !== undefined && message.batchId !== "" && !seen.has(message.batchId)) {
      seen.add(message.batchId);
      tallyOutcome(this.batches!.entry(message.batchId), status);
    }
    if (seen.size === 0) tallyOutcome(this.noBatch, status);
  }

  private countTime(message: CheckedMessage, status: string | undefined): void {
    const at = instantOf(message.createdAt);
    if (at === undefined) {
      this.undated++;
      return;
    }
    if (this.oldest === undefined || at < this.oldest.at) this.oldest = { at, text: message.createdAt! };
    if (this.newest === undefined || at > this.newest.at) this.newest = { at, text: message.createdAt! };
    this.time.add(at, status === "failure");
  }
}

function tallyOutcome(into: Outcomes, status: string | undefined): void {
  into.messages++;
  if (status === "success") into.success++;
  else if (status === "failure") into.failure++;
}

function attemptBucket(count: number | undefined): AttemptBucket {
  if (count === undefined) return "unknown";
  if (count >= 4) return "4+";
  return String(Math.floor(count)) as AttemptBucket;
}

function textOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
