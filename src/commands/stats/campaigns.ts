// `msgstat stats <campaignId...>` with several campaigns: each counted to its end (several at once,
// by the fan-out engine), then a comparison, one row a campaign and the total, before the usual
// report of the total. A campaign that cannot be counted is named and left out of the total whole;
// the others are still reported, titled as partial (to a file only with --partial), and the exit code
// says the run was incomplete.
import { ExitCode, ThresholdError, ThresholdUncheckedError, type ServiceError } from "../../core/errors.js";
import { count as countOf, countText, percentText } from "../../core/numbers.js";
import { forEachCampaign, type CampaignResult } from "../../service/fan-out.js";
import type { MessageSelector } from "../../service/select.js";
import { buildTotalReport, type StatsReport } from "../../stats/report.js";
import type { StatsAccumulator } from "../../stats/accumulator.js";
import { openOutput, type Sink } from "../../output/sink.js";
import { startProgress, type Progress } from "../../terminal/spinner.js";
import { failedCampaignLine, incompleteCampaigns, incompleteFileLines } from "../shared/campaign-outcomes.js";
import { progressText } from "../shared/progress.js";
import { describeWindow } from "../shared/filters.js";
import { isGzipFile } from "../shared/output-file.js";
import type { Context } from "../context.js";
import { ordinal } from "../../reports/sections.js";
import type { StatsOptions } from "./options.js";
import {
  countTally,
  finishReport,
  lateLine,
  limitText,
  metricsText,
  newTally,
  reportOf,
  shareableText,
  uncheckedFlags,
  write,
} from "./run.js";

/** What a run over several campaigns writes: a report per campaign counted, and the report of all of them. */
export interface CampaignsReport {
  campaigns: StatsReport[];
  total: StatsReport;
  /** Only when some campaign could not be counted: which, and why (it is in neither the list nor the total). */
  incomplete?: Array<{ campaignId: string; reason: string }>;
}

export async function runCampaignsStats(
  campaignIds: readonly string[],
  options: StatsOptions,
  concurrency: number,
  ctx: Context,
): Promise<void> {
  for (const warning of options.warnings) ctx.warn(warning);
  const window = describeWindow(options, ctx.timeZone);
  if (window && ctx.verbose) ctx.note(window);
  const toFile = options.outputFile !== undefined;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  let results: Array<CampaignResult<StatsAccumulator>>;
  try {
    results = await countCampaigns(
      campaignIds,
      options,
      concurrency,
      ctx,
      await startProgress(ctx, "Counting messages…"),
    );
  } catch (error) {
    await sink.discard();
    throw error;
  }
  const outcome = reportsOf(results, options, ctx);
  const incomplete = incompleteCampaigns(results);
  const above = aboveThreshold(outcome, options);
  // As for a listing: a file is replaced only by a complete result, or with --partial by the report of what
  // was counted (never by one of nothing); the terminal and a pipe get what was counted. Metrics are always
  // written: a campaign not counted is its `msgstat_campaign_up 0`.
  const counted = outcome.campaigns.length;
  const kept = !incomplete || !toFile || (options.partial && counted > 0) || options.format.kind === "prometheus";
  if (!kept) await sink.discard();
  else {
    try {
      await writeCampaigns(outcome, results, options, sink, ctx, !toFile && ctx.stdoutIsTTY);
      await finishReport(sink, ctx);
    } catch (error) {
      await sink.discard();
      throw error;
    }
    if (toFile)
      ctx.note(
        `wrote the ${incomplete ? "partial " : ""}report of ${countOf(outcome.total.totals.messages, "message")} ` +
          `in ${incomplete ? `${counted} of ` : ""}${countOf(campaignIds.length, "campaign")} to ${options.outputFile}`,
      );
  }
  if (!incomplete) {
    if (above) throw above;
    const unchecked = uncheckedThreshold(outcome);
    if (unchecked) throw unchecked;
    return;
  }
  // The incomplete run's own line ("2 of 3 campaigns complete") is the last; what else there is to say comes first.
  if (above) for (const line of [above.message, ...above.hints]) ctx.always.warn(line);
  if (toFile)
    for (const line of incompleteFileLines(options.outputFile!, sink.fate, results, kept, { saysSo: true }))
      ctx.always.note(line);
  throw incomplete;
}

/** Each campaign read to its end through the same code as one campaign's stats, `concurrency` at once. */
async function countCampaigns(
  campaignIds: readonly string[],
  options: StatsOptions,
  concurrency: number,
  ctx: Context,
  progress: Progress,
): Promise<Array<CampaignResult<StatsAccumulator>>> {
  // One spinner for all of them: pages and messages read so far, across the campaigns.
  const reading = new Map<string, MessageSelector>();
  let done = 0;
  const update = () =>
    progress.update(progressText("Counting messages…", reading.values(), { done, of: campaignIds.length }));
  // Each count stops "its" spinner when it ends; the shared one is stopped once, when all have.
  const shared: Progress = {
    update: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    stop: () => undefined,
  };
  try {
    return await forEachCampaign(
      campaignIds,
      async (campaignId) => {
        const tally = await countTally({ campaignId }, options, ctx, shared, (selector) => {
          reading.set(campaignId, selector);
          update();
        });
        done++;
        update();
        return tally;
      },
      {
        concurrency,
        onFailure: (result) => {
          progress.pause();
          ctx.always.warn(failedCampaignLine(result));
          progress.resume();
        },
      },
    );
  } finally {
    progress.stop();
  }
}

function reportsOf(
  results: ReadonlyArray<CampaignResult<StatsAccumulator>>,
  options: StatsOptions,
  ctx: Context,
): CampaignsReport {
  const counted = results.filter((result) => result.state === "complete" && result.value !== undefined);
  const total = newTally({ campaignId: "" }, options, ctx);
  for (const result of counted) total.absorb(result.value!);
  const campaigns = counted.map((result) =>
    reportOf(result.value!, { campaignId: result.campaignId }, options, ctx, false),
  );
  const failed = results.filter((result) => result.state === "failed");
  const totalReport = buildTotalReport(
    total,
    counted.map((result) => result.campaignId),
    { campaignId: "", ...options, generatedAt: ctx.now(), timeZone: ctx.timeZone },
    failed.map((result) => result.campaignId),
  );
  // Said once, of the total, whose buckets the report draws.
  if (options.interval !== undefined && totalReport.overTime.interval !== options.interval)
    ctx.warn(
      `--interval ${options.interval}: the messages span too long a time for that; counted per ` +
        `${totalReport.overTime.interval} instead`,
    );
  return {
    campaigns,
    total: totalReport,
    ...(failed.length > 0
      ? { incomplete: failed.map((result) => ({ campaignId: result.campaignId, reason: result.error?.message ?? "" })) }
      : {}),
  };
}

async function writeCampaigns(
  outcome: CampaignsReport,
  results: ReadonlyArray<CampaignResult<StatsAccumulator>>,
  options: StatsOptions,
  sink: Sink,
  ctx: Context,
  toTerminal: boolean,
): Promise<void> {
  switch (options.format.kind) {
    case "json":
      return sink.write(JSON.stringify(outcome, null, toTerminal ? 2 : undefined) + "\n");
    case "csv":
      // One table, as for one campaign: of the total (the comparison is for people; --json has every figure).
      return write(outcome.total, options, sink, ctx, toTerminal);
    case "html":
    case "md":
      return sink.write(
        await shareableText(
          options.format.kind,
          { total: outcome.total, campaigns: comparisonRows(outcome, results) },
          ctx,
        ),
      );
    case "report":
      return write(outcome.total, options, sink, ctx, toTerminal, comparisonRows(outcome, results));
    case "prometheus": {
      // One series set per campaign named, in that order; no total (Prometheus sums).
      const byId = new Map(outcome.campaigns.map((report) => [report.campaignId, report]));
      return sink.write(
        metricsText(
          results.map((result) => ({
            campaignId: result.campaignId,
            tally: result.value,
            report: byId.get(result.campaignId),
          })),
          ctx,
        ),
      );
    }
  }
}

/** A row a campaign named, in that order: its report, or (not counted) why not in a few words. */
function comparisonRows(outcome: CampaignsReport, results: ReadonlyArray<CampaignResult<StatsAccumulator>>) {
  const byId = new Map(outcome.campaigns.map((report) => [report.campaignId, report]));
  return results.map((result) => ({
    campaignId: result.campaignId,
    report: byId.get(result.campaignId),
    uncounted: result.state === "failed" ? shortReason(result.error) : undefined,
  }));
}

/** Why a campaign was not counted, in the few words a table row has room for (stderr has the whole error). */
function shortReason(error: ServiceError | undefined): string {
  const code = error?.exitCode;
  const why =
    code === ExitCode.notFound ? "not found" : code === ExitCode.unauthorized ? "not authorised" : "could not be read";
  // The HTTP status, when there was one, is what a ticket's reader can act on; stderr has the whole error.
  return error?.status === undefined ? why : `${why} (${error.status})`;
}

/**
 * --max-failure-rate where a campaign (or the total) has no final message, --max-time-to-final where none was
 * measured: not a pass. Exit 8 as for one campaign, each one that could not be checked named; reached only when
 * none is above a threshold.
 */
function uncheckedThreshold(outcome: CampaignsReport): ThresholdUncheckedError | undefined {
  const unchecked = named(outcome).filter(({ report }) => uncheckedFlags(report).length > 0);
  if (unchecked.length === 0) return undefined;
  const flags = [...new Set(unchecked.flatMap(({ report }) => uncheckedFlags(report)))];
  const error = new ThresholdUncheckedError(
    `${flags.join(" and ")} not checked for ${unchecked.map(({ name }) => name).join(", ")}: ` +
      (unchecked.every(({ report }) => report.delivery.final === 0)
        ? "no message is final there"
        : "no message is final, or none has its times, there"),
  );
  return error.withHint("The report was written; exit 8 says the threshold could not be checked for all of it.");
}

/** Each campaign counted, then the total: what the thresholds are checked against. */
function named(outcome: CampaignsReport): Array<{ name: string; report: StatsReport }> {
  return [
    ...outcome.campaigns.map((report) => ({ name: report.campaignId, report })),
    { name: "total", report: outcome.total },
  ];
}

/**
 * --max-failure-rate and --max-time-to-final against each campaign and the total: every one above named on
 * stderr, one a line (the error's hints); undefined when none is.
 */
function aboveThreshold(outcome: CampaignsReport, options: StatsOptions): ThresholdError | undefined {
  const failing = named(outcome).filter(({ report }) => report.threshold?.exceeded === true);
  const late = named(outcome).filter(({ report }) => report.timeToFinalThreshold?.exceeded === true);
  const lines = [
    ...(failing.length === 0
      ? []
      : [
          `the failure rate is above --max-failure-rate ${options.maxFailureRate}% in ${where(failing, outcome)}`,
          ...failing.map(
            ({ name, report: { delivery } }) =>
              `${name}: ${percentText(delivery.failureRate)} (${countText(delivery.failure)} of ` +
              `${countText(delivery.final)} final messages)`,
          ),
        ]),
    ...(late.length === 0
      ? []
      : [
          `the ${ordinal(options.maxTimeToFinal!.percentile)} percentile of time to final status is above ` +
            `--max-time-to-final ${limitText(late[0]!.report.timeToFinalThreshold!)} in ${where(late, outcome)}`,
          ...late.map(({ name, report }) => lateLine(report, name)),
        ]),
  ];
  if (lines.length === 0) return undefined;
  const error = new ThresholdError(lines[0]);
  for (const line of lines.slice(1)) error.withHint(line);
  return error;
}

/** `2 of 3 campaigns and in the total`, `1 of the 2 campaigns counted`. */
function where(above: ReadonlyArray<{ name: string }>, outcome: CampaignsReport): string {
  const campaigns = above.filter(({ name }) => name !== "total").length;
  return (
    `${campaigns} of ${outcome.incomplete ? "the " : ""}${countOf(outcome.campaigns.length, "campaign")}` +
    `${outcome.incomplete ? " counted" : ""}` +
    (above.some(({ name }) => name === "total") ? " and in the total" : "")
  );
}
