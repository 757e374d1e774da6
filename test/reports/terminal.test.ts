// The stats report's tables (src/reports/terminal.ts), laid out by the listing's engine: labels
// padded by the cells a terminal gives them, so the figures line up after CJK, emoji ZWJ sequences,
// flags and combining marks; on a narrow terminal the bar gives way first, then the label, and the
// rightmost figures go before the label is cut below twelve cells. Expected lines are written out.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { plainPalette } from "../../src/terminal/palette.js";
import { renderStatsReport } from "../../src/reports/terminal.js";
import { StatsAccumulator } from "../../src/stats/accumulator.js";
import { buildReport } from "../../src/stats/report.js";

const UTC = TimeZone.named("UTC")!;
const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦, two cells
const FRANCE = "\u{1F1EB}\u{1F1F7}"; // 🇫🇷, two cells

let serial = 0;
const message = (fields: Partial<CheckedMessage>): CheckedMessage => ({
  id: `m${serial++}`,
  createdAt: "2025-05-01T10:15:00.000Z",
  latestStatus: "success",
  numAttempts: 1,
  ...fields,
});
const failed = (code: string) => ({
  latestStatus: "failure",
  messageAttempts: [
    { status: "failure", createdAt: "2025-05-01T10:16:00.000Z", errorType: "delivery_error", errorCode: code },
  ],
});
const inBatch = (id: string, file: string) => ({ batches: [{ id, originalFileName: file, totalMessages: 4 }] });

function report(columns: number): string {
  const tally = new StatsAccumulator({ byBatch: true, timeZone: UTC });
  for (const m of [
    message(inBatch("b1", "顧客リスト.csv")),
    message(inBatch("b1", "顧客リスト.csv")),
    message({ ...inBatch("b1", "顧客リスト.csv"), ...failed(`blocked_${FAMILY}`) }),
    message({ ...inBatch("b2", `${FRANCE} vague-1.csv`), ...failed("recipient_unavailable") }),
    message({ ...inBatch("b2", `${FRANCE} vague-1.csv`), createdAt: "2025-05-01T11:15:00.000Z", numAttempts: 2 }),
    message({
      ...inBatch("b3", "Cafe\u0301 e\u0301te\u0301 campaign final list.csv"),
      createdAt: "2025-05-01T12:15:00.000Z",
      latestStatus: "created",
    }),
  ])
    tally.add(m);
  const built = buildReport(tally, {
    campaignId: "cmp-1",
    generatedAt: Date.parse("2025-05-03T00:00:00Z"),
    timeZone: UTC,
  });
  return renderStatsReport(built, { columns, palette: plainPalette, timeZone: UTC });
}

/** The lines of one section, from its heading to the blank line after it. */
function section(text: string, heading: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(heading));
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? undefined : end);
}

describe("By batch, a series of uploads at 80 columns", () => {
  it("keeps the end of each file name, where the series differs, and drops the bar for it", () => {
    const tally = new StatsAccumulator({ byBatch: true, timeZone: UTC });
    for (let wave = 1; wave <= 3; wave++)
      tally.add(message(inBatch(`bat-spring-w${wave}`, `spring-sale-wave-${wave}.csv`)));
    const built = buildReport(tally, {
      campaignId: "cmp-1",
      generatedAt: Date.parse("2025-05-03T00:00:00Z"),
      timeZone: UTC,
    });
    const lines = (columns: number) =>
      section(renderStatsReport(built, { columns, palette: plainPalette, timeZone: UTC }), "By batch");
    expect(lines(80)).toEqual([
      "By batch",
      "  batch id       file                 size  counted  success  failure  delivered",
      "  bat-spring-w1  spring-sa…ave-1.csv     4        1        1        0       100%",
      "  bat-spring-w2  spring-sa…ave-2.csv     4        1        1        0       100%",
      "  bat-spring-w3  spring-sa…ave-3.csv     4        1        1        0       100%",
    ]);
    // With room for the names and a bar, both.
    expect(lines(100)).toEqual([
      "By batch",
      "  batch id       file                    size  counted  success  failure  delivered",
      "  bat-spring-w1  spring-sale-wave-1.csv     4        1        1        0       100%  ███████████████",
      "  bat-spring-w2  spring-sale-wave-2.csv     4        1        1        0       100%  ███████████████",
      "  bat-spring-w3  spring-sale-wave-3.csv     4        1        1        0       100%  ███████████████",
    ]);
  });
});

describe("the report's tables", () => {
  it("at 80 columns: every figure, labels whole, bars of what is left", () => {
    const text = report(80);
    expect(section(text, "Failures by latest error")).toEqual([
      "Failures by latest error (2 failed)",
      `  blocked_${FAMILY} (delivery_error)             1  50.0%  ██████████████`,
      "  recipient_unavailable (delivery_error)  1  50.0%  ██████████████",
    ]);
    expect(section(text, "By batch")).toEqual([
      "By batch",
      // A file name too long for what is left is cut in its middle, and the bar gives way to it first.
      "  batch id  file                      size  counted  success  failure  delivered",
      "  b1        顧客リスト.csv               4        3        2        1      66.7%",
      `  b2        ${FRANCE} vague-1.csv               4        2        1        1      50.0%`,
      "  b3        Cafe\u0301 e\u0301te\u0301 cam…al list.csv     4        1        0        0          –",
    ]);
    expect(section(text, "Attempts per message")).toEqual([
      "Attempts per message",
      "               messages  share  success  failure",
      "  1 attempt           5  83.3%        2        2  █████████████████████████",
      "  2 attempts          1  16.7%        1        0  █████",
      "  3 attempts          0     0%        0        0",
      "  4+ attempts         0     0%        0        0",
      "  1 message succeeded only after a retry",
    ]);
  });

  it("at 40 columns: the bar gives way, then the label, and the rightmost figures go", () => {
    const text = report(40);
    expect(section(text, "Failures by latest error")).toEqual([
      "Failures by latest error (2 failed)",
      `  blocked_${FAMILY} (deliver…  1  50.0%  ███`,
      "  recipient_unavailab…  1  50.0%  ███",
    ]);
    expect(section(text, "By batch")).toEqual([
      "By batch",
      // The ids survive a narrow terminal: they are what --batch takes.
      // No room for a useful part of the file names: the ids alone, and the header says so.
      "  batch id        size  counted  success",
      "  b1                 4        3        2",
      "  b2                 4        2        1",
      "  b3                 4        1        0",
    ]);
    expect(section(text, "Attempts per message").slice(0, 2)).toEqual([
      "Attempts per message",
      "               messages  share  success",
    ]);
  });
});
