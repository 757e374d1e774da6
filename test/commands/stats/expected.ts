// The figures a stats report should hold, worked out from raw pages in the plainest way (whole arrays,
// filter and reduce), independently of src/stats, so that the tests compare two separate derivations.
import type { Message, MessageAttempt } from "../../../src/core/message.js";
import { pageForward } from "../../sandbox/http-helpers.js";

export interface Scope {
  campaignId: string;
  batchId?: string;
  search?: string;
  statuses?: string[];
  since?: number;
  until?: number;
  interval?: "hour" | "day";
  /** --tz of a zone with one fixed offset all year (the arithmetic below knows no daylight saving time). */
  zone?: { name: string; offset: "+05:30" | "+00:00" };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every message of the listing, straight from the API with global fetch, then the client-side filters. */
export async function fetchSelected(base: string, scope: Scope): Promise<Message[]> {
  const path =
    scope.batchId === undefined
      ? `/campaigns/${scope.campaignId}/messages`
      : `/campaigns/${scope.campaignId}/batch/${scope.batchId}/messages`;
  const { messages } = await pageForward(base, path, 1000);
  return messages.filter((m) => {
    const at = Date.parse(m.createdAt);
    if (scope.search !== undefined && !m.recipient.includes(scope.search)) return false;
    if (scope.statuses !== undefined && !scope.statuses.includes(m.latestStatus)) return false;
    if (scope.since !== undefined && at < scope.since) return false;
    if (scope.until !== undefined && at > scope.until) return false;
    return true;
  });
}

const countWhere = <T>(items: T[], keep: (item: T) => boolean) => items.filter(keep).length;
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const rateOrNull = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function latestFailedAttempt(m: Message): MessageAttempt | undefined {
  const failed = (m.messageAttempts ?? []).filter((a) => a.errorType !== null || a.errorCode !== null);
  return failed.reduce<MessageAttempt | undefined>(
    (best, a) => (best === undefined || Date.parse(a.createdAt) >= Date.parse(best.createdAt) ? a : best),
    undefined,
  );
}

function attemptsOf(m: Message): number {
  return m.numAttempts ?? m.messageAttempts?.length ?? 0;
}

export function expectedStatusRows(messages: Message[]) {
  const names = [...new Set(messages.map((m) => m.latestStatus))];
  return names
    .map((status) => {
      const count = countWhere(messages, (m) => m.latestStatus === status);
      return {
        status,
        count,
        share: share(count, messages.length),
        final: status === "success" || status === "failure",
      };
    })
    .sort((a, b) => b.count - a.count || a.status.localeCompare(b.status));
}

export function expectedFailureRows(messages: Message[]) {
  const failures = messages.filter((m) => m.latestStatus === "failure");
  const keys = [
    ...new Set(
      failures.map((m) =>
        JSON.stringify([latestFailedAttempt(m)?.errorType ?? null, latestFailedAttempt(m)?.errorCode ?? null]),
      ),
    ),
  ];
  return keys
    .map((key) => {
      const [errorType, errorCode] = JSON.parse(key) as [string | null, string | null];
      const count = countWhere(
        failures,
        (m) =>
          (latestFailedAttempt(m)?.errorType ?? null) === errorType &&
          (latestFailedAttempt(m)?.errorCode ?? null) === errorCode,
      );
      return { errorType, errorCode, count, share: share(count, failures.length) };
    })
    .sort(
      (a, b) =>
        b.count - a.count || `${a.errorType}\u0000${a.errorCode}`.localeCompare(`${b.errorType}\u0000${b.errorCode}`),
    );
}

export function expectedAttemptRows(messages: Message[]) {
  const inBucket = (label: string) => (m: Message) =>
    label === "4+" ? attemptsOf(m) >= 4 : attemptsOf(m) === Number(label);
  return ["1", "2", "3", "4+"].map((attempts) => {
    const members = messages.filter(inBucket(attempts));
    return {
      attempts,
      count: members.length,
      share: share(members.length, messages.length),
      success: countWhere(members, (m) => m.latestStatus === "success"),
      failure: countWhere(members, (m) => m.latestStatus === "failure"),
    };
  });
}

export function expectedBatchRows(messages: Message[]) {
  const ids = [...new Set(messages.flatMap((m) => (m.batches ?? []).map((b) => b.id)))];
  const rowOf = (members: Message[], batchId: string | null) => {
    const batch = members[0]?.batches?.find((b) => b.id === batchId);
    const success = countWhere(members, (m) => m.latestStatus === "success");
    const failure = countWhere(members, (m) => m.latestStatus === "failure");
    return {
      batchId,
      fileName: batch?.originalFileName ?? null,
      totalMessages: batch?.totalMessages ?? null,
      messages: members.length,
      success,
      failure,
      deliveryRate: rateOrNull(success, success + failure),
    };
  };
  const rows = ids.map((id) =>
    rowOf(
      messages.filter((m) => m.batches?.some((b) => b.id === id)),
      id,
    ),
  );
  const loose = messages.filter((m) => (m.batches ?? []).length === 0);
  return loose.length > 0 ? [...rows, rowOf(loose, null)] : rows;
}

/** Buckets of a fixed-offset zone: local hours or days are UTC ones moved by the offset. */
export function expectedTimeRows(
  messages: Message[],
  interval: "hour" | "day",
  offset: "+05:30" | "+00:00" = "+00:00",
  window: { since?: number; until?: number } = {},
) {
  const size = interval === "hour" ? HOUR : DAY;
  const shift = offset === "+05:30" ? 5.5 * HOUR : 0;
  const startOf = (m: Message) => Math.floor((Date.parse(m.createdAt) + shift) / size) * size - shift;
  const starts = [...new Set(messages.map(startOf))].sort((a, b) => a - b);
  const times = messages.map((m) => Date.parse(m.createdAt));
  // Counted from --since (else the first createdAt) to --until (else the last), both inclusive.
  const from = window.since ?? Math.min(...times);
  const to = window.until ?? Math.max(...times);
  return starts.map((start, i) => {
    const members = messages.filter((m) => startOf(m) === start);
    const text =
      shift === 0 ? new Date(start).toISOString() : new Date(start + shift).toISOString().replace("Z", offset);
    const partial = (i === 0 && from > start) || (i === starts.length - 1 && to < start + size - 1);
    return {
      start: text,
      messages: members.length,
      failures: countWhere(members, (m) => m.latestStatus === "failure"),
      ...(partial ? { partial: true } : {}),
    };
  });
}

export function spanOf(messages: Message[]): { first: Message | undefined; last: Message | undefined; ms: number } {
  const byTime = [...messages].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const first = byTime[0];
  const last = byTime[byTime.length - 1];
  return { first, last, ms: first && last ? Date.parse(last.createdAt) - Date.parse(first.createdAt) : 0 };
}

/** The whole report but generatedAt, as docs/stats.md describes it. */
export function expectedReport(messages: Message[], scope: Scope, maxFailureRate?: number) {
  const success = countWhere(messages, (m) => m.latestStatus === "success");
  const failure = countWhere(messages, (m) => m.latestStatus === "failure");
  const final = success + failure;
  const span = spanOf(messages);
  const interval = scope.interval ?? (span.ms <= 2 * DAY ? "hour" : "day");
  return {
    version: 1,
    campaignId: scope.campaignId,
    batchId: scope.batchId ?? null,
    filters: {
      search: scope.search ?? null,
      statuses: scope.statuses ?? null,
      since: scope.since === undefined ? null : new Date(scope.since).toISOString(),
      until: scope.until === undefined ? null : new Date(scope.until).toISOString(),
    },
    totals: {
      messages: messages.length,
      attempts: messages.reduce((sum, m) => sum + attemptsOf(m), 0),
      firstCreatedAt: span.first?.createdAt ?? null,
      lastCreatedAt: span.last?.createdAt ?? null,
      undated: 0,
    },
    byStatus: expectedStatusRows(messages),
    delivery: {
      final,
      success,
      failure,
      notFinal: messages.length - final,
      deliveryRate: rateOrNull(success, final),
      failureRate: rateOrNull(failure, final),
    },
    failures: expectedFailureRows(messages),
    attempts: {
      buckets: expectedAttemptRows(messages),
      succeededAfterRetry: countWhere(messages, (m) => m.latestStatus === "success" && attemptsOf(m) >= 2),
    },
    batches: scope.batchId === undefined ? expectedBatchRows(messages) : null,
    overTime: {
      interval,
      timeZone: scope.zone?.name ?? "UTC",
      buckets: expectedTimeRows(messages, interval, scope.zone?.offset, scope),
      unplotted: 0,
    },
    threshold:
      maxFailureRate === undefined
        ? null
        : {
            maxFailureRate,
            maxFailureRatePercent: maxFailureRate,
            maxFailureRateFraction: maxFailureRate / 100,
            exceeded: final > 0 && (failure / final) * 100 > maxFailureRate,
            checked: final > 0,
          },
    timeToFinal: expectedTimeToFinal(messages),
    timeToFinalThreshold: null,
  };
}

/** The histogram's bounds as docs/stats.md lists them, in milliseconds. */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const SHOWN_BOUNDS = [
  0,
  SECOND,
  5 * SECOND,
  10 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/** An asymmetric matcher: a number within 1 % of `exact` (the histogram's promise in docs/stats.md). */
function withinOnePercentOf(exact: number) {
  return {
    $$typeof: Symbol.for("jest.asymmetricMatcher"),
    asymmetricMatch: (actual: unknown) => typeof actual === "number" && Math.abs(actual - exact) <= exact * 0.01,
    toString: () => `within 1 % of ${exact}`,
    toAsymmetricMatcher: () => `within 1 % of ${exact}`,
  };
}

/**
 * Every final message's duration in one sorted array (what msgstat does not keep), then the percentiles
 * by nearest rank, each matched within the 1 % docs/stats.md promises.
 */
/** Each final message's time to final status, in ms, shortest first (those without the times left out). */
export function finalDurations(messages: Message[]): number[] {
  return messages
    .filter((m) => m.latestStatus === "success" || m.latestStatus === "failure")
    .map((m) => Math.max(...(m.messageAttempts ?? []).map((a) => Date.parse(a.updatedAt))) - Date.parse(m.createdAt))
    .filter((ms) => Number.isFinite(ms) && ms >= 0)
    .sort((a, b) => a - b);
}

export function expectedTimeToFinal(messages: Message[]) {
  const durations = finalDurations(messages);
  const finals = countWhere(messages, (m) => m.latestStatus === "success" || m.latestStatus === "failure");
  const at = (fraction: number) => {
    if (durations.length === 0) return null;
    const exact = durations[Math.max(1, Math.ceil(fraction * durations.length)) - 1]!;
    // Under a second is one bucket, read as half a second.
    return exact < SECOND ? 500 : withinOnePercentOf(exact);
  };
  return {
    measured: durations.length,
    withoutTimes: finals - durations.length,
    medianMs: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    histogram: SHOWN_BOUNDS.map((fromMs, i) => {
      const toMs = SHOWN_BOUNDS[i + 1] ?? null;
      return { fromMs, toMs, count: countWhere(durations, (ms) => ms >= fromMs && (toMs === null || ms < toMs)) };
    }),
  };
}
