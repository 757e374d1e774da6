// From the running tally to the report `msgstat stats` prints, writes as JSON and cuts into CSV
// tables. The structure is documented field by field in docs/stats.md: change both together.
import { FINAL_STATUSES } from "../core/statuses.js";
import { exactDecimal, shiftDecimal } from "../core/numbers.js";
import { ATTEMPT_BUCKETS, type AttemptBucket, type StatsAccumulator } from "./accumulator.js";
import { isoInZone, type TimeZone } from "../core/time.js";
import { BucketClock, intervalForSpan, type Interval } from "./time-buckets.js";
import type { RecipientTest } from "../core/phone-number.js";
import type { TimeToFinal, TimeToFinalTally } from "./time-to-final.js";

export interface TimeToFinalLimit {
  ms: number;
  percentile: number;
}

export interface ReportScope {
  campaignId: string;
  batchId?: string;
  search?: string;
  /** An ending kept client-side (a national form, *digits): filters.search then reads "*<digits>". */
  recipientTest?: RecipientTest;
  statuses?: ReadonlySet<string>;
  since?: number;
  until?: number;
  /** --interval; undefined picks it from the span. */
  interval?: Interval;
  /** --max-failure-rate, in percent. */
  maxFailureRate?: number;
  /** --max-time-to-final: this percentile (50 to 99.9) of time to final status at most `ms`. */
  maxTimeToFinal?: TimeToFinalLimit;
  generatedAt: number;
  /** --tz: the zone whose hours and days the over-time buckets are. */
  timeZone: TimeZone;
}

export interface StatusRow {
  status: string | null;
  count: number;
  share: number;
  final: boolean;
  other?: true;
}

export interface ErrorRow {
  errorType: string | null;
  errorCode: string | null;
  count: number;
  share: number;
  other?: true;
}

export interface AttemptRow {
  attempts: AttemptBucket;
  count: number;
  share: number;
  success: number;
  failure: number;
}

export interface BatchRow {
  batchId: string | null;
  fileName: string | null;
  totalMessages: number | null;
  messages: number;
  success: number;
  failure: number;
  deliveryRate: number | null;
  other?: true;
}

export interface TimeRow {
  start: string;
  messages: number;
  failures: number;
  /**
   * The first or last bucket, when what was counted starts or ends inside it (--since, --until, else the
   * first and last createdAt): its figures are of part of the hour or day only.
   */
  partial?: true;
}

export interface StatsReport {
  version: 1;
  campaignId: string;
  /** The total of several campaigns only: those counted (its campaignId is them, comma-separated). */
  campaignIds?: string[];
  /** The total of several campaigns, when some could not be counted: those, which no figure includes. */
  campaignIdsNotCounted?: string[];
  batchId: string | null;
  generatedAt: string;
  filters: { search: string | null; statuses: string[] | null; since: string | null; until: string | null };
  totals: {
    messages: number;
    attempts: number;
    firstCreatedAt: string | null;
    lastCreatedAt: string | null;
    undated: number;
  };
  byStatus: StatusRow[];
  delivery: {
    final: number;
    success: number;
    failure: number;
    notFinal: number;
    deliveryRate: number | null;
    failureRate: number | null;
  };
  failures: ErrorRow[];
  attempts: { buckets: AttemptRow[]; succeededAfterRetry: number };
  batches: BatchRow[] | null;
  overTime: { interval: Interval; timeZone: string; buckets: TimeRow[]; unplotted: number };
  /** From createdAt to the last attempt's updatedAt, of final messages (docs/stats.md). */
  timeToFinal: TimeToFinal;
  /**
   * `maxFailureRate` is the percent as given (kept for compatibility); `maxFailureRatePercent` the same,
   * `maxFailureRateFraction` it as a fraction, comparable with `delivery.failureRate`. `checked` is false when
   * no message was final: there was no rate to compare (exit 8 without --watch).
   */
  threshold: {
    maxFailureRate: number;
    maxFailureRatePercent: number;
    maxFailureRateFraction: number;
    exceeded: boolean;
    checked: boolean;
  } | null;
  /**
   * --max-time-to-final: `exceeded` when more than `slowerAllowed` of the messages measured took longer than
   * `maxTimeToFinalMs` (then the percentile is above it); counted exactly, where `percentileMs` is the report's
   * estimate of the percentile. `checked` is false when no final message was measured (exit 8 without --watch).
   */
  timeToFinalThreshold: {
    maxTimeToFinalMs: number;
    percentile: number;
    percentileMs: number | null;
    slower: number;
    slowerAllowed: number;
    exceeded: boolean;
    checked: boolean;
  } | null;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
const rateOrNull = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const isoOrNull = (at: number | undefined): string | null => (at === undefined ? null : new Date(at).toISOString());
const byCountThen =
  <T extends { count: number }>(name: (row: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || name(a).localeCompare(name(b));

/**
 * The report of several campaigns' tallies added together (StatsAccumulator.absorb), naming them, and
 * those asked for that could not be counted: a partial report says so in every view.
 */
export function buildTotalReport(
  tally: StatsAccumulator,
  campaignIds: string[],
  scope: ReportScope,
  notCounted: readonly string[] = [],
): StatsReport {
  const { version, campaignId, ...rest } = buildReport(tally, { ...scope, campaignId: campaignIds.join(",") });
  const missing = notCounted.length > 0 ? { campaignIdsNotCounted: [...notCounted] } : {};
  return { version, campaignId, campaignIds, ...missing, ...rest };
}

export function buildReport(tally: StatsAccumulator, scope: ReportScope): StatsReport {
  const delivery = deliveryOf(tally);
  return {
    version: 1,
    campaignId: scope.campaignId,
    batchId: scope.batchId ?? null,
    generatedAt: new Date(scope.generatedAt).toISOString(),
    filters: {
      search: scope.recipientTest?.kind === "endsWith" ? `*${scope.recipientTest.digits}` : (scope.search ?? null),
      statuses: scope.statuses ? [...scope.statuses] : null,
      since: isoOrNull(scope.since),
      until: isoOrNull(scope.until),
    },
    totals: {
      messages: tally.messages,
      attempts: tally.attempts,
      firstCreatedAt: tally.oldest?.text ?? null,
      lastCreatedAt: tally.newest?.text ?? null,
      undated: tally.undated,
    },
    byStatus: statusRows(tally),
    delivery,
    failures: errorRows(tally),
    attempts: { buckets: attemptRows(tally), succeededAfterRetry: tally.succeededAfterRetry },
    batches: batchRows(tally),
    overTime: timeRows(tally, scope),
    threshold:
      scope.maxFailureRate === undefined
        ? null
        : {
            maxFailureRate: scope.maxFailureRate,
            maxFailureRatePercent: scope.maxFailureRate,
            maxFailureRateFraction: shiftDecimal(scope.maxFailureRate, -2),
            exceeded: exceeds(delivery, scope.maxFailureRate),
            checked: delivery.final > 0,
          },
    timeToFinal: tally.timeToFinal.summary(),
    timeToFinalThreshold: scope.maxTimeToFinal ? latenessOf(tally.timeToFinal, scope.maxTimeToFinal) : null,
  };
}

/**
 * The nearest-rank percentile p of n durations is the ceil(p/100 × n)-th shortest: it is above the limit
 * exactly when fewer than that many took at most the limit. Exact counts, p as the decimal it was written as.
 */
function latenessOf(
  tally: TimeToFinalTally,
  limit: TimeToFinalLimit,
): NonNullable<StatsReport["timeToFinalThreshold"]> {
  if (tally.limitMs !== limit.ms) throw new Error("the tally was not counted against --max-time-to-final's limit");
  const { measured, withinLimit } = tally;
  const p = exactDecimal(limit.percentile);
  const whole = 100n * 10n ** BigInt(p.scale);
  const rank = Number((p.digits * BigInt(measured) + whole - 1n) / whole);
  return {
    maxTimeToFinalMs: limit.ms,
    percentile: limit.percentile,
    percentileMs: tally.percentile(limit.percentile / 100),
    slower: measured - withinLimit,
    slowerAllowed: measured - rank,
    exceeded: measured > 0 && withinLimit < rank,
    checked: measured > 0,
  };
}

/**
 * Strictly above the limit; with no final message there is no rate, and nothing to alert on.
 * Compared in exact counts, failures x 100 > limit x final, the limit as the decimal it was written as:
 * 69 of 375 is 18.4 %, and 18.4 * 375 in floating point is 6899.999999999999.
 */
function exceeds(delivery: { failure: number; final: number }, maxPercent: number): boolean {
  if (delivery.final === 0) return false;
  const limit = exactDecimal(maxPercent);
  return BigInt(delivery.failure) * 100n * 10n ** BigInt(limit.scale) > limit.digits * BigInt(delivery.final);
}

function deliveryOf(tally: StatsAccumulator): StatsReport["delivery"] {
  let success = 0;
  let failure = 0;
  for (const [status, { count }] of tally.statuses.known()) {
    if (status === "success") success = count;
    if (status === "failure") failure = count;
  }
  const final = success + failure;
  return {
    final,
    success,
    failure,
    notFinal: tally.messages - final,
    deliveryRate: rateOrNull(success, final),
    failureRate: rateOrNull(failure, final),
  };
}

function statusRows(tally: StatsAccumulator): StatusRow[] {
  const rows: StatusRow[] = [...tally.statuses.known()].map(([status, { count }]) => ({
    status,
    count,
    share: ratio(count, tally.messages),
    final: FINAL_STATUSES.has(status),
  }));
  rows.sort(byCountThen((row) => row.status ?? ""));
  if (tally.withoutStatus > 0)
    rows.push({
      status: null,
      count: tally.withoutStatus,
      share: ratio(tally.withoutStatus, tally.messages),
      final: false,
    });
  const rest = tally.statuses.rest();
  if (rest)
    rows.push({ status: null, count: rest.count, share: ratio(rest.count, tally.messages), final: false, other: true });
  return rows;
}

function errorRows(tally: StatsAccumulator): ErrorRow[] {
  const known = [...tally.errors.known()].map(([, entry]) => entry);
  const failures = known.reduce((sum, entry) => sum + entry.count, 0) + (tally.errors.rest()?.count ?? 0);
  const rows: ErrorRow[] = known.map(({ errorType, errorCode, count }) => ({
    errorType,
    errorCode,
    count,
    share: ratio(count, failures),
  }));
  rows.sort(byCountThen((row) => `${row.errorType ?? ""}\u0000${row.errorCode ?? ""}`));
  const rest = tally.errors.rest();
  if (rest)
    rows.push({ errorType: null, errorCode: null, count: rest.count, share: ratio(rest.count, failures), other: true });
  return rows;
}

/** 1, 2, 3 and 4+ always; 0 and "unknown" (no attempt count sent) only when some message has them. */
function attemptRows(tally: StatsAccumulator): AttemptRow[] {
  return ATTEMPT_BUCKETS.map((attempts) => {
    const { messages, success, failure } = tally.attemptBuckets.get(attempts)!;
    return { attempts, count: messages, share: ratio(messages, tally.messages), success, failure };
  }).filter((row) => row.count > 0 || !["0", "unknown"].includes(row.attempts));
}

/** Batches in the order first seen (newest first, as listed), then the messages in no batch. */
function batchRows(tally: StatsAccumulator): BatchRow[] | null {
  if (!tally.batches) return null;
  const row = (
    batchId: string | null,
    counts: {
      fileName: string | null;
      totalMessages: number | null;
      messages: number;
      success: number;
      failure: number;
    },
  ): BatchRow => ({
    batchId,
    fileName: counts.fileName,
    totalMessages: counts.totalMessages,
    messages: counts.messages,
    success: counts.success,
    failure: counts.failure,
    deliveryRate: rateOrNull(counts.success, counts.success + counts.failure),
  });
  const rows = [...tally.batches.known()].map(([id, counts]) => row(id, counts));
  const rest = tally.batches.rest();
  if (rest) rows.push({ ...row(null, { ...rest, fileName: null, totalMessages: null }), other: true });
  if (tally.noBatch.messages > 0) rows.push(row(null, { ...tally.noBatch, fileName: null, totalMessages: null }));
  return rows;
}

function timeRows(tally: StatsAccumulator, scope: ReportScope): StatsReport["overTime"] {
  const zone = scope.timeZone;
  const span = tally.oldest && tally.newest ? tally.newest.at - tally.oldest.at : 0;
  const { interval, rows } = tally.time.buckets(scope.interval ?? intervalForSpan(span));
  // What was counted covers from --since (else the first createdAt) to --until (else the last), both inclusive.
  const from = scope.since ?? tally.oldest?.at;
  const to = scope.until ?? tally.newest?.at;
  const clock = new BucketClock(zone);
  const last = rows.length - 1;
  // The zone's own offset, so a bucket reads as the local hour or midnight it is.
  const buckets = rows.map(({ start, messages, failures }, i): TimeRow => {
    const cutAtStart = i === 0 && from !== undefined && from > start;
    const cutAtEnd = i === last && to !== undefined && to + 1 < clock.next(start, interval);
    return { start: isoInZone(start, zone), messages, failures, ...(cutAtStart || cutAtEnd ? { partial: true } : {}) };
  });
  return { interval, timeZone: zone.name, buckets, unplotted: tally.time.unplotted };
}
