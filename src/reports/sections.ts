// The delivery report's sections, declared once: which part of the report each shows, in which order,
// under which caption and when. The terminal (terminal.ts), HTML (html.ts) and Markdown
// (markdown.ts) renderers each draw them through a map keyed by the section's key, so a section
// added here does not compile until every renderer draws it.
import { durationText } from "../core/duration.js";
import { countText } from "../core/numbers.js";
import type { TimeZone } from "../core/time.js";
import type { StatsReport } from "../stats/report.js";
import type { TimeToFinalRow } from "../stats/time-to-final.js";
import type { ComparisonRow } from "./comparison.js";

/** What every renderer is given: the total's report, and with several campaigns a row each (in the order named). */
export interface ReportInput {
  total: StatsReport;
  campaigns?: readonly ComparisonRow[];
  timeZone: TimeZone;
}

interface Section {
  key: string;
  /** The part of the report it shows (`campaigns` is the comparison's rows). */
  shows: keyof StatsReport | "campaigns";
  caption: (input: ReportInput) => string;
  shown: (input: ReportInput) => boolean;
}

const counted = (input: ReportInput): boolean => input.total.totals.messages > 0;

export const REPORT_SECTIONS = [
  {
    key: "comparison",
    shows: "campaigns",
    caption: ({ campaigns = [] }) => {
      const reported = campaigns.filter((row) => row.report).length;
      return reported === campaigns.length
        ? `Campaigns compared (${countText(campaigns.length)})`
        : `Campaigns compared (${countText(reported)} of ${countText(campaigns.length)} counted)`;
    },
    shown: (input) => input.campaigns !== undefined,
  },
  {
    key: "summary",
    shows: "delivery",
    caption: (input) => (input.campaigns ? "All campaigns together" : "Summary"),
    shown: () => true,
  },
  { key: "status", shows: "byStatus", caption: () => "By status", shown: counted },
  {
    key: "failures",
    shows: "failures",
    caption: ({ total }) =>
      `Failures by latest error (${countText(total.failures.reduce((sum, row) => sum + row.count, 0))} failed)`,
    shown: (input) => counted(input) && input.total.failures.length > 0,
  },
  { key: "attempts", shows: "attempts", caption: () => "Attempts per message", shown: counted },
  {
    key: "timeToFinal",
    shows: "timeToFinal",
    caption: () => "Time to final status",
    shown: ({ total }) => total.timeToFinal.measured > 0 || total.timeToFinal.withoutTimes > 0,
  },
  {
    key: "batches",
    shows: "batches",
    caption: () => "By batch",
    shown: ({ total }) => total.batches !== null && total.batches.length > 0,
  },
  {
    key: "overTime",
    shows: "overTime",
    caption: ({ total, timeZone }) => `Messages per ${total.overTime.interval} (${timeZone.name})`,
    shown: ({ total }) => total.overTime.buckets.length > 0,
  },
] as const satisfies readonly Section[];

export type SectionKey = (typeof REPORT_SECTIONS)[number]["key"];

/** How one medium draws each section, given its caption: every key, or the renderer does not compile. */
export type SectionDrawers<Drawn> = { readonly [Key in SectionKey]: (input: ReportInput, caption: string) => Drawn };

/** The sections shown for this report, in their order, each drawn by the medium's own drawer. */
export function drawSections<Drawn>(input: ReportInput, drawers: SectionDrawers<Drawn>): Drawn[] {
  return REPORT_SECTIONS.filter((section) => section.shown(input)).map((section) =>
    drawers[section.key](input, section.caption(input)),
  );
}

// ---- what the sections say alike ----

/** The most rows a list of errors or batches shows (the rest summed, or left to --csv); the metrics' top errors too. */
export const LISTED_ROWS = 15;

/** A duration figure of the report; "–" where there is none. */
export const durationFigure = (ms: number | null): string => (ms === null ? "–" : durationText(ms));

/**
 * --max-time-to-final's result, for the time-to-final section: `--max-time-to-final 5 min (95th percentile):
 * above the limit, 2 of 20 final messages took longer, at most 1 may`; undefined without the flag.
 */
export function lateVerdict(report: StatsReport): { text: string; exceeded: boolean } | undefined {
  const limit = report.timeToFinalThreshold;
  if (!limit) return undefined;
  const duration = durationText(limit.maxTimeToFinalMs, { exact: true });
  const flag = `--max-time-to-final ${duration} (${ordinal(limit.percentile)} percentile)`;
  if (!limit.checked) return { text: `${flag}: not checked, no final message was measured`, exceeded: false };
  return {
    text: `${flag}: ${limit.exceeded ? "above" : "within"} the limit, ${lateCounts(report)}`,
    exceeded: limit.exceeded,
  };
}

/** The counts behind --max-time-to-final's result: `2 of 20 final messages took longer, at most 1 may`. */
export function lateCounts(report: StatsReport): string {
  const limit = report.timeToFinalThreshold;
  return (
    `${countText(limit?.slower ?? 0)} of ${countText(report.timeToFinal.measured)} final messages took longer, ` +
    `at most ${countText(limit?.slowerAllowed ?? 0)} may`
  );
}

/** 50th, 51st, 92nd, 93rd, 99.9th. */
export function ordinal(n: number): string {
  if (!Number.isInteger(n) || (n % 100 >= 11 && n % 100 <= 13)) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/** `under 1 s`, `1 s – 5 s`, `7 d or more`. */
export function histogramLabel(row: TimeToFinalRow): string {
  const bound = (ms: number) => durationText(ms, { exact: true });
  if (row.fromMs === 0 && row.toMs !== null) return `under ${bound(row.toMs)}`;
  if (row.toMs === null) return `${bound(row.fromMs)} or more`;
  return `${bound(row.fromMs)} – ${bound(row.toMs)}`;
}

/** The histogram up to its last bin with a message: the longer, empty bins say nothing (--json has them). */
export function shownHistogram(ttf: StatsReport["timeToFinal"]): TimeToFinalRow[] {
  return ttf.histogram.slice(0, Math.max(1, ttf.histogram.findLastIndex((row) => row.count > 0) + 1));
}
