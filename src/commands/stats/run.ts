// `msgstat stats`: read the whole listing through the same selector as `messages --all`, count as
// pages arrive, then write the report once, as a picture, JSON or one CSV table.
import { PagingError, repeatsLine } from "../../service/paging.js";
import type { ListingRef } from "../../service/endpoints.js";
import type { Context } from "../context.js";
import { ServiceError, ThresholdError, ThresholdUncheckedError } from "../../core/errors.js";
import { durationText } from "../../core/duration.js";
import { inlineSafe } from "../../core/text.js";
import { durationFigure, lateCounts, ordinal } from "../../reports/sections.js";
import { renderPrometheus } from "../../reports/prometheus.js";
import { count as countOf, countText, percentText } from "../../core/numbers.js";
import { PARSED_MESSAGES } from "../../service/endpoints.js";
import { MessageSelector } from "../../service/select.js";
import { BYTE_ORDER_MARK, csvRow } from "../../formats/csv.js";
import { loadPalette } from "../../terminal/palette.js";
import { openOutput, type Sink } from "../../output/sink.js";
import { startProgress, type Progress } from "../../terminal/spinner.js";
import { runAgainOnce } from "../shared/advice.js";
import { progressText } from "../shared/progress.js";
import { describeWindow } from "../shared/filters.js";
import { StatsAccumulator } from "../../stats/accumulator.js";
import type { ComparisonRow } from "../../reports/comparison.js";
import { buildReport, type StatsReport } from "../../stats/report.js";
import { reportTable, type TableChoice } from "../../stats/tables.js";
import { nothingMatched } from "../shared/filters.js";
import { isGzipFile } from "../shared/output-file.js";
import { explainNotFound } from "../shared/service-errors.js";
import type { StatsOptions } from "./options.js";

export async function runStats(listing: ListingRef, options: StatsOptions, ctx: Context): Promise<void> {
  for (const warning of options.warnings) ctx.warn(warning);
  const window = describeWindow(options, ctx.timeZone);
  if (window && ctx.verbose) ctx.note(window);
  // The file is opened first, so a folder that does not exist is known before a long count.
  const toFile = options.outputFile !== undefined;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  let report: StatsReport;
  try {
    const tally = await countTally(listing, options, ctx, await startProgress(ctx, "Counting messages…"));
    report = reportOf(tally, listing, options, ctx);
    if (options.format.kind === "prometheus") await sink.write(metricsText([{ ...listing, tally, report }], ctx));
    else await write(report, options, sink, ctx, !toFile && ctx.stdoutIsTTY);
    await finishReport(sink, ctx);
  } catch (error) {
    await writeMetricsOfNone(error, listing, options, sink, ctx);
    throw explainNotFound(error, listing);
  }
  if (toFile) ctx.note(`wrote the report of ${countOf(report.totals.messages, "message")} to ${options.outputFile}`);
  alertOnThreshold(report);
  refuseUncheckedThreshold(report);
}

/**
 * A campaign that could not be read, in metrics: its `msgstat_campaign_up 0` is still written, so a failing cron
 * job shows as a series rather than as a silence (the error's exit code stands). Anything else: the file as it was.
 */
async function writeMetricsOfNone(
  error: unknown,
  listing: ListingRef,
  options: StatsOptions,
  sink: Sink,
  ctx: Context,
): Promise<void> {
  if (options.format.kind !== "prometheus" || !(error instanceof ServiceError) || ctx.signal.aborted)
    return sink.discard();
  try {
    await sink.write(metricsText([listing], ctx));
    await finishReport(sink, ctx);
    if (options.outputFile !== undefined)
      ctx.always.note(`wrote msgstat_campaign_up 0 for ${inlineSafe(listing.campaignId)} to ${options.outputFile}`);
  } catch {
    await sink.discard();
  }
}

/** The campaigns' metrics: each counted one with its tally and report; one without could not be read. */
export function metricsText(
  campaigns: ReadonlyArray<ListingRef & { tally?: StatsAccumulator; report?: StatsReport }>,
  ctx: Context,
): string {
  return renderPrometheus(
    campaigns.map(({ campaignId, batchId, tally, report }) => ({
      campaignId,
      batchId,
      counted: tally && report ? { report, timeToFinal: tally.timeToFinal.buckets() } : undefined,
    })),
    ctx.now(),
  );
}

/**
 * Puts the report in place. A test may hold the run just before (the Context's `atStep`), its text on disk
 * under the temporary name, to show that a reader of the target never sees part of it.
 */
export async function finishReport(sink: Sink, ctx: Context): Promise<void> {
  if (ctx.atStep) {
    await sink.flush();
    await ctx.atStep("report-written");
  }
  await sink.finish();
}

/** Reads the whole listing through the same selector as `messages --all` and builds the report. */
export async function countReport(
  listing: ListingRef,
  options: StatsOptions,
  ctx: Context,
  progress: Progress,
): Promise<StatsReport> {
  const tally = await countTally(listing, options, ctx, progress);
  return reportOf(tally, listing, options, ctx);
}

/**
 * The tally of one listing, read to its end. `onPage` replaces the spinner's own text after each page
 * (several campaigns share one spinner, which says how far all of them are).
 */
export async function countTally(
  listing: ListingRef,
  options: StatsOptions,
  ctx: Context,
  progress: Progress,
  onPageRead?: (selector: MessageSelector) => void,
): Promise<StatsAccumulator> {
  const client = await ctx.client();
  const onPage = () =>
    onPageRead ? onPageRead(selector) : progress.update(progressText("Counting messages…", [selector]));
  const selector: MessageSelector = new MessageSelector(client, {
    listing,
    search: options.search,
    recipientTest: options.recipientTest,
    statuses: options.statuses,
    since: options.since,
    until: options.until,
    limit: Number.POSITIVE_INFINITY,
    pageSize: 1000,
    onPage,
  });
  const tally = await count(selector, newTally(listing, options, ctx), progress);
  warnAboutReading(selector, ctx);
  return tally;
}

/** An empty tally for this listing and these options. */
export function newTally(listing: ListingRef, options: StatsOptions, ctx: Context): StatsAccumulator {
  return new StatsAccumulator({
    byBatch: listing.batchId === undefined,
    interval: options.interval,
    timeZone: ctx.timeZone,
    maxTimeToFinalMs: options.maxTimeToFinal?.ms,
  });
}

/** The report of a tally; a warning when --interval could not be kept. */
export function reportOf(
  tally: StatsAccumulator,
  listing: ListingRef,
  options: StatsOptions,
  ctx: Context,
  warn = true,
): StatsReport {
  const report = buildReport(tally, { ...listing, ...options, generatedAt: ctx.now(), timeZone: ctx.timeZone });
  if (warn && options.interval !== undefined && report.overTime.interval !== options.interval) {
    ctx.warn(
      `--interval ${options.interval}: the messages span too long a time for that; counted per ` +
        `${report.overTime.interval} instead`,
    );
  }
  return report;
}

/** --max-failure-rate and --max-time-to-final: the report was written; the exit code raises the alarm. */
export function alertOnThreshold(report: StatsReport): void {
  const { threshold, delivery } = report;
  const late = report.timeToFinalThreshold?.exceeded ? lateLine(report) : undefined;
  if (threshold?.exceeded) {
    const error = new ThresholdError(
      `failure rate ${percentText(delivery.failureRate)} (${countText(delivery.failure)} of ` +
        `${countText(delivery.final)} final messages) is above --max-failure-rate ` +
        `${threshold.maxFailureRate}%`,
    );
    throw late ? error.withHint(late) : error;
  }
  if (late) throw new ThresholdError(late);
}

/** `95th percentile of time to final status is above --max-time-to-final 5 min`, and the counts behind it. */
export function lateLine(report: StatsReport, name?: string): string {
  const limit = report.timeToFinalThreshold!;
  const about = `about ${durationFigure(limit.percentileMs)}`;
  if (name !== undefined) return `${name}: ${about}; ${lateCounts(report)}`;
  return (
    `${ordinal(limit.percentile)} percentile of time to final status (${about}) is above ` +
    `--max-time-to-final ${limitText(limit)}: ${lateCounts(report)}`
  );
}

/** --max-time-to-final's duration, as msgstat writes one: `5 min`, `1 min 30 s`. */
export function limitText(limit: { maxTimeToFinalMs: number }): string {
  return durationText(limit.maxTimeToFinalMs, { exact: true });
}

/**
 * --max-failure-rate with no final message, or --max-time-to-final with none measured: nothing to compare, so
 * the threshold was not checked. A run of its own says so with exit 8, so a cron job or monitor does not read an
 * empty window as a pass. (--watch goes on instead: final messages may yet come.)
 */
export function refuseUncheckedThreshold(report: StatsReport): void {
  const unchecked = uncheckedFlags(report);
  if (unchecked.length === 0) return;
  const none = report.delivery.final === 0;
  throw new ThresholdUncheckedError(
    `${unchecked.join(" and ")} not checked: ${none ? "no message is final" : "no final message has its times"}`,
  )
    .withHint(
      report.totals.messages === 0
        ? "Nothing was counted: an empty campaign, or no message in the window or filters."
        : none
          ? `${countOf(report.totals.messages, "message")} counted, none final yet (success or failure).`
          : `${countOf(report.delivery.final, "final message")} counted, ` +
            "none with a createdAt and an attempt's updatedAt.",
    )
    .withHint("The report was written; exit 8 says the threshold could not be checked.");
}

/** The thresholds given that could not be checked for this report, as their flags: `--max-failure-rate 5%`. */
export function uncheckedFlags(report: StatsReport): string[] {
  const { threshold, timeToFinalThreshold: late } = report;
  return [
    ...(threshold && !threshold.checked ? [`--max-failure-rate ${threshold.maxFailureRate}%`] : []),
    ...(late && !late.checked ? [`--max-time-to-final ${limitText(late)}`] : []),
  ];
}

async function count(
  selector: MessageSelector,
  tally: StatsAccumulator,
  progress: Progress,
): Promise<StatsAccumulator> {
  try {
    for await (const chunk of selector.chunks(PARSED_MESSAGES)) {
      for (const message of chunk) tally.add(message);
    }
  } catch (error) {
    // A count cut short would understate every figure, so nothing is reported.
    if (error instanceof PagingError && error.transient)
      error.withHint(`No report was written: a partial count would mislead. ${runAgainOnce(error)}`);
    throw error;
  } finally {
    progress.stop();
  }
  return tally;
}

function warnAboutReading(selector: MessageSelector, ctx: Context): void {
  const { duplicatesDropped } = selector.reader;
  if (duplicatesDropped > 0) ctx.warn(`${repeatsLine(duplicatesDropped)}; the repeats were not counted`);
  const { undatedSkipped, printed, statusesSeen } = selector.outcome;
  if (undatedSkipped > 0)
    ctx.warn(`${undatedSkipped} message(s) without a readable createdAt were left out by --since/--until`);
  if (printed === 0 && statusesSeen.size > 0) ctx.note(nothingMatched(statusesSeen));
}

/** `toTerminal`: the report goes to a terminal (not a pipe, not -o), so it may be pretty and coloured. */
export async function write(
  report: StatsReport,
  options: StatsOptions,
  sink: Sink,
  ctx: Context,
  toTerminal: boolean,
  campaigns?: readonly ComparisonRow[],
): Promise<void> {
  switch (options.format.kind) {
    case "json":
      return sink.write(JSON.stringify(report, null, toTerminal ? 2 : undefined) + "\n");
    case "csv":
      return sink.write((options.format.bom ? BYTE_ORDER_MARK : "") + csvText(report, options.format.by));
    case "html":
    case "md":
      return sink.write(await shareableText(options.format.kind, { total: report }, ctx));
    case "prometheus":
      // The metrics need each campaign's tally: runStats and runCampaignsStats write them.
      throw new Error("metrics are written by metricsText");
    case "report": {
      // Colour only on a terminal, as for every command: FORCE_COLOR does not colour a pipe or a file.
      const palette = await loadPalette(ctx.color && toTerminal);
      // Loaded here, not up front: it measures text with string-width, which --json and --csv never need.
      const { renderStatsReport } = await import("../../reports/terminal.js");
      return sink.write(
        renderStatsReport(report, { columns: ctx.columns, palette, timeZone: ctx.timeZone, campaigns }),
      );
    }
  }
}

/**
 * The report as a page to share (HTML) or a document for a ticket (Markdown), of one campaign or, with
 * `campaigns`, of several (the comparison first). The renderers are loaded only when asked for.
 */
export async function shareableText(
  kind: "html" | "md",
  reports: { total: StatsReport; campaigns?: ComparisonRow[] },
  ctx: Context,
): Promise<string> {
  const input = { ...reports, version: ctx.version, timeZone: ctx.timeZone };
  if (kind === "html") return (await import("../../reports/html.js")).renderHtmlReport(input);
  return (await import("../../reports/markdown.js")).renderMarkdownReport(input);
}

/** Server text (statuses, error codes, file names) can start with = or +: the formula guard stays on. */
function csvText(report: StatsReport, by: TableChoice): string {
  const { header, rows } = reportTable(report, by);
  return csvRow(header, false) + rows.map((row) => csvRow(row, true)).join("");
}
