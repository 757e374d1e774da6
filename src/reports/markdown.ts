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
  errorCodeLabel,
  errorTypeLabel,
  notCountedReasons,
  notCountedText,
  reportTitle,
  statusLabel,
  partialBucketsNote,
  timeRowLabel,
  type ComparisonRow,
  type ShareableReport,
} from "./parts.js";
import {
  drawSections,
  durationFigure,
  histogramLabel,
  lateVerdict,
  shownHistogram,
  type SectionDrawers,
} from "./sections.js";

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
  parts.push(...drawSections(input, MARKDOWN_SECTIONS));
  parts.push(`_Made by msgstat ${input.version}; \`msgstat stats --json\` gives the same figures as data._`);
  return `${parts.join("\n\n")}\n`;
}

// The comparison and the summary are headings of their own (##); the total's tables are under the summary (###).
const MARKDOWN_SECTIONS: SectionDrawers<string> = {
  comparison: ({ campaigns, total }, caption) => comparison(campaigns ?? [], total, caption),
  summary: ({ total }, caption) => summary(total, caption),
  status: ({ total }, caption) =>
    part(
      caption,
      table(
        [col("status", false), col("messages"), col("share"), col("final", false)],
        total.byStatus.map((row) => [
          markdownText(statusLabel(row)),
          n(row.count),
          pct(row.share),
          row.final ? "yes" : "no",
        ]),
      ),
    ),
  failures: ({ total }, caption) =>
    part(
      caption,
      table(
        [col("error code", false), col("error type", false), col("messages"), col("share")],
        total.failures.map((row) => [
          markdownText(errorCodeLabel(row)),
          markdownText(errorTypeLabel(row)),
          n(row.count),
          pct(row.share),
        ]),
      ),
    ),
  attempts: ({ total }, caption) =>
    part(
      caption,
      table(
        [col("attempts", false), col("messages"), col("share"), col("success"), col("failure")],
        total.attempts.buckets.map((row) => [
          attemptsLabel(row.attempts),
          n(row.count),
          pct(row.share),
          n(row.success),
          n(row.failure),
        ]),
      ),
      `${n(total.attempts.succeededAfterRetry)} succeeded only after a retry.`,
    ),
  timeToFinal: ({ total, total: { timeToFinal: ttf } }, caption) =>
    part(
      caption,
      `Median ${durationFigure(ttf.medianMs)}, 90th percentile ${durationFigure(ttf.p90Ms)}, 99th percentile ` +
        `${durationFigure(ttf.p99Ms)}: from createdAt to the last attempt's updatedAt, ${n(ttf.measured)} final ` +
        `messages${ttf.withoutTimes > 0 ? ` (${n(ttf.withoutTimes)} without those times left out)` : ""}.` +
        lateLine(total),
      table(
        [col("time to final status", false), col("messages"), col("share")],
        shownHistogram(ttf).map((row) => [
          histogramLabel(row),
          n(row.count),
          pct(ttf.measured === 0 ? 0 : row.count / ttf.measured),
        ]),
      ),
    ),
  batches: ({ total }, caption) =>
    part(
      caption,
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
        (total.batches ?? []).map((row) => [
          markdownText(batchLabel(row)),
          markdownText(row.fileName ?? ""),
          row.totalMessages === null ? "–" : n(row.totalMessages),
          n(row.messages),
          n(row.success),
          n(row.failure),
          pct(row.deliveryRate),
        ]),
      ),
    ),
  overTime: ({ total, timeZone }, caption) =>
    part(
      caption,
      table(
        [col(total.overTime.interval, false), col("messages"), col("failed")],
        total.overTime.buckets.map((bucket) => [
          timeRowLabel(bucket, total, timeZone),
          n(bucket.messages),
          n(bucket.failures),
        ]),
      ),
      ...(partialBucketsNote(total) ? [`_${partialBucketsNote(total)}_`] : []),
    ),
};

/** A section under the summary: its caption as a third-level heading, then its blocks. */
/** --max-time-to-final's result after the section's figures, bold when above the limit. */
function lateLine(report: StatsReport): string {
  const verdict = lateVerdict(report);
  if (!verdict) return "";
  return verdict.exceeded ? ` **${markdownText(verdict.text)}**` : ` ${markdownText(verdict.text)}`;
}

const part = (caption: string, ...blocks: string[]): string => [`### ${markdownText(caption)}`, ...blocks].join("\n\n");

function comparison(rows: readonly ComparisonRow[], total: StatsReport, caption: string): string {
  const columns = [col("campaign", false), ...COMPARISON_COLUMNS.map((column) => col(column.header, column.numeric))];
  const cells = (label: string, report: StatsReport | undefined, uncounted?: string) => [
    label,
    ...COMPARISON_COLUMNS.map((column, i) =>
      report ? markdownText(column.figure(report)) : i === 0 ? `not counted: ${markdownText(uncounted ?? "")}` : "",
    ),
  ];
  return [
    `## ${markdownText(caption)}`,
    table(columns, [
      ...rows.map((row) => cells(markdownText(row.campaignId), row.report, row.uncounted)),
      cells("**total**", total),
    ]),
  ].join("\n\n");
}

function summary(report: StatsReport, caption: string): string {
  const heading = `## ${markdownText(caption)}`;
  if (report.totals.messages === 0) return [heading, "No messages: nothing to report."].join("\n\n");
  const { delivery, totals, threshold } = report;
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
  return parts.join("\n\n");
}
