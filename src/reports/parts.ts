// What the HTML and Markdown reports say alike: row labels, durations, the comparison's rows. The
// labels are plain text with server text made inert (core/text.ts); each renderer escapes them for
// where they land (reports/html-escape.ts, reports/markdown.ts).
import type { StatsReport } from "../stats/report.js";
import { inlineSafe } from "../core/text.js";
import { formatWallTime, type TimeZone } from "../core/time.js";
import type { ReportInput } from "./sections.js";
import { COLUMNS, type ComparisonRow } from "./comparison.js";
import { bucketLabel, describeFilters, PARTIAL_MARK, partialNote, rangeText } from "./terminal.js";

export { notCountedText, reportTitle } from "./terminal.js";

export type { ComparisonRow };

/** What a report page or document is made of: the total's report, and with several campaigns their rows. */
export interface ShareableReport extends ReportInput {
  /** msgstat's version, said in the page. */
  version: string;
}

export const statusLabel = (row: StatsReport["byStatus"][number]): string =>
  row.other ? "(other)" : row.status === null ? "(no status)" : row.status;

export const errorCodeLabel = (row: StatsReport["failures"][number]): string =>
  row.other ? "(other errors)" : (row.errorCode ?? "(no code)");

export const errorTypeLabel = (row: StatsReport["failures"][number]): string =>
  row.other ? "" : (row.errorType ?? "(no type)");

export const attemptsLabel = (bucket: string): string =>
  bucket === "unknown" ? "not sent" : `${bucket} ${bucket === "1" ? "attempt" : "attempts"}`;

export const batchLabel = (row: NonNullable<StatsReport["batches"]>[number]): string =>
  row.other ? "(other batches)" : row.batchId === null ? "(no batch)" : row.batchId;

/** Why each campaign not counted was not, in the few words of its comparison row. */
export function notCountedReasons(report: ShareableReport): Map<string, string> {
  return new Map((report.campaigns ?? []).flatMap((row) => (row.uncounted ? [[row.campaignId, row.uncounted]] : [])));
}

/** The facts under the title: when, by which msgstat, what was counted, how filtered, in which zone. */
export function aboutLines(report: ShareableReport): Array<[string, string]> {
  const { total, timeZone } = report;
  const lines: Array<[string, string]> = [
    ["Generated", `${formatWallTime(Date.parse(total.generatedAt), timeZone, "second")} ${timeZone.name}`],
    ["By", `msgstat ${report.version}`],
    ["Campaigns", (total.campaignIds ?? [total.campaignId]).map(inlineSafe).join(", ") || "none counted"],
  ];
  if (total.batchId !== null) lines.push(["Batch", inlineSafe(total.batchId)]);
  lines.push(["Filters", describeFilters(total, timeZone) || "none"], ["Time zone", timeZone.name]);
  if (total.totals.firstCreatedAt && total.totals.lastCreatedAt)
    lines.push(["Created", rangeText(total.totals.firstCreatedAt, total.totals.lastCreatedAt, timeZone)]);
  return lines;
}

export const timeBucketLabel = (start: string, report: StatsReport, zone: TimeZone): string =>
  bucketLabel(start, report.overTime.interval, zone);

/** A bucket's label in a table, marked when the hour or day was counted only in part. */
export const timeRowLabel = (bucket: StatsReport["overTime"]["buckets"][number], report: StatsReport, zone: TimeZone) =>
  timeBucketLabel(bucket.start, report, zone) + (bucket.partial ? PARTIAL_MARK : "");

/** The note under a table or chart with a partial hour or day; "" when it has none. */
export const partialBucketsNote = (report: StatsReport): string =>
  report.overTime.buckets.some((bucket) => bucket.partial) ? partialNote(report.overTime.interval) : "";

/** The comparison's columns, as the terminal's (reports/comparison.ts): one header and one figure each. */
export const COMPARISON_COLUMNS = COLUMNS.map((column) => ({
  header: column.headers[0]!,
  figure: column.figure,
  numeric: column.align === "right",
}));
