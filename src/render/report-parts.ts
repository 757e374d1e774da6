// What the HTML and Markdown reports say alike: row labels, durations, the comparison's rows. The
// labels are plain text with server text made inert (core/text.ts); each renderer escapes them for
// where they land (render/html-escape.ts, render/report-markdown.ts).
import type { StatsReport } from "../stats/report.js";
import type { TimeToFinalRow } from "../stats/time-to-final.js";
import { inlineSafe } from "../core/text.js";
import { formatWallTime, type TimeZone } from "../core/time.js";
import { COLUMNS, type ComparisonRow } from "./stats-comparison.js";
import { bucketLabel, describeFilters, PARTIAL_MARK, partialNote, spanText } from "./stats-report.js";

export { notCountedText, reportTitle } from "./stats-report.js";

export type { ComparisonRow };

/** What a report page or document is made of: the total's report, and with several campaigns their rows. */
export interface ShareableReport {
  total: StatsReport;
  /** Several campaigns: a row each, in the order named (the comparison comes first). */
  campaigns?: readonly ComparisonRow[];
  /** msgstat's version, said in the page. */
  version: string;
  timeZone: TimeZone;
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

/** `42 s`, `3 min 5 s`, `2.4 h`, `1.5 days`: a duration as a person reads it. */
export function durationText(ms: number | null): string {
  if (ms === null) return "–";
  const seconds = ms / 1000;
  if (seconds < 1) return "under 1 s";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) {
    const whole = Math.round(seconds);
    const rest = whole % 60;
    return `${Math.floor(whole / 60)} min${rest === 0 ? "" : ` ${rest} s`}`;
  }
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

const boundText = (ms: number): string =>
  ms < 60_000
    ? `${ms / 1000} s`
    : ms < 3_600_000
      ? `${ms / 60_000} min`
      : ms < 86_400_000
        ? `${ms / 3_600_000} h`
        : `${ms / 86_400_000} d`;

/** `under 1 s`, `1 s – 5 s`, `7 d or more`. */
export function histogramLabel(row: TimeToFinalRow): string {
  if (row.fromMs === 0 && row.toMs !== null) return `under ${boundText(row.toMs)}`;
  if (row.toMs === null) return `${boundText(row.fromMs)} or more`;
  return `${boundText(row.fromMs)} – ${boundText(row.toMs)}`;
}

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
    lines.push(["Created", spanText(total.totals.firstCreatedAt, total.totals.lastCreatedAt, timeZone)]);
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

/** The comparison's columns, as the terminal's (render/stats-comparison.ts): one header and one figure each. */
export const COMPARISON_COLUMNS = COLUMNS.map((column) => ({
  header: column.headers[0]!,
  figure: column.figure,
  numeric: column.align === "right",
}));

/** The histogram up to its last bin with a message: the longer, empty bins say nothing (--json has them). */
export function shownHistogram(ttf: StatsReport["timeToFinal"]): TimeToFinalRow[] {
  return ttf.histogram.slice(0, Math.max(1, ttf.histogram.findLastIndex((row) => row.count > 0) + 1));
}
