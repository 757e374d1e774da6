// The delivery report as GitHub-flavoured Markdown (`stats --format md`, `-o report.md`), for a ticket or
// a chat: headings and tables, no bars (they fall out of line in a proportional font). The same figures
// as the HTML page. Server text is escaped so that it stays text: no `|` can end a cell, no `*`, `[`,
// `<` or backquote can start emphasis, a link, HTML or code.
import type { StatsReport } from "../stats/report.js";
import { countText, percentText } from "../core/numbers.js";
import { inlineSafe } from "../core/text.js";
import {
  aboutLines,
  attemptsLabel,
  batchLabel,
  COMPARISON_COLUMNS,
  durationText,
  errorCodeLabel,
  errorTypeLabel,
  histogramLabel,
  notCountedReasons,
  notCountedText,
  reportTitle,
  shownHistogram,
  statusLabel,
  partialBucketsNote,
  timeRowLabel,
  type ComparisonRow,
  type ShareableReport,
} from "./report-parts.js";

/**
 * Server text for a Markdown table cell or line: controls made visible (core/text.ts), then each mark
 * that can be syntax in a line backslash-escaped, which CommonMark reads as the mark itself: `|` (a
 * cell's end, even inside code on GitHub), emphasis, code, links and images, HTML and entities, and
 * `@` and a `:` before `/`, which GitHub turns into links (an address, `https://…`). A `:` elsewhere
 * (a time, `23:29`) is no syntax in GFM and stays as it is.
 */
export function markdownText(text: string): string {
  return inlineSafe(text).replace(/[\\`*_[\]<>|~&!@{}]|:(?=\/)/g, (ch) => `\\${ch}`);
}

interface Column {
  header: string;
  numeric: boolean;
}

function table(columns: Column[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(columns.map((column) => column.header)),
    `|${columns.map((column) => (column.numeric ? "---:" : "---")).join("|")}|`,
    ...rows.map(line),
  ].join("\n");
}

const col = (header: string, numeric = true): Column => ({ header, numeric });
const n = (value: number): string => countText(value);
const pct = (value: number | null): string => percentText(value);

export function renderMarkdownReport(input: ShareableReport): string {
  const { total } = input;
  const parts = [`# ${markdownText(reportTitle(total))}`];
  const missing = notCountedText(total, notCountedReasons(input));
  if (missing) parts.push(`> **${markdownText(missing)}**`);
  // Campaigns, batch and filters hold server or user text; the times and the version are msgstat's own.
  const escaped = new Set(["Campaigns", "Batch", "Filters"]);
  parts.push(
    aboutLines(input)
      .map(([term, value]) => `- **${term}:** ${escaped.has(term) ? markdownText(value) : value}`)
      .join("\n"),
  );
  if (input.campaigns) parts.push(comparison(input.campaigns, total));
  parts.push(...totalParts(input, input.campaigns !== undefined));
  parts.push(`_Made by msgstat ${input.version}; \`msgstat stats --json\` gives the same figures as data._`);
  return `${parts.join("\n\n")}\n`;
}

function comparison(rows: readonly ComparisonRow[], total: StatsReport): string {
  const counted = rows.filter((row) => row.report).length;
  const columns = [col("campaign", false), ...COMPARISON_COLUMNS.map((column) => col(column.header, column.numeric))];
  const cells = (label: string, report: StatsReport | undefined, uncounted?: string) => [
    label,
    ...COMPARISON_COLUMNS.map((column, i) =>
      report ? markdownText(column.figure(report)) : i === 0 ? `not counted: ${markdownText(uncounted ?? "")}` : "",
    ),
  ];
  return [
    `## Campaigns compared (${n(counted)} of ${n(rows.length)} counted)`,
    table(columns, [
      ...rows.map((row) => cells(markdownText(row.campaignId), row.report, row.uncounted)),
      cells("**total**", total),
    ]),
  ].join("\n\n");
}

function totalParts(input: ShareableReport, several: boolean): string[] {
  const report = input.total;
  const heading = several ? "## All campaigns together" : "## Summary";
  if (report.totals.messages === 0) return [heading, "No messages: nothing to report."];
  const { delivery, totals, threshold, timeToFinal: ttf } = report;
  const parts = [
    heading,
    table(
      [col("", false), col("")],
      [
        ["Messages", n(totals.messages)],
        ["Attempts", n(totals.attempts)],
        ["Delivery rate", pct(delivery.deliveryRate)],
        ["Failure rate", pct(delivery.failureRate)],
        ["Final (success or failure)", n(delivery.final)],
        ["Not final yet", n(delivery.notFinal)],
        ...(totals.undated > 0 ? [["Without a readable createdAt", n(totals.undated)]] : []),
      ],
    ),
  ];
  if (threshold)
    parts.push(
      `\`--max-failure-rate ${threshold.maxFailureRate}%\`: ${
        !threshold.checked
          ? "not checked, no message is final"
          : threshold.exceeded
            ? "**above the limit**"
            : "within the limit"
      }`,
    );
  parts.push(
    "### By status",
    table(
      [col("status", false), col("messages"), col("share"), col("final", false)],
      report.byStatus.map((row) => [
        markdownText(statusLabel(row)),
        n(row.count),
        pct(row.share),
        row.final ? "yes" : "no",
      ]),
    ),
  );
  if (report.failures.length > 0)
    parts.push(
      `### Failures by latest error (${n(report.failures.reduce((sum, row) => sum + row.count, 0))} failed)`,
      table(
        [col("error code", false), col("error type", false), col("messages"), col("share")],
        report.failures.map((row) => [
          markdownText(errorCodeLabel(row)),
          markdownText(errorTypeLabel(row)),
          n(row.count),
          pct(row.share),
        ]),
      ),
    );
  parts.push(
    "### Attempts per message",
    table(
      [col("attempts", false), col("messages"), col("share"), col("success"), col("failure")],
      report.attempts.buckets.map((row) => [
        attemptsLabel(row.attempts),
        n(row.count),
        pct(row.share),
        n(row.success),
        n(row.failure),
      ]),
    ),
    `${n(report.attempts.succeededAfterRetry)} succeeded only after a retry.`,
  );
  if (ttf.measured > 0 || ttf.withoutTimes > 0)
    parts.push(
      "### Time to final status",
      `Median ${durationText(ttf.medianMs)}, 90th percentile ${durationText(ttf.p90Ms)}, 99th percentile ` +
        `${durationText(ttf.p99Ms)}: from createdAt to the last attempt's updatedAt, ${n(ttf.measured)} final ` +
        `messages${ttf.withoutTimes > 0 ? ` (${n(ttf.withoutTimes)} without those times left out)` : ""}.`,
      table(
        [col("time to final status", false), col("messages"), col("share")],
        shownHistogram(ttf).map((row) => [
          histogramLabel(row),
          n(row.count),
          pct(ttf.measured === 0 ? 0 : row.count / ttf.measured),
        ]),
      ),
    );
  if (report.batches !== null && report.batches.length > 0)
    parts.push(
      "### By batch",
      table(
        [
          col("batch id", false),
          col("file", false),
          col("size"),
          col("counted"),
          col("success"),
          col("failure"),
          col("delivered"),
        ],
        report.batches.map((row) => [
          markdownText(batchLabel(row)),
          markdownText(row.fileName ?? ""),
          row.totalMessages === null ? "–" : n(row.totalMessages),
          n(row.messages),
          n(row.success),
          n(row.failure),
          pct(row.deliveryRate),
        ]),
      ),
    );
  const { interval, buckets } = report.overTime;
  if (buckets.length > 0)
    parts.push(
      `### Messages per ${interval} (${markdownText(input.timeZone.name)})`,
      table(
        [col(interval, false), col("messages"), col("failed")],
        buckets.map((bucket) => [timeRowLabel(bucket, report, input.timeZone), n(bucket.messages), n(bucket.failures)]),
      ),
      ...(partialBucketsNote(report) ? [`_${partialBucketsNote(report)}_`] : []),
    );
  return parts;
}
