// Messages and failures per hour or day of the chosen time zone. Counts are kept per local hour (or per
// local day when asked), keyed by the instant the hour or day began, and folded into days at the end
// when the span calls for it: the span is only known once all is read. A local day is not always 24
// hours (daylight saving time), and a local hour need not start on a UTC hour (India, Nepal), so every
// boundary comes from the zone, never from dividing by a fixed length.
import type { TimeZone } from "../core/time.js";

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

export function intervalForSpan(spanMs: number): Interval {
  return spanMs <= HOURLY_UP_TO_MS ? "hour" : "day";
}

/** Where buckets begin in one zone. The last day found is remembered: messages mostly come in time order. */
export class BucketClock {
  private day = { start: Number.NaN, end: Number.NaN };

  constructor(readonly zone: TimeZone) {}

  start(at: number, interval: Interval): number {
    if (interval === "hour") return this.zone.startOfHour(at);
    if (!(at >= this.day.start && at < this.day.end))
      this.day = { start: this.zone.startOfDay(at), end: this.zone.startOfNextDay(at) };
    return this.day.start;
  }

  /** The start of the bucket after the one that starts at `start`. */
  next(start: number, interval: Interval): number {
    const next =
      interval === "hour" ? this.zone.startOfHour(start + INTERVAL_MS.hour) : this.zone.startOfNextDay(start);
    // Always forward, whatever an odd zone history says.
    return next > start ? next : start + INTERVAL_MS[interval];
  }
}

export class TimeTally {
  private counts = new Map<number, TimeCounts>();
  private readonly clock: BucketClock;
  /** Messages whose bucket would pass MAX_TIME_BUCKETS even per day (timestamps decades apart). */
  unplotted = 0;

  constructor(
    public interval: Interval,
    zone: TimeZone,
  ) {
    this.clock = new BucketClock(zone);
  }

  add(at: number, failed: boolean): void {
    let counts = this.counts.get(this.clock.start(at, this.interval));
    if (counts === undefined && this.counts.size >= MAX_TIME_BUCKETS && this.interval === "hour") {
      this.coarsen("day");
      counts = this.counts.get(this.clock.start(at, this.interval));
    }
    if (counts === undefined) {
      if (this.counts.size >= MAX_TIME_BUCKETS) {
        this.unplotted++;
        return;
      }
      counts = { messages: 0, failures: 0 };
      this.counts.set(this.clock.start(at, this.interval), counts);
    }
    counts.messages++;
    if (failed) counts.failures++;
  }

  /** Adds another tally's buckets (of the same zone) into this one, per the coarser interval of the two. */
  absorb(other: TimeTally): void {
    this.coarsen(other.interval);
    for (const [start, counts] of other.folded(this.interval)) {
      const into = this.counts.get(start);
      if (into !== undefined) {
        into.messages += counts.messages;
        into.failures += counts.failures;
      } else if (this.counts.size < MAX_TIME_BUCKETS) this.counts.set(start, { ...counts });
      else this.unplotted += counts.messages;
    }
    this.unplotted += other.unplotted;
  }

  /** Folds hours into days (exact: a local hour lies within one local day); never the other way. */
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
      const day = this.clock.start(start, interval);
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
