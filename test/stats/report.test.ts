// The report built from a tally: every section of what `msgstat stats --json` prints (docs/stats.md),
// its order and its rates, written out by hand for a handful of messages.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { StatsAccumulator } from "../../src/stats/accumulator.js";
import { buildReport, type ReportScope } from "../../src/stats/report.js";

const UTC = TimeZone.named("UTC")!;
const NOW = Date.parse("2025-05-01T12:00:00.000Z");

function failedWith(errorType: string | null, errorCode: string | null) {
  return [
    {
      status: "failure",
      createdAt: "2025-05-01T10:00:00.000Z",
      updatedAt: "2025-05-01T10:41:30.000Z",
      errorType,
      errorCode,
    },
  ];
}

function tallyOf(messages: Partial<CheckedMessage>[], byBatch = true, timeZone = UTC): StatsAccumulator {
  const tally = new StatsAccumulator({ byBatch, timeZone });
  messages.forEach((fields, i) =>
    tally.add({ id: `m${i}`, createdAt: "2025-05-01T10:15:00.000Z", numAttempts: 1, batches: [], ...fields }),
  );
  return tally;
}

const scope = (more: Partial<ReportScope> = {}): ReportScope => ({
  campaignId: "cmp",
  generatedAt: NOW,
  timeZone: UTC,
  ...more,
});

describe("buildReport", () => {
  it("a small campaign, section by section", () => {
    const batch = { id: "b1", originalFileName: "one.csv", totalMessages: 3 };
    const tally = tallyOf([
      { latestStatus: "success", createdAt: "2025-05-01T09:10:00.000Z", batches: [batch] },
      { latestStatus: "success", numAttempts: 3, createdAt: "2025-05-01T10:20:00.000Z", batches: [batch] },
      {
        latestStatus: "failure",
        numAttempts: 2,
        createdAt: "2025-05-01T10:40:00.000Z",
        messageAttempts: failedWith("delivery_error", "unreachable"),
      },
      { latestStatus: "pending", numAttempts: 0, createdAt: "2025-05-01T11:05:00.000Z" },
    ]);
    const { timeToFinal, ...built } = buildReport(tally, scope({ search: "1555", since: NOW - 6 * 3_600_000 }));
    // Only the failure has an attempt with an updatedAt: 90 s after it was created. The successes are
    // final but their attempts carry no times: left out, and counted as such.
    expect(timeToFinal).toMatchObject({ measured: 1, withoutTimes: 2 });
    for (const ms of [timeToFinal.medianMs, timeToFinal.p90Ms, timeToFinal.p99Ms])
      expect(Math.abs(ms! - 90_000)).toBeLessThanOrEqual(900);
    expect(timeToFinal.histogram).toContainEqual({ fromMs: 60_000, toMs: 120_000, count: 1 });
    expect(built).toEqual({
      version: 1,
      campaignId: "cmp",
      batchId: null,
      generatedAt: "2025-05-01T12:00:00.000Z",
      filters: { search: "1555", statuses: null, since: "2025-05-01T06:00:00.000Z", until: null },
      totals: {
        messages: 4,
        attempts: 6,
        firstCreatedAt: "2025-05-01T09:10:00.000Z",
        lastCreatedAt: "2025-05-01T11:05:00.000Z",
        undated: 0,
      },
      byStatus: [
        { status: "success", count: 2, share: 0.5, final: true },
        { status: "failure", count: 1, share: 0.25, final: true },
        { status: "pending", count: 1, share: 0.25, final: false },
      ],
      delivery: { final: 3, success: 2, failure: 1, notFinal: 1, deliveryRate: 2 / 3, failureRate: 1 / 3 },
      failures: [{ errorType: "delivery_error", errorCode: "unreachable", count: 1, share: 1 }],
      attempts: {
        buckets: [
          { attempts: "0", count: 1, share: 0.25, success: 0, failure: 0 },
          { attempts: "1", count: 1, share: 0.25, success: 1, failure: 0 },
          { attempts: "2", count: 1, share: 0.25, success: 0, failure: 1 },
          { attempts: "3", count: 1, share: 0.25, success: 1, failure: 0 },
          { attempts: "4+", count: 0, share: 0, success: 0, failure: 0 },
        ],
        succeededAfterRetry: 1,
      },
      batches: [
        { batchId: "b1", fileName: "one.csv", totalMessages: 3, messages: 2, success: 2, failure: 0, deliveryRate: 1 },
        { batchId: null, fileName: null, totalMessages: null, messages: 2, success: 0, failure: 1, deliveryRate: 0 },
      ],
      overTime: {
        interval: "hour",
        timeZone: "UTC",
        buckets: [
          { start: "2025-05-01T09:00:00.000Z", messages: 1, failures: 0 },
          { start: "2025-05-01T10:00:00.000Z", messages: 2, failures: 1 },
          { start: "2025-05-01T11:00:00.000Z", messages: 1, failures: 0, partial: true },
        ],
        unplotted: 0,
      },
      threshold: null,
      timeToFinalThreshold: null,
    });
  });

  it("an empty tally: zeros, no rates, no time buckets", () => {
    const built = buildReport(tallyOf([]), scope({ batchId: "b9", maxFailureRate: 5 }));
    expect(built.batchId).toBe("b9");
    expect(built.totals).toEqual({ messages: 0, attempts: 0, firstCreatedAt: null, lastCreatedAt: null, undated: 0 });
    expect(built.byStatus).toEqual([]);
    expect(built.delivery).toEqual({
      final: 0,
      success: 0,
      failure: 0,
      notFinal: 0,
      deliveryRate: null,
      failureRate: null,
    });
    expect(built.attempts.buckets.map((row) => row.attempts)).toEqual(["1", "2", "3", "4+"]);
    expect(built.attempts.buckets.every((row) => row.share === 0)).toBe(true);
    expect(built.overTime.buckets).toEqual([]);
    // No final message: no rate to alert on, and the threshold says it was not checked.
    expect(built.threshold).toEqual({
      maxFailureRate: 5,
      maxFailureRatePercent: 5,
      maxFailureRateFraction: 0.05,
      exceeded: false,
      checked: false,
    });
  });

  it("statuses and errors by count, then by name; the statuses filter as a list", () => {
    const built = buildReport(
      tallyOf([
        { latestStatus: "queued" },
        { latestStatus: "failure", messageAttempts: failedWith("b", "2") },
        { latestStatus: "failure", messageAttempts: failedWith("a", "9") },
        { latestStatus: "failure", messageAttempts: failedWith("b", "2") },
        { latestStatus: "failure", messageAttempts: failedWith("a", "1") },
        { latestStatus: "accepted" },
      ]),
      scope({ statuses: new Set(["failure", "queued", "accepted"]) }),
    );
    expect(built.filters.statuses).toEqual(["failure", "queued", "accepted"]);
    expect(built.byStatus.map((row) => [row.status, row.count, row.final])).toEqual([
      ["failure", 4, true],
      ["accepted", 1, false],
      ["queued", 1, false],
    ]);
    expect(built.failures.map((row) => [row.errorType, row.errorCode, row.count, row.share])).toEqual([
      ["b", "2", 2, 0.5],
      ["a", "1", 1, 0.25],
      ["a", "9", 1, 0.25],
    ]);
  });

  it("a batch's report has no batch table", () => {
    expect(buildReport(tallyOf([{ latestStatus: "success" }], false), scope({ batchId: "b1" })).batches).toBeNull();
  });

  it("over time in the zone asked for: buckets start at the zone's hours, written with its offset", () => {
    const kolkata = TimeZone.named("Asia/Kolkata")!;
    const tally = tallyOf(
      [
        { latestStatus: "failure", createdAt: "2025-05-01T10:15:00.000Z" },
        { latestStatus: "success", createdAt: "2025-05-01T10:45:00.000Z" },
      ],
      false,
      kolkata,
    );
    expect(buildReport(tally, scope({ timeZone: kolkata })).overTime).toEqual({
      interval: "hour",
      timeZone: "Asia/Kolkata",
      buckets: [
        { start: "2025-05-01T15:00:00.000+05:30", messages: 1, failures: 1, partial: true },
        { start: "2025-05-01T16:00:00.000+05:30", messages: 1, failures: 0, partial: true },
      ],
      unplotted: 0,
    });
  });

  describe("a first or last hour or day counted only in part is marked partial", () => {
    const tally = () =>
      tallyOf(
        [
          { latestStatus: "success", createdAt: "2025-05-01T10:30:00.000Z" },
          { latestStatus: "failure", createdAt: "2025-05-02T13:00:00.000Z" },
          { latestStatus: "success", createdAt: "2025-05-03T09:00:00.000Z" },
        ],
        false,
      );
    const marks = (more: Partial<ReportScope>) =>
      buildReport(tally(), scope({ interval: "day", ...more })).overTime.buckets.map((row) => row.partial ?? false);
    it.each([
      ["no window: the messages start and end inside the first and last day", {}, [true, false, true]],
      [
        "a window of whole days (--since 2025-05-01 --until 2025-05-03)",
        { since: Date.parse("2025-05-01T00:00:00.000Z"), until: Date.parse("2025-05-03T23:59:59.999Z") },
        [false, false, false],
      ],
      [
        "a window that starts and ends inside those days",
        { since: Date.parse("2025-05-01T06:00:00.000Z"), until: Date.parse("2025-05-03T18:00:00.000Z") },
        [true, false, true],
      ],
      [
        "a window wider than the messages: the days it covers whole are whole",
        { since: Date.parse("2025-04-28T00:00:00.000Z"), until: Date.parse("2025-05-06T12:00:00.000Z") },
        [false, false, false],
      ],
    ])("%s", (_, window, expected) => {
      expect(marks(window)).toEqual(expected);
    });
  });

  it("--interval day is kept even for a span of hours", () => {
    const tally = tallyOf([{ latestStatus: "success" }], false);
    const built = buildReport(tally, scope({ interval: "day" }));
    expect(built.overTime.interval).toBe("day");
    expect(built.overTime.buckets).toEqual([
      { start: "2025-05-01T00:00:00.000Z", messages: 1, failures: 0, partial: true },
    ]);
  });

  it.each([
    [50, 1, 2, false],
    [49.9, 1, 2, true],
    [0, 0, 3, false],
    [0, 1, 3, true],
  ])("--max-failure-rate %s with %i failure(s) of %i final messages: exceeded %s", (limit, failed, final, exceeded) => {
    const messages = Array.from({ length: final }, (_, i) => ({ latestStatus: i < failed ? "failure" : "success" }));
    const built = buildReport(tallyOf([...messages, { latestStatus: "pending" }]), scope({ maxFailureRate: limit }));
    expect(built.threshold).toEqual({
      maxFailureRate: limit,
      maxFailureRatePercent: limit,
      maxFailureRateFraction: limit / 100,
      exceeded,
      checked: true,
    });
  });
});

// From stats/accumulator.test.ts.
describe("--max-failure-rate at the limit", () => {
  // 7 of 100 is 0.07, and 0.07 * 100 is 7.000000000000001 in floating point: the comparison is in counts.
  const sevenOfHundred = () => {
    return tallyOf(
      Array.from({ length: 100 }, (_, i) => ({ latestStatus: i < 7 ? "failure" : "success" })),
      false,
    );
  };
  it.each([
    [7, false],
    [6.99, true],
  ])("limit %s%%: exceeded %s", (limit, exceeded) => {
    const built = buildReport(sevenOfHundred(), {
      campaignId: "c",
      generatedAt: NOW,
      maxFailureRate: limit,
      timeZone: UTC,
    });
    expect(built.threshold).toEqual({
      maxFailureRate: limit,
      maxFailureRatePercent: limit,
      maxFailureRateFraction: limit / 100,
      exceeded,
      checked: true,
    });
  });
});

describe("--max-time-to-final: the nearest-rank percentile against the limit, in exact counts", () => {
  // 1,000 durations of 1 s to 1,000 s: the 99.9th percentile is the 999th, 999 s; the 95th the 950th.
  const tallyWithin = (limitMs: number) => {
    const tally = new StatsAccumulator({ byBatch: false, timeZone: UTC, maxTimeToFinalMs: limitMs });
    for (let s = 1; s <= 1000; s++) tally.timeToFinal.addDuration(s * 1000);
    return tally;
  };
  const check = (limitMs: number, percentile: number) =>
    buildReport(tallyWithin(limitMs), scope({ maxTimeToFinal: { ms: limitMs, percentile } })).timeToFinalThreshold;
  it.each([
    [999_000, 99.9, false, 1, 1],
    [998_999, 99.9, true, 2, 1],
    [950_000, 95, false, 50, 50],
    [949_999, 95, true, 51, 50],
    [500_000, 50, false, 500, 500],
    [499_999, 50, true, 501, 500],
  ])("limit %s ms at the %sth: exceeded %s (%s slower, %s allowed)", (ms, percentile, exceeded, slower, allowed) => {
    expect(check(ms, percentile)).toMatchObject({
      maxTimeToFinalMs: ms,
      percentile,
      slower,
      slowerAllowed: allowed,
      exceeded,
      checked: true,
    });
  });

  it("nothing measured: not checked, not exceeded; without the flag, null", () => {
    const tally = new StatsAccumulator({ byBatch: false, timeZone: UTC, maxTimeToFinalMs: 1000 });
    expect(buildReport(tally, scope({ maxTimeToFinal: { ms: 1000, percentile: 95 } })).timeToFinalThreshold).toEqual({
      maxTimeToFinalMs: 1000,
      percentile: 95,
      percentileMs: null,
      slower: 0,
      slowerAllowed: 0,
      exceeded: false,
      checked: false,
    });
    expect(buildReport(tally, scope()).timeToFinalThreshold).toBeNull();
  });
});
