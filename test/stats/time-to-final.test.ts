// Time to final status kept as fixed buckets: the percentiles within 1 % of the exact ones, whatever the
// spread, and memory that does not grow with the messages.
import { describe, expect, it } from "vitest";
import { SHOWN_BOUNDS_MS, TimeToFinalTally } from "../../src/stats/time-to-final.js";

const exactPercentile = (sorted: number[], fraction: number) =>
  sorted[Math.max(1, Math.ceil(fraction * sorted.length)) - 1]!;

describe("TimeToFinalTally", () => {
  it("gives median, p90 and p99 within 1 % of the exact nearest-rank values", () => {
    // A spread from 1.2 s to about 9 days, deterministic.
    const durations = Array.from({ length: 5000 }, (_, i) => Math.round(1200 * 1.0017 ** i + (i % 7) * 13));
    const tally = new TimeToFinalTally();
    for (const ms of durations) tally.addDuration(ms);
    const sorted = [...durations].sort((a, b) => a - b);
    const summary = tally.summary();
    for (const [key, fraction] of [
      ["medianMs", 0.5],
      ["p90Ms", 0.9],
      ["p99Ms", 0.99],
    ] as const) {
      const exact = exactPercentile(sorted, fraction);
      expect(Math.abs(summary[key]! - exact) / exact).toBeLessThanOrEqual(0.01);
    }
    expect(summary.measured).toBe(5000);
    expect(summary.histogram.reduce((sum, row) => sum + row.count, 0)).toBe(5000);
  });

  it("counts the histogram by its bounds: from inclusive, to exclusive, the last open", () => {
    const tally = new TimeToFinalTally();
    for (const ms of [0, 999, 1000, 59_999, 60_000, 8 * 86_400_000]) tally.addDuration(ms);
    const { histogram } = tally.summary();
    expect(histogram).toHaveLength(SHOWN_BOUNDS_MS.length);
    expect(histogram[0]).toEqual({ fromMs: 0, toMs: 1000, count: 2 });
    expect(histogram[1]).toEqual({ fromMs: 1000, toMs: 5000, count: 1 });
    expect(histogram.find((row) => row.fromMs === 30_000)!.count).toBe(1);
    expect(histogram.find((row) => row.fromMs === 60_000)!.count).toBe(1);
    expect(histogram.at(-1)).toEqual({ fromMs: 7 * 86_400_000, toMs: null, count: 1 });
  });

  it("reads only final messages, from createdAt to the latest attempt's updatedAt; one without times is counted apart", () => {
    const tally = new TimeToFinalTally();
    const created = Date.parse("2025-05-01T10:00:00.000Z");
    const attempts = [
      { status: "failure", updatedAt: "2025-05-01T10:00:30.000Z" },
      { status: "success", updatedAt: "2025-05-01T10:02:00.000Z" },
    ];
    tally.add({ id: "a", messageAttempts: attempts }, "success", created);
    tally.add({ id: "b", messageAttempts: attempts }, "created", created);
    tally.add({ id: "c", messageAttempts: [{ status: "success" }] }, "success", created);
    tally.add({ id: "d", messageAttempts: attempts }, "failure", undefined);
    tally.add({ id: "e", messageAttempts: attempts }, "failure", created + 3_600_000);
    const summary = tally.summary();
    expect(summary.measured).toBe(1);
    expect(summary.withoutTimes).toBe(3);
    expect(Math.abs(summary.medianMs! - 120_000)).toBeLessThanOrEqual(1200);
  });

  it("absorbs another tally as if its messages had been added", () => {
    const one = new TimeToFinalTally();
    const two = new TimeToFinalTally();
    one.addDuration(2000);
    two.addDuration(200_000);
    two.addDuration(300_000);
    one.absorb(two);
    expect(one.summary().measured).toBe(3);
    expect(Math.abs(one.summary().medianMs! - 200_000)).toBeLessThanOrEqual(2000);
  });
});

describe("TimeToFinalTally.buckets: Prometheus's le buckets", () => {
  it("counts each duration in every bucket whose bound it is at most, one exactly on a bound included", () => {
    const tally = new TimeToFinalTally();
    const durations = [0, 999, 1000, 1001, 4999, 5000, 59_999, 60_000, 60_001, 604_800_000, 604_800_001];
    for (const ms of durations) tally.addDuration(ms);
    const { buckets, count, sumMs } = tally.buckets();
    expect(buckets.map((bucket) => bucket.leMs)).toEqual(SHOWN_BOUNDS_MS.slice(1));
    for (const { leMs, count: atMost } of buckets)
      expect({ leMs, atMost }).toEqual({ leMs, atMost: durations.filter((ms) => ms <= leMs).length });
    expect(count).toBe(durations.length);
    expect(sumMs).toBe(durations.reduce((sum, ms) => sum + ms, 0));
  });

  it("adds another tally's buckets, sum and count within a limit", () => {
    const one = new TimeToFinalTally(5000);
    const other = new TimeToFinalTally(5000);
    for (const ms of [1000, 5000]) one.addDuration(ms);
    for (const ms of [5000, 5001]) other.addDuration(ms);
    one.absorb(other);
    expect(one.buckets().buckets[1]).toEqual({ leMs: 5000, count: 3 });
    expect(one.buckets().sumMs).toBe(16_001);
    expect(one.withinLimit).toBe(3);
  });
});
