// Messages and failures per UTC hour or day. Counts are kept per hour (or per day when asked), and
// folded into days at the end when the span calls for it: the span is only known once all is read.

export const INTERVALS = ["hour", "day"] as const;
export type Interval = (typeof INTERVALS)[number];

export const INTERVAL_MS: Record<Interval, number> = { hour: 3_600_000, day: 86_400_000 };

/** Up to two days are drawn per hour (at most 48 bars); anything longer per day. */
const HOURLY_UP_TO_MS = 2 * INTERVAL_MS.day;

/** About two years of hours, or fifty-five of days: only nonsense timestamps get further apart. */
export const MAX_TIME_BUCKETS = 20_000;

export interface TimeCounts {
  messages: number;
  failures: number;
}

export function bucketStart(at: number, interval: Interval): number {
  const size = INTERVAL_MS[interval];
  return Math.floor(at / size) * size;
}

export function intervalForSpan(spanMs: number): Interval {
  return spanMs <= HOURLY_UP_TO_MS ? "hour" : "day";
}

export class TimeTally {
  private counts = new Map<number, TimeCounts>();
  /** Messages whose bucket would pass MAX_TIME_BUCKETS even per day (timestamps decades apart). */
  unplotted = 0;

  constructor(public interval: Interval) {}

  add(at: number, failed: boolean): void {
    let counts = this.counts.get(bucketStart(at, this.interval));
    if (counts === undefined && this.counts.size >= MAX_TIME_BUCKETS && this.interval === "hour") {
      this.coarsen("day");
      counts = this.counts.get(bucketStart(at, this.interval));
    }
    if (counts === undefined) {
      if (this.counts.size >= MAX_TIME_BUCKETS) {
        this.unplotted++;
        return;
      }
      counts = { messages: 0, failures: 0 };
      this.counts.set(bucketStart(at, this.interval), counts);
    }
    counts.messages++;
    if (failed) counts.failures++;
  }

  /** Folds hours into UTC days (exact: a UTC day is 24 whole UTC hours); never the other way. */
  coarsen(interval: Interval): void {
    this.counts = this.folded(interval);
    this.interval = coarser(this.interval, interval);
  }

  /** Non-empty buckets, oldest first, per `interval` or per the tally's own when that is coarser. */
  buckets(interval: Interval = this.interval): { interval: Interval; rows: Array<{ start: number } & TimeCounts> } {
    const rows = [...this.folded(interval)].sort(([a], [b]) => a - b).map(([start, counts]) => ({ start, ...counts }));
    return { interval: coarser(this.interval, interval), rows };
  }

  private folded(interval: Interval): Map<number, TimeCounts> {
    if (coarser(this.interval, interval) === this.interval) return this.counts;
    const folded = new Map<number, TimeCounts>();
    for (const [start, counts] of this.counts) {
      const day = bucketStart(start, interval);
      const into = folded.get(day) ?? { messages: 0, failures: 0 };
      into.messages += counts.messages;
      into.failures += counts.failures;
      folded.set(day, into);
    }
    return folded;
  }
}

function coarser(a: Interval, b: Interval): Interval {
  return INTERVAL_MS[a] >= INTERVAL_MS[b] ? a : b;
}
