// `msgstat stats <campaignId> [--batch <batchId>]`: a delivery report of a campaign or one batch of it.
import type { Command } from "@commander-js/extra-typings";
import { requireId } from "../shared/option-values.js";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { chosenConcurrency } from "../shared/concurrency.js";
import { FILTER_BRIEF_HELP } from "../shared/filters.js";
import { addHelpSections, setBriefHelp } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { addStatsOptions } from "./flags.js";
import { parseStatsOptions } from "./options.js";
import { runStats } from "./run.js";
import { runCampaignsStats } from "./campaigns.js";
import { UsageError } from "../../core/errors.js";
import { runWatch } from "./watch.js";

const REPORT_HELP =
  "messages counted, their createdAt span and attempts; messages by latestStatus; the delivery " +
  "rate (success over the messages in a final state: success or failure; created and any other " +
  "status are not final yet); failures by the error of their latest failed attempt; attempts per " +
  "message; each batch (campaign stats only); messages and failures per hour or day of --tz. " +
  "--json gives the same figures as data (msgstat help stats); --csv the summary row, --csv --by " +
  "another table; --format html one page to share, --format md Markdown (msgstat help report); " +
  "-o x.prom metrics for Prometheus (msgstat help monitoring).";

export function defineStats(command: Command, run: Run): void {
  const stats = addGlobalOptions(
    addStatsOptions(command.argument("<campaignId...>", "the campaign; several: compared, then together")),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (campaignIds, raw, cmd) => {
    const ctx = contextFor(cmd, run);
    const ids = [...new Set(campaignIds)];
    for (const id of ids) requireId("campaignId", id);
    const options = parseStatsOptions(raw, ctx.now(), ctx.timeZone);
    if (ids.length > 1) {
      const clash = raw.batch !== undefined ? "--batch" : options.watch ? "--watch" : undefined;
      if (clash) throw new UsageError(`${clash} goes with one campaign, not ${ids.length}`);
      const concurrency = chosenConcurrency(raw.concurrency, ctx.settings);
      return runCampaignsStats(ids, options, concurrency, ctx);
    }
    const campaignId = ids[0]!;
    if (options.watch) await runWatch({ campaignId, batchId: raw.batch }, options, ctx);
    else await runStats({ campaignId, batchId: raw.batch }, options, ctx);
  });
  setBriefHelp(stats, {
    options: {
      ...FILTER_BRIEF_HELP,
      "--batch": "",
      "--interval": "hour or day, for the report over time",
      "--max-failure-rate": "exit 5 above it, 8 if no message is final",
      "--max-time-to-final": "exit 5 above it (95th percentile; 5m, 5m:99)",
      "--format": "text, json, csv, html, md or prometheus",
      "--json": "the report as JSON",
      "--csv": "the summary as CSV, or the table --by names",
      "--by": "summary, status, error, batch, attempts, time",
      "--output": "to this file: .json, .csv, .html, .md, .prom",
      "--watch": "redo the report and what changed, until Ctrl-C",
    },
    topics: ["stats", "report", "monitoring", "dates", "exit-codes"],
  });
  addHelpSections(
    stats,
    { heading: "The report:", text: REPORT_HELP, fullOnly: true },
    {
      heading: "Examples:",
      examples: [
        { command: "msgstat stats cmp-spring-sale" },
        { command: "msgstat stats cmp-spring-sale --batch bat-spring-w1" },
        { command: "msgstat stats cmp-spring-sale --since 7d --interval day" },
        { command: "msgstat stats cmp-spring-sale --csv --by error > errors.csv" },
        { command: "msgstat stats cmp-spring-sale cmp-loyalty-es", comment: "side by side, then the two together" },
        {
          command: "msgstat stats cmp-spring-sale --since 7d --max-failure-rate 5% --json",
          comment: "alert when more than 5 % of the final messages failed",
          exitCode: 5,
        },
      ],
    },
  );
}
