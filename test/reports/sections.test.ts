// The report's sections are declared once (src/reports/sections.ts): each renderer draws every
// one, under its declared caption and in the declared order, for a report in which none is empty.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { plainPalette } from "../../src/terminal/palette.js";
import { renderHtmlReport } from "../../src/reports/html.js";
import { renderMarkdownReport } from "../../src/reports/markdown.js";
import { REPORT_SECTIONS, type ReportInput } from "../../src/reports/sections.js";
import { renderStatsReport } from "../../src/reports/terminal.js";
import { StatsAccumulator } from "../../src/stats/accumulator.js";
import { buildReport, buildTotalReport } from "../../src/stats/report.js";

const UTC = TimeZone.named("UTC")!;
const GENERATED = Date.parse("2025-05-03T00:00:00Z");

let serial = 0;
const message = (fields: Partial<CheckedMessage>): CheckedMessage => ({
  id: `m${serial++}`,
  createdAt: "2025-05-01T10:15:00.000Z",
  latestStatus: "success",
  numAttempts: 1,
  batches: [{ id: "bat-1", originalFileName: "wave-1.csv", totalMessages: 3 }],
  messageAttempts: [
    { status: "success", createdAt: "2025-05-01T10:15:00.000Z", updatedAt: "2025-05-01T10:17:30.000Z" },
  ],
  ...fields,
});
const failed = message({
  latestStatus: "failure",
  messageAttempts: [
    {
      status: "failure",
      createdAt: "2025-05-01T10:15:00.000Z",
      updatedAt: "2025-05-01T11:15:00.000Z",
      errorType: "delivery_error",
      errorCode: "recipient_unavailable",
    },
  ],
});

/** Two campaigns, each with a success and a failure, in a batch, timed: every section has something to show. */
function fullReport(): ReportInput {
  const tally = () => new StatsAccumulator({ byBatch: true, timeZone: UTC });
  const [first, second, total] = [tally(), tally(), tally()];
  for (const m of [message({}), failed]) {
    first.add(m);
    total.add(m);
  }
  for (const m of [message({ createdAt: "2025-05-01T12:15:00.000Z" }), failed]) {
    second.add(m);
    total.add(m);
  }
  const scope = { generatedAt: GENERATED, timeZone: UTC };
  return {
    total: buildTotalReport(total, ["cmp-a", "cmp-b"], { ...scope, campaignId: "" }),
    campaigns: [
      { campaignId: "cmp-a", report: buildReport(first, { ...scope, campaignId: "cmp-a" }) },
      { campaignId: "cmp-b", report: buildReport(second, { ...scope, campaignId: "cmp-b" }) },
    ],
    timeZone: UTC,
  };
}

describe("every declared section, in every renderer", () => {
  const input = fullReport();
  const outputs = {
    terminal: renderStatsReport(input.total, {
      columns: 160,
      palette: plainPalette,
      timeZone: UTC,
      campaigns: input.campaigns,
    }),
    html: renderHtmlReport({ ...input, version: "0.1.0" }),
    markdown: renderMarkdownReport({ ...input, version: "0.1.0" }),
  };

  it("shows each section for this report", () => {
    expect(REPORT_SECTIONS.filter((section) => !section.shown(input)).map((section) => section.key)).toEqual([]);
  });

  it.each(Object.keys(outputs) as Array<keyof typeof outputs>)(
    "%s: each caption as a heading line, in the declared order",
    (medium) => {
      const lines = outputs[medium].split("\n");
      const heading = (caption: string) =>
        ({
          terminal: caption,
          html: new RegExp(`^<h2( id="h-[a-z-]+")?>${caption.replace(/[()]/g, "\\$&")}</h2>$`),
          markdown: new RegExp(`^#{2,3} ${caption.replace(/[()]/g, "\\$&")}$`),
        })[medium];
      const at = REPORT_SECTIONS.map((section) => {
        const caption = section.caption(input);
        const wanted = heading(caption);
        return lines.findIndex((line) => (typeof wanted === "string" ? line === wanted : wanted.test(line)));
      });
      expect(
        at.every((index) => index >= 0),
        `${medium}: ${JSON.stringify(at)}`,
      ).toBe(true);
      expect(at).toEqual([...at].sort((a, b) => a - b));
    },
  );

  it("the captions are the report's own", () => {
    expect(REPORT_SECTIONS.map((section) => section.caption(input))).toEqual([
      "Campaigns compared (2)",
      "All campaigns together",
      "By status",
      "Failures by latest error (2 failed)",
      "Attempts per message",
      "Time to final status",
      "By batch",
      "Messages per hour (UTC)",
    ]);
  });
});
