// Time to final status: from a message's createdAt to the updatedAt of its last attempt, for messages
// that are final (success or failure). Kept as counts in fixed, log-spaced buckets, never as a list of
// durations: a million messages cost the same memory as ten. docs/stats.md defines it for users.
import { FINAL_STATUSES } from "../core/statuses.js";
import { MESSAGE, MESSAGE_ATTEMPT, read, type CheckedMessage } from "../core/message.js";
import { instantOf } from "../core/time.js";

/** Each fine bucket is 2 % wider than the one before, so its midpoint is within 1 % of any duration in it. */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
/** Under a second is one bucket; then 1 s × 1.02^k up to about 60 days (a longer wait shares the last). */
const FIRST_MS = 1000;
const FINE_BUCKETS = Math.ceil(Math.log((60 * 86_400_000) / FIRST_MS) / LOG_GROWTH) + 2;

/** The histogram a person reads: bounds in milliseconds, each bucket from its bound to the next one. */
export const SHOWN_BOUNDS_MS: readonly number[] = [
  0,
  1_000,
  5_000,
  10_000,
  30_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  2 * 86_400_000,
  7 * 86_400_000,
];

export interface TimeToFinalRow {
  /** Inclusive lower bound, in milliseconds. */
  fromMs: number;
  /** Exclusive upper bound; null for the last, open bucket. */
  toMs: number | null;
  count: number;
}

export interface TimeToFinal {
  /** Final messages whose duration was measured (the histogram's total). */
  measured: number;
  /** Final messages left out: no createdAt, no attempt with an updatedAt, or a last update before creation. */
  withoutTimes: number;
  medianMs: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  histogram: TimeToFinalRow[];
}

function fineIndex(ms: number): number {
  if (ms < FIRST_MS) return 0;
  return Math.min(FINE_BUCKETS - 1, 1 + Math.floor(Math.log(ms / FIRST_MS) / LOG_GROWTH));
}

/** A fine bucket's representative duration: the geometric midpoint of its bounds (the first: half a second). */
function fineMidpoint(index: number): number {
  if (index === 0) return FIRST_MS / 2;
  return FIRST_MS * GROWTH ** (index - 1) * Math.sqrt(GROWTH);
}

function shownIndex(ms: number): number {
  let index = 0;
  while (index + 1 < SHOWN_BOUNDS_MS.length && ms >= SHOWN_BOUNDS_MS[index + 1]!) index++;
  return index;
}

/**
 * Prometheus's cumulative buckets: final messages that took at most `leMs` each (the shown bounds but 0),
 * then every one; with the sum of their durations.
 */
export interface TimeToFinalBuckets {
  buckets: Array<{ leMs: number; count: number }>;
  count: number;
  sumMs: number;
}

export class TimeToFinalTally {
  private readonly fine = new Uint32Array(FINE_BUCKETS);
  private readonly shown = new Float64Array(SHOWN_BOUNDS_MS.length);
  /** Durations exactly on a shown bound: a `le` bucket holds them, the shown bucket that starts there does too. */
  private readonly onBound = new Float64Array(SHOWN_BOUNDS_MS.length);
  measured = 0;
  withoutTimes = 0;
  sumMs = 0;
  /** Durations of at most `limitMs`, counted exactly (the buckets are not): --max-time-to-final's check. */
  withinLimit = 0;

  /** `limitMs`: --max-time-to-final's duration, when given. */
  constructor(readonly limitMs?: number) {}

  /** Counts a message if its status is final; `createdAt` is its instant, already read by the caller. */
  add(message: CheckedMessage, status: string | undefined, createdAt: number | undefined): void {
    if (status === undefined || !FINAL_STATUSES.has(status)) return;
    const last = lastAttemptUpdate(message);
    if (createdAt === undefined || last === undefined || last < createdAt) {
      this.withoutTimes++;
      return;
    }
    this.addDuration(last - createdAt);
  }

  addDuration(ms: number): void {
    this.fine[fineIndex(ms)]!++;
    const shown = shownIndex(ms);
    this.shown[shown]!++;
    if (ms === SHOWN_BOUNDS_MS[shown]) this.onBound[shown]!++;
    this.measured++;
    this.sumMs += ms;
    if (this.limitMs !== undefined && ms <= this.limitMs) this.withinLimit++;
  }

  absorb(other: TimeToFinalTally): void {
    for (let i = 0; i < FINE_BUCKETS; i++) this.fine[i]! += other.fine[i]!;
    for (let i = 0; i < this.shown.length; i++) {
      this.shown[i]! += other.shown[i]!;
      this.onBound[i]! += other.onBound[i]!;
    }
    this.measured += other.measured;
    this.withoutTimes += other.withoutTimes;
    this.sumMs += other.sumMs;
    this.withinLimit += other.withinLimit;
  }

  /** The histogram as Prometheus reads one: `le` (at most) buckets, cumulative, where the shown ones are [from, to). */
  buckets(): TimeToFinalBuckets {
    const buckets: TimeToFinalBuckets["buckets"] = [];
    let below = 0;
    for (let i = 1; i < SHOWN_BOUNDS_MS.length; i++) {
      below += this.shown[i - 1]!;
      buckets.push({ leMs: SHOWN_BOUNDS_MS[i]!, count: below + this.onBound[i]! });
    }
    return { buckets, count: this.measured, sumMs: this.sumMs };
  }

  summary(): TimeToFinal {
    return {
      measured: this.measured,
      withoutTimes: this.withoutTimes,
      medianMs: this.percentile(0.5),
      p90Ms: this.percentile(0.9),
      p99Ms: this.percentile(0.99),
      histogram: SHOWN_BOUNDS_MS.map((fromMs, i) => ({
        fromMs,
        toMs: SHOWN_BOUNDS_MS[i + 1] ?? null,
        count: this.shown[i]!,
      })),
    };
  }

  /** The nearest-rank percentile, as the midpoint of the fine bucket holding it, rounded to the millisecond. */
  percentile(fraction: number): number | null {
    if (this.measured === 0) return null;
    const rank = Math.max(1, Math.ceil(fraction * this.measured));
    let seen = 0;
    for (let i = 0; i < FINE_BUCKETS; i++) {
      seen += this.fine[i]!;
      if (seen >= rank) return Math.round(fineMidpoint(i));
    }
    return Math.round(fineMidpoint(FINE_BUCKETS - 1));
  }
}

/** The latest updatedAt among the listing's attempts; a scan, no list built (this runs for every message). */
function lastAttemptUpdate(message: CheckedMessage): number | undefined {
  const attempts = read(MESSAGE, message, "messageAttempts");
  if (attempts === undefined) return undefined;
  let last: number | undefined;
  for (const attempt of attempts) {
    if (typeof attempt !== "object" || attempt === null) continue;
    const at = instantOf(read(MESSAGE_ATTEMPT, attempt as Readonly<Record<string, unknown>>, "updatedAt"));
    if (at !== undefined && (last === undefined || at > last)) last = at;
  }
  return last;
}
