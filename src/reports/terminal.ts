// The `msgstat stats` report for a person: sections of aligned rows with bars, fitted to the terminal
// width. Colour only repeats what the text already says (labels, legends, glyphs), so the report
// reads the same piped, with NO_COLOR, or on a terminal without colour.
import type { StatsReport, TimeRow } from "../stats/report.js";
import { BucketClock, INTERVAL_MS, type Interval } from "../stats/time-buckets.js";
import type { Palette } from "../terminal/palette.js";
import { countText, percentText } from "../core/numbers.js";
import { durationText } from "../core/duration.js";
import { inlineSafe } from "../core/text.js";
import { formatWallTime, isoInZone, offsetText, type TimeZone } from "../core/time.js";
import { hanging, wrapText } from "../terminal/wrap.js";
import { drawLine, layOut, type Cell, type Slot } from "../terminal/layout.js";
import {
  drawSections,
  durationFigure,
  histogramLabel,
  lateVerdict,
  LISTED_ROWS,
  shownHistogram,
  type SectionDrawers,
} from "./sections.js";
import { renderComparison, type ComparisonRow } from "./comparison.js";
import { cutInMiddle, cutToWidth, displayWidth } from "../terminal/width.js";

export interface StatsReportOptions {
  columns: number;
  /** Several campaigns: a row each, in the order named, compared before the total's figures. */
  campaigns?: readonly ComparisonRow[];
  palette: Palette;
  /** --tz: the span, the filters and the buckets' labels are read in it (the buckets were counted in it). */
  timeZone: TimeZone;
}

type Style = (text: string) => string;

interface Row {
  label: string;
  labelStyle?: Style;
  /** Right-aligned figures after the label. */
  figures: string[];
  /** Length of the bar as a share of the widest possible one; undefined for no bar. */
  fraction?: number;
  /** Share of the bar drawn as failed (▒), for the over-time rows. */
  failedFraction?: number;
  barStyle?: Style;
  /** The label in `width` cells, when it has a better way to be cut than at its end. */
  fitLabel?: (width: number) => string;
}

const INDENT = "  ";
const GAP = "  ";
const MAX_BAR = 40;
const MIN_BAR = 6;
const MIN_LABEL = 12;
/** Cells a batch's file name needs to be worth showing cut: fewer, and the id stands alone. */
const MIN_FILE = 5;
/** Past this many, a table ends with "… and N more" (the CSV and JSON keep every row). */
const MAX_ROWS = LISTED_ROWS;
/** Up to this many time buckets get a row each; more become a sparkline. */
const MAX_TIME_ROWS = 31;
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const SPARKS = "▁▂▃▄▅▆▇█";
const plain: Style = (text) => text;

export function renderStatsReport(report: StatsReport, options: StatsReportOptions): string {
  const width = Math.max(40, options.columns);
  const { palette, timeZone: zone } = options;
  const heading = (caption: string, lines: string[]) => [...wrapped(caption, width).map(palette.heading), ...lines];
  const drawers: SectionDrawers<string[]> = {
    comparison: ({ campaigns, total }, caption) => [
      ...wrapped(caption, width).map(palette.heading),
      renderComparison(campaigns ?? [], total, options),
    ],
    summary: ({ total }, caption) => heading(caption, summaryLines(total, width, palette, zone)),
    status: ({ total }, caption) => heading(caption, statusLines(total, width, palette)),
    failures: ({ total }, caption) => heading(caption, failureLines(total, width, palette)),
    attempts: ({ total }, caption) => heading(caption, attemptLines(total, width, palette)),
    timeToFinal: ({ total }, caption) => heading(caption, timeToFinalLines(total, width, palette)),
    batches: ({ total }, caption) => heading(caption, batchLines(total, width, palette)),
    overTime: ({ total }, caption) => heading(caption, timeLines(total, width, palette, zone)),
  };
  const sections = [
    headerLines(report, width, palette, zone),
    ...drawSections({ total: report, campaigns: options.campaigns, timeZone: zone }, drawers),
  ];
  return sections.map((lines) => lines.join("\n")).join("\n\n") + "\n";
}

// ---- sections ----

/** Scope, zone, filters and span are what the figures mean: wrapped, never cut. */
const wrapped = (text: string, width: number): string[] =>
  hanging(wrapText(text, width, width - INDENT.length), "", INDENT).split("\n");

/** The title, what is missing and the filters: what every figure below is of. */
function headerLines(report: StatsReport, width: number, palette: Palette, zone: TimeZone): string[] {
  // The zone once, up front, for every time below (span, filters, buckets).
  const { filters: bounds, totals } = report;
  const showsTimes = totals.messages > 0 || bounds.since !== null || bounds.until !== null;
  const lines = wrapped(`${reportTitle(report)}${showsTimes ? `, times in ${zone.name}` : ""}`, width).map(
    palette.heading,
  );
  const missing = notCountedText(report);
  if (missing) lines.push(...wrapped(missing, width).map((line) => palette.status("failure", line)));
  const filters = describeFilters(report, zone);
  if (filters) lines.push(...wrapped(`Filtered by ${filters}`, width).map(palette.dim));
  return lines;
}

/** How many messages and attempts, over which span, and the delivery and failure rates. */
function summaryLines(report: StatsReport, width: number, palette: Palette, zone: TimeZone): string[] {
  const { totals } = report;
  if (totals.messages === 0) {
    const filtered = describeFilters(report, zone) !== "";
    return [`No messages${filtered ? " match these filters" : " found"}: nothing to report.`];
  }
  const lines: string[] = [];
  const messages = `${count(totals.messages)} ${plural(totals.messages, "message")}`;
  const span =
    totals.firstCreatedAt && totals.lastCreatedAt
      ? `, created ${rangeText(totals.firstCreatedAt, totals.lastCreatedAt, zone)}`
      : "";
  lines.push(...wrapped(`${messages}${span}`, width));
  lines.push(
    fit(
      `${count(totals.attempts)} ${plural(totals.attempts, "attempt")} in all ` +
        `(${(totals.attempts / totals.messages).toFixed(2)} per message)`,
      width,
    ),
  );
  if (totals.undated > 0)
    lines.push(
      fit(`${count(totals.undated)} without a readable createdAt (left out of the span and of "over time")`, width),
    );
  return [...lines, ...deliveryLines(report, width, palette)];
}

function statusLines(report: StatsReport, width: number, palette: Palette): string[] {
  const rows = report.byStatus.map((row): Row => {
    const name = row.other ? "(other)" : row.status === null ? "(no status)" : inlineSafe(row.status);
    const style: Style = (text) => (row.status === null ? text : palette.status(row.status, text));
    return {
      label: name,
      labelStyle: style,
      figures: [count(row.count), percent(row.share)],
      fraction: row.share,
      barStyle: style,
    };
  });
  return drawRows(rows, width);
}

function deliveryLines(report: StatsReport, width: number, palette: Palette): string[] {
  const { delivery, threshold } = report;
  if (delivery.final === 0) {
    const lines = [
      `${palette.heading("Delivery rate")}  ` +
        `${fit("none yet: no message has reached a final state (success or failure)", width - 15)}`,
    ];
    if (threshold)
      lines.push(
        palette.dim(
          fit(`--max-failure-rate ${threshold.maxFailureRate}%: not checked, no message is final yet`, width),
        ),
      );
    return lines;
  }
  const pending = report.byStatus
    .filter((row) => !row.final)
    .map((row) => (row.other ? "(other)" : row.status === null ? "(no status)" : inlineSafe(row.status)));
  const rateWidth = Math.max(percent(delivery.deliveryRate).length, percent(delivery.failureRate).length);
  // Label, rate, then words fitted into what is left, so a narrow terminal cuts the words, not the figures.
  const indent = 15 + rateWidth + 2;
  const line = (label: string, status: string, rate: number | null, words: string) =>
    `${palette.heading(label)}  ${palette.status(status, percent(rate).padStart(rateWidth))}  ` +
    `${fit(words, width - indent)}`;
  const lines = [
    line(
      "Delivery rate",
      "success",
      delivery.deliveryRate,
      `${count(delivery.success)} of ${count(delivery.final)} final messages succeeded`,
    ),
    line(
      "Failure rate ",
      "failure",
      delivery.failureRate,
      `${count(delivery.failure)} of ${count(delivery.final)} failed`,
    ),
  ];
  if (threshold) {
    const verdict = fit(
      `${threshold.exceeded ? "above" : "within"} the limit of ${threshold.maxFailureRate}% (--max-failure-rate)`,
      width - indent,
    );
    lines.push(" ".repeat(indent) + (threshold.exceeded ? palette.status("failure", verdict) : verdict));
  }
  const final = "final = success or failure";
  lines.push(
    palette.dim(
      fit(
        delivery.notFinal > 0
          ? `${final}; ${count(delivery.notFinal)} not final yet (${pending.join(", ")})`
          : `${final}; every message is final`,
        width,
      ),
    ),
  );
  return lines;
}

function failureLines(report: StatsReport, width: number, palette: Palette): string[] {
  const shown = report.failures.slice(0, MAX_ROWS);
  const rows = shown.map((row): Row => ({
    // The code first: it is the specific part, and what survives when a narrow terminal cuts the label.
    label: row.other
      ? "(other errors)"
      : `${inlineSafe(row.errorCode ?? "(no code)")} (${inlineSafe(row.errorType ?? "no type")})`,
    figures: [count(row.count), percent(row.share)],
    fraction: row.share,
    barStyle: (text) => palette.bar("failure", text),
  }));
  return [
    ...drawRows(rows, width),
    ...more(report.failures.length - shown.length, "kind", "--csv --by error", palette),
  ];
}

function attemptLines(report: StatsReport, width: number, palette: Palette): string[] {
  const label = (bucket: string) =>
    bucket === "unknown" ? "not sent" : `${bucket} ${bucket === "1" ? "attempt" : "attempts"}`;
  const rows = report.attempts.buckets.map((row): Row => ({
    label: label(row.attempts),
    figures: [count(row.count), percent(row.share), count(row.success), count(row.failure)],
    fraction: row.share,
  }));
  const header = { label: "", figures: ["messages", "share", "success", "failure"] };
  const retried = report.attempts.succeededAfterRetry;
  const note = `${count(retried)} ${plural(retried, "message")} succeeded only after a retry`;
  return [...drawRows(rows, width, header, palette), `${INDENT}${fit(note, width - INDENT.length)}`];
}

function timeToFinalLines(report: StatsReport, width: number, palette: Palette): string[] {
  const ttf = report.timeToFinal;
  const figures =
    `median ${durationFigure(ttf.medianMs)}, 90th percentile ${durationFigure(ttf.p90Ms)}, ` +
    `99th percentile ${durationFigure(ttf.p99Ms)}`;
  const rows = shownHistogram(ttf).map((row): Row => {
    const share = ttf.measured === 0 ? 0 : row.count / ttf.measured;
    return { label: histogramLabel(row), figures: [count(row.count), percent(share)], fraction: share };
  });
  const left = ttf.withoutTimes > 0 ? ` (${count(ttf.withoutTimes)} without those times left out)` : "";
  const what = `from createdAt to the last attempt's updatedAt, ${count(ttf.measured)} final messages${left}`;
  // --max-time-to-final's result, wrapped rather than cut: its counts are what a reader acts on.
  const verdict = lateVerdict(report);
  const limit = verdict ? wrapText(verdict.text, width - INDENT.length).map((line) => INDENT + line) : [];
  return [
    `${INDENT}${fit(figures, width - INDENT.length)}`,
    ...drawRows(rows, width, { label: "", figures: ["messages", "share"] }, palette),
    palette.dim(`${INDENT}${fit(what, width - INDENT.length)}`),
    ...limit.map((line) => (verdict?.exceeded ? palette.status("failure", line) : line)),
  ];
}

function batchLines(report: StatsReport, width: number, palette: Palette): string[] {
  const batches = report.batches ?? [];
  const shown = batches.slice(0, MAX_ROWS);
  // The id first, padded so the file names line up: it is what --batch takes, and what survives when
  // a narrow terminal cuts the label.
  const idWidth = Math.max("batch id".length, ...shown.map((row) => displayWidth(inlineSafe(row.batchId ?? ""))));
  const withFile = (id: string, file: string | null) =>
    file === null || file === id ? id : `${id}${" ".repeat(idWidth - displayWidth(id))}${GAP}${file}`;
  // A file name cut is cut in its middle: a series of uploads differs at its end (wave-1.csv, wave-2.csv).
  const named = (id: string, file: string | null): Pick<Row, "label" | "fitLabel"> => ({
    label: withFile(id, file),
    fitLabel: (width) => {
      const room = width - idWidth - GAP.length;
      return file === null || file === id || room < MIN_FILE ? id : withFile(id, cutInMiddle(file, room));
    },
  });
  const rows = shown.map((row): Row => ({
    ...(row.other
      ? { label: "(other batches)" }
      : row.batchId === null
        ? { label: "(no batch)" }
        : named(inlineSafe(row.batchId), row.fileName === null ? null : inlineSafe(row.fileName))),
    figures: [
      row.totalMessages === null ? "–" : count(row.totalMessages),
      count(row.messages),
      count(row.success),
      count(row.failure),
      percent(row.deliveryRate),
    ],
    fraction: row.deliveryRate ?? undefined,
    barStyle: (text) => palette.bar("success", text),
  }));
  const header = { ...named("batch id", "file"), figures: ["size", "counted", "success", "failure", "delivered"] };
  // The names before the bar: the delivered column already says what the bar shows.
  const lines = drawRows(rows, width, header, palette, { barAfterWholeLabels: true });
  return [...lines, ...more(batches.length - shown.length, "batch", "--csv --by batch", palette)];
}

function timeLines(report: StatsReport, width: number, palette: Palette, zone: TimeZone): string[] {
  const { interval, buckets, unplotted } = report.overTime;
  const range =
    stepsBetween(Date.parse(buckets[0]!.start), Date.parse(buckets[buckets.length - 1]!.start), interval) + 1;
  const lines =
    range <= MAX_TIME_ROWS
      ? timeRowLines(contiguous(buckets, interval, zone), interval, width, palette, zone)
      : sparkLines(buckets, range, interval, width, palette, zone);
  if (unplotted > 0)
    lines.push(
      palette.dim(
        `${count(unplotted)} ${plural(unplotted, "message")} with createdAt decades away from the rest are not drawn`,
      ),
    );
  return lines;
}

function timeRowLines(
  buckets: TimeRow[],
  interval: Interval,
  width: number,
  palette: Palette,
  zone: TimeZone,
): string[] {
  const busiest = Math.max(...buckets.map((bucket) => bucket.messages));
  const labels = buckets.map((bucket) => bucketLabel(bucket.start, interval, zone));
  // The hour clocks repeat in autumn: both get their offset, so neither reads as the other.
  const repeated = labels.map((label) => labels.indexOf(label) !== labels.lastIndexOf(label));
  const rows = buckets.map((bucket, i): Row => ({
    label:
      (repeated[i] ? `${labels[i]} ${offsetText(zone.offsetAt(Date.parse(bucket.start)))}` : labels[i]!) +
      (bucket.partial ? PARTIAL_MARK : ""),
    figures: [
      count(bucket.messages),
      count(bucket.failures),
      bucket.messages === 0 ? "" : percent(bucket.failures / bucket.messages),
    ],
    fraction: bucket.messages / busiest,
    failedFraction: bucket.messages === 0 ? 0 : bucket.failures / bucket.messages,
    barStyle: (text) => palette.bar("failure", text),
  }));
  const header = { label: "", figures: ["messages", "failed", "rate"] };
  const legend = palette
    .dim(fit(`${INDENT}█ messages, of which ▒ failed; bars scaled to the busiest ${interval}`, width))
    .replace("▒", palette.bar("failure", "▒"));
  const partly = buckets.some((bucket) => bucket.partial)
    ? [palette.dim(fit(`${INDENT}${partialNote(interval)}`, width))]
    : [];
  return [...drawRows(rows, width, header, palette), legend, ...partly];
}

/** After the label of a first or last hour or day that was counted only in part. */
export const PARTIAL_MARK = " (partial)";

/** What PARTIAL_MARK means, under the table or chart it marks. */
export function partialNote(interval: Interval): string {
  return `(partial): the count starts or ends inside that ${interval}`;
}

/** Too many buckets for a row each: two sparklines, several buckets a mark when the terminal is narrow. */
function sparkLines(
  buckets: TimeRow[],
  range: number,
  interval: Interval,
  width: number,
  palette: Palette,
  zone: TimeZone,
): string[] {
  const labelWidth = "failures".length;
  // Room for the marks once label and "max N" are placed; N is at most the total of messages.
  const maxWidth = `max ${count(sum(buckets, "messages"))}`.length;
  const room = Math.max(10, width - INDENT.length - labelWidth - 2 * GAP.length - maxWidth);
  const perMark = Math.ceil(range / room);
  // Marks by position in time, straight from the non-empty buckets: a range with long gaps is never filled in.
  const first = Date.parse(buckets[0]!.start);
  const groups = Array.from({ length: Math.ceil(range / perMark) }, () => ({ messages: 0, failures: 0 }));
  for (const bucket of buckets) {
    const group =
      groups[
        Math.min(groups.length - 1, Math.floor(stepsBetween(first, Date.parse(bucket.start), interval) / perMark))
      ]!;
    group.messages += bucket.messages;
    group.failures += bucket.failures;
  }
  const most = Math.max(...groups.map((group) => group.messages));
  const mostFailed = Math.max(...groups.map((group) => group.failures));
  const unit = perMark === 1 ? interval : `${perMark} ${interval}s`;
  const [oldest, newest] = [buckets[0]!, buckets[buckets.length - 1]!];
  const from = bucketLabel(oldest.start, interval, zone, false) + (oldest.partial ? PARTIAL_MARK : "");
  const to = bucketLabel(newest.start, interval, zone, false) + (newest.partial ? PARTIAL_MARK : "");
  return [
    `${INDENT}${"messages".padEnd(labelWidth)}${GAP}${spark(
      groups.map((group) => group.messages),
      most,
    )}${GAP}max ${count(most)}`,
    `${INDENT}${"failures".padEnd(labelWidth)}${GAP}${palette.bar(
      "failure",
      spark(
        groups.map((group) => group.failures),
        mostFailed,
      ),
    )}${GAP}max ${count(mostFailed)}`,
    palette.dim(fit(`${INDENT}${" ".repeat(labelWidth)}${GAP}${from} → ${to}`, width)),
    palette.dim(
      fit(`${INDENT}${" ".repeat(labelWidth)}${GAP}one mark per ${unit}, each line scaled to its own max`, width),
    ),
  ];
}

/**
 * Whole hours or days from one bucket start to another. Rounded: a local day may be 23 or 25 hours, but
 * the offsets of any two dates differ by far less than half a day.
 */
function stepsBetween(from: number, to: number, interval: Interval): number {
  return Math.round((to - from) / INTERVAL_MS[interval]);
}

// ---- drawing ----

/**
 * Label, right-aligned figures and a bar, laid out as the listing is (terminal/layout.ts): the figures
 * join from the left while they fit beside the label cut to MIN_LABEL (a very narrow terminal loses the
 * rightmost, the detail, before the label becomes unreadable), then the bar, up to MAX_BAR and at least
 * MIN_BAR. What is too wide comes off the bar first, then off the label.
 */
function drawRows(
  rows: Row[],
  width: number,
  header?: { label: string; figures: string[]; fitLabel?: (width: number) => string },
  palette?: Palette,
  options: { barAfterWholeLabels?: boolean } = {},
): string[] {
  const all = header ? [{ label: header.label, figures: header.figures }, ...rows] : rows;
  const figureCount = all[0]!.figures.length;
  const widest = (cell: (row: (typeof all)[number]) => string) =>
    Math.max(...all.map((row) => displayWidth(cell(row))));
  const labelWidth = widest((row) => row.label);
  const figureWidths = Array.from({ length: figureCount }, (_, i) => widest((row) => row.figures[i] ?? ""));
  const withWholeLabels =
    INDENT.length +
    labelWidth +
    figureWidths.reduce((sum, cells) => sum + GAP.length + cells, 0) +
    GAP.length +
    MIN_BAR;
  const hasBar =
    rows.some((row) => row.fraction !== undefined) && (!options.barAfterWholeLabels || withWholeLabels <= width);
  const slots: Slot[] = [
    { widths: [labelWidth], min: MIN_LABEL, yields: true },
    ...Array.from({ length: figureCount }, (_, i): Slot => ({
      widths: [figureWidths[i]!],
      rank: i + 1,
    })),
    ...(hasBar ? [{ widths: [MAX_BAR], min: MIN_BAR, rank: figureCount + 1 }] : []),
  ];
  const placed = layOut(slots, width - INDENT.length, GAP.length);
  const bar = placed.find(({ index }) => index === figureCount + 1);
  const labelRoom = placed.find(({ index }) => index === 0)!.width;
  const line = (row: Row | NonNullable<typeof header>, isHeader: boolean): string => {
    const cells = placed.map(({ index }): Cell => {
      if (index === 0) {
        const label = row.fitLabel ? row.fitLabel(labelRoom) : row.label;
        return { text: label, style: !isHeader && "labelStyle" in row ? row.labelStyle : undefined };
      }
      if (index <= figureCount) return { text: row.figures[index - 1] ?? "", align: "right" };
      return "fraction" in row && row.fraction !== undefined ? { text: drawBar(row, bar!.width) } : { text: "" };
    });
    const drawn = `${INDENT}${drawLine(placed, cells, GAP.length)}`;
    return isHeader ? (palette ?? { dim: plain }).dim(drawn) : drawn;
  };
  return [...(header ? [line(header, true)] : []), ...rows.map((row) => line(row, false))];
}

/** Eighth blocks for precision; any non-zero share shows at least a sliver, so a rare status is not invisible. */
function drawBar(row: Row, width: number): string {
  const cells = Math.max(0, Math.min(1, row.fraction ?? 0)) * width;
  let whole = Math.floor(cells);
  let eighths = Math.round((cells - whole) * 8);
  if (eighths === 8) {
    whole++;
    eighths = 0;
  }
  if (whole === 0 && eighths === 0 && (row.fraction ?? 0) > 0) eighths = 1;
  const style = row.barStyle ?? plain;
  if (row.failedFraction === undefined) return style("█".repeat(whole) + EIGHTHS[eighths]);
  // Over time: the failed part of the bar in a glyph of its own, rounded up so a single failure shows.
  const length = whole + (eighths > 0 ? 1 : 0);
  const failed = row.failedFraction > 0 ? Math.min(length, Math.max(1, Math.round(row.failedFraction * length))) : 0;
  return "█".repeat(length - failed) + style("▒".repeat(failed));
}

function spark(values: number[], max: number): string {
  return values
    .map((value) =>
      value === 0
        ? " "
        : SPARKS[Math.min(SPARKS.length - 1, Math.max(0, Math.ceil((value / max) * SPARKS.length) - 1))],
    )
    .join("");
}

/** Buckets from the first to the last with the empty ones put back, so gaps show as gaps (a few dozen at most). */
export function contiguous(buckets: TimeRow[], interval: Interval, zone: TimeZone): TimeRow[] {
  const byStart = new Map(buckets.map((bucket) => [Date.parse(bucket.start), bucket]));
  const clock = new BucketClock(zone);
  const last = Date.parse(buckets[buckets.length - 1]!.start);
  for (let at = Date.parse(buckets[0]!.start); at < last; at = clock.next(at, interval)) {
    if (!byStart.has(at)) byStart.set(at, { start: isoInZone(at, zone), messages: 0, failures: 0 });
  }
  return [...byStart].sort(([a], [b]) => a - b).map(([, bucket]) => bucket);
}

function more(hidden: number, noun: string, flags: string, palette: Palette): string[] {
  if (hidden <= 0) return [];
  return [
    palette.dim(
      `${INDENT}… and ${count(hidden)} more ` +
        `${noun === "batch" ? (hidden === 1 ? "batch" : "batches") : plural(hidden, noun)} (${flags} ` +
        `lists them all)`,
    ),
  ];
}

// ---- text ----

const fit = cutToWidth;

const count = countText;
const percent = percentText;
const plural = (n: number, noun: string): string => (n === 1 ? noun : `${noun}s`);
const sum = (rows: TimeRow[], key: "messages" | "failures"): number => rows.reduce((total, row) => total + row[key], 0);

/** `2026-11-22 Sun` or `2026-11-22 Sun 03:00`, the local date and hour the bucket starts at. */
export function bucketLabel(iso: string, interval: Interval, zone: TimeZone, weekday = true): string {
  const at = Date.parse(iso);
  const [date, time] = formatWallTime(at, zone).split(" ");
  const day = weekday ? `${date} ${["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][zone.wall(at).weekday]}` : date!;
  return interval === "day" ? day : `${day} ${time}`;
}

export function rangeText(first: string, last: string, zone: TimeZone): string {
  const from = Date.parse(first);
  const to = Date.parse(last);
  return `${formatWallTime(from, zone)} → ${formatWallTime(to, zone)} (${durationText(to - from)})`;
}

/**
 * What a report is of: `campaign a`, `batch b of campaign a`, `3 campaigns together (a, b, c)`. The total
 * of a run where some campaign could not be counted says how many of those asked for it holds.
 */
export function scopeText(report: StatsReport): string {
  const ids = report.campaignIds;
  if (ids === undefined)
    return report.batchId === null
      ? `campaign ${inlineSafe(report.campaignId)}`
      : `batch ${inlineSafe(report.batchId)} of campaign ${inlineSafe(report.campaignId)}`;
  const missing = report.campaignIdsNotCounted?.length ?? 0;
  const asked = ids.length + missing;
  if (ids.length === 0) return `none of ${asked} campaigns counted`;
  // One campaign counted of several named is that campaign, not "1 campaign together".
  if (ids.length === 1) return `campaign ${inlineSafe(ids[0]!)}${missing > 0 ? `, 1 of ${asked} campaigns` : ""}`;
  const counted = missing > 0 ? `${ids.length} of ${asked}` : String(ids.length);
  return `${counted} campaigns together (${ids.map(inlineSafe).join(", ")})`;
}

/** The title of the report in every view; a partial one says so first. */
export function reportTitle(report: StatsReport): string {
  return `${report.campaignIdsNotCounted ? "Partial delivery report" : "Delivery report"}: ${scopeText(report)}`;
}

/**
 * The line under a partial report's title: the campaigns no figure includes, each with why in a few words
 * when `reasons` has it (the comparison's rows); undefined for a complete report.
 */
export function notCountedText(report: StatsReport, reasons?: ReadonlyMap<string, string>): string | undefined {
  const missing = report.campaignIdsNotCounted;
  if (!missing) return undefined;
  const named = missing.map((id) => {
    const why = reasons?.get(id);
    return `${inlineSafe(id)}${why ? `, ${inlineSafe(why)}` : ""}`;
  });
  const which = missing.length === 1 ? "it" : "them";
  return `Not counted: ${named.join(reasons ? "; " : ", ")}. No figure below includes ${which}.`;
}

export function describeFilters(report: StatsReport, zone: TimeZone): string {
  const { search, statuses, since, until } = report.filters;
  const parts: string[] = [];
  if (search !== null)
    parts.push(
      search.startsWith("*")
        ? `recipient ending in ${inlineSafe(search.slice(1))}`
        : `recipient containing ${inlineSafe(search)}`,
    );
  if (statuses !== null) parts.push(`status ${statuses.map(inlineSafe).join(" or ")}`);
  const local = (iso: string) => formatWallTime(Date.parse(iso), zone);
  if (since !== null) parts.push(`created since ${local(since)}`);
  if (until !== null) parts.push(`created until ${local(until)}`);
  return parts.join(", ");
}
