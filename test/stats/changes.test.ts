import { describe, expect, it } from "vitest";
import { changesSince } from "../../src/stats/changes.js";
import type { StatsReport } from "../../src/stats/report.js";

function report(at: string, messages: number, byStatus: Array<[string | null, number]>): StatsReport {
  return {
    generatedAt: at,
    totals: { messages },
    byStatus: byStatus.map(([status, count]) => ({ status, count, share: 0, final: false })),
  } as unknown as StatsReport;
}

describe("changesSince", () => {
  it("counts what moved, largest first, and the pace per minute", () => {
    const first = report("2026-11-22T09:00:00.000Z", 100, [
      ["success", 80],
      ["created", 15],
      ["failure", 5],
    ]);
    const latest = report("2026-11-22T09:03:10.000Z", 190, [
      ["success", 150],
      ["created", 20],
      ["failure", 20],
    ]);
    expect(changesSince(first, latest)).toEqual({
      elapsedMs: 190_000,
      messages: 90,
      byStatus: [
        { status: "success", change: 70 },
        { status: "failure", change: 15 },
        { status: "created", change: 5 },
      ],
      messagesPerMinute: (90 * 60_000) / 190_000,
    });
  });

  it("shows statuses that appear or empty, and leaves out those that did not move", () => {
    const first = report("2026-11-22T09:00:00.000Z", 10, [
      ["created", 10],
      ["success", 0],
    ]);
    const latest = report("2026-11-22T09:00:30.000Z", 10, [
      ["success", 7],
      [null, 3],
    ]);
    expect(changesSince(first, latest).byStatus).toEqual([
      { status: "created", change: -10 },
      { status: "success", change: 7 },
      { status: null, change: 3 },
    ]);
  });

  it("has no pace on the first round", () => {
    const first = report("2026-11-22T09:00:00.000Z", 10, []);
    expect(changesSince(first, first)).toMatchObject({
      elapsedMs: 0,
      messages: 0,
      byStatus: [],
      messagesPerMinute: null,
    });
  });
});
