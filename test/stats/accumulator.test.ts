// The pure parts of `msgstat stats`: what the tally does with odd messages, and that what it keeps is
// bounded by caps, not by the number of messages or of distinct values the server invents.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { percentText as percent } from "../../src/core/numbers.js";
import { CAPS, StatsAccumulator } from "../../src/stats/accumulator.js";
import { buildReport } from "../../src/stats/report.js";
import { MAX_TIME_BUCKETS } from "../../src/stats/time-buckets.js";
import { TimeZone } from "../../src/core/time.js";

const UTC = TimeZone.named("UTC")!;

const NOW = Date.parse("2025-05-01T12:00:00.000Z");
let serial = 0;

function message(fields: Partial<CheckedMessage> = {}): CheckedMessage {
  return {
    id: `m${serial++}`,
    createdAt: "2025-05-01T10:15:00.000+02:00",
    latestStatus: "success",
    numAttempts: 1,
    batches: [],
    ...fields,
  };
}

function report(messages: CheckedMessage[], options: { byBatch?: boolean } = {}) {
  const tally = new StatsAccumulator({ byBatch: options.byBatch ?? true, timeZone: UTC });
  for (const m of messages) tally.add(m);
  return buildReport(tally, { campaignId: "c", generatedAt: NOW, timeZone: UTC });
}

describe("the tally", () => {
  it("counts a message in two batches in each, and one in none in the no-batch row", () => {
    const a = { id: "b1", originalFileName: "one.csv", totalMessages: 10 };
    const b = { id: "b2", originalFileName: "two.csv", totalMessages: 20 };
    const rows = report([
      message({ batches: [a, b], latestStatus: "failure" }),
      message({ batches: [a] }),
      message({ batchId: "b3" }),
      message(),
    ]).batches;
    expect(rows).toEqual([
      { batchId: "b1", fileName: "one.csv", totalMessages: 10, messages: 2, success: 1, failure: 1, deliveryRate: 0.5 },
      { batchId: "b2", fileName: "two.csv", totalMessages: 20, messages: 1, success: 0, failure: 1, deliveryRate: 0 },
      { batchId: "b3", fileName: null, totalMessages: null, messages: 1, success: 1, failure: 0, deliveryRate: 1 },
      { batchId: null, fileName: null, totalMessages: null, messages: 1, success: 1, failure: 0, deliveryRate: 1 },
    ]);
  });

  it("keeps messages without status, attempts or createdAt, and says so", () => {
    const built = report([
      message({ latestStatus: undefined, numAttempts: undefined, createdAt: undefined }),
      message({ numAttempts: 0, latestStatus: "failure", messageAttempts: [] }),
    ]);
    expect(built.byStatus).toEqual([
      { status: "failure", count: 1, share: 0.5, final: true },
      { status: null, count: 1, share: 0.5, final: false },
    ]);
    expect(built.attempts.buckets.map((row) => [row.attempts, row.count])).toEqual([
      ["0", 1],
      ["1", 0],
      ["2", 0],
      ["3", 0],
      ["4+", 0],
      ["unknown", 1],
    ]);
    expect(built.failures).toEqual([{ errorType: null, errorCode: null, count: 1, share: 1 }]);
    expect(built.totals.undated).toBe(1);
    expect(built.overTime.buckets).toEqual([
      { start: "2025-05-01T08:00:00.000Z", messages: 1, failures: 1, partial: true },
    ]);
  });

  it("takes the error of the newest failed attempt, whatever the order of the list", () => {
    const attempts = [
      { status: "failure", createdAt: "2025-05-01T10:00:02.000Z", errorType: "delivery_error", errorCode: "late" },
      { status: "failure", createdAt: "2025-05-01T10:00:01.000Z", errorType: "server_error", errorCode: "early" },
    ];
    expect(
      report([message({ latestStatus: "failure", numAttempts: 2, messageAttempts: attempts })]).failures[0],
    ).toMatchObject({ errorType: "delivery_error", errorCode: "late" });
  });

  it("past its cap, counts the rest of the distinct values in one 'other' row", () => {
    const messages = Array.from({ length: CAPS.errors + 5 }, (_, i) =>
      message({
        latestStatus: "failure",
        messageAttempts: [
          { status: "failure", createdAt: "2025-05-01T10:00:00.000Z", errorType: "t", errorCode: `code-${i}` },
        ],
      }),
    );
    const { failures } = report(messages);
    expect(failures.length).toBe(CAPS.errors + 1);
    expect(failures[failures.length - 1]).toEqual({
      errorType: null,
      errorCode: null,
      count: 5,
      share: 5 / messages.length,
      other: true,
    });
    expect(failures.reduce((sum, row) => sum + row.count, 0)).toBe(messages.length);
  });

  it("folds hours into days when timestamps are years apart, and leaves out what is decades away", () => {
    const tally = new StatsAccumulator({ byBatch: false, interval: "hour", timeZone: UTC });
    const hour = 3_600_000;
    for (let i = 0; i <= MAX_TIME_BUCKETS; i++) tally.add(message({ createdAt: new Date(i * hour).toISOString() }));
    expect(tally.time.interval).toBe("day");
    const days = 86_400_000;
    for (let i = 0; i < MAX_TIME_BUCKETS; i++)
      tally.add(message({ createdAt: new Date(NOW + i * 2 * days).toISOString() }));
    const built = buildReport(tally, { campaignId: "c", generatedAt: NOW, interval: "hour", timeZone: UTC });
    expect(built.overTime.interval).toBe("day");
    expect(built.overTime.buckets.length).toBe(MAX_TIME_BUCKETS);
    expect(built.overTime.buckets.reduce((sum, row) => sum + row.messages, 0) + built.overTime.unplotted).toBe(
      tally.messages,
    );
    expect(built.overTime.unplotted).toBeGreaterThan(0);
  });
});

describe("percent", () => {
  it.each([
    [null, "–"],
    [0, "0%"],
    [1, "100%"],
    [0.0004, "<0.1%"],
    [0.9996, ">99.9%"],
    [0.1234, "12.3%"],
  ])("%s is %s", (share, text) => expect(percent(share)).toBe(text));
});

describe("the over-time picture", () => {
  it("draws timestamps centuries apart without filling in the years between", async () => {
    const { renderStatsReport } = await import("../../src/reports/terminal.js");
    const { plainPalette } = await import("../../src/terminal/palette.js");
    const built = report([
      message({ createdAt: "+200000-01-01T00:00:00.000Z" }),
      message({ createdAt: "-100000-01-01T00:00:00.000Z" }),
      message(),
    ]);
    const text = renderStatsReport(built, { columns: 80, palette: plainPalette, timeZone: UTC });
    expect(text).toMatch(/^ {2}messages {2}█ +█ +█ {2}max 1$/m);
  });
});
