// Flags of `msgstat stats`, for commander; options.ts combines their values.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { TABLE_CHOICES } from "../../stats/tables.js";
import { INTERVALS } from "../../stats/time-buckets.js";
import { addFilterOptions } from "../shared/filters.js";
import { concurrencyOption } from "../shared/concurrency.js";
import { bomOption, outputOption } from "../shared/output-flags.js";
import {
  choiceOption,
  durationOption,
  durationPercentileOption,
  onceTextOption,
  percentOption,
  type NoOptions,
} from "../shared/option-values.js";

/** --format's choices; text is the report for a terminal. */
export const STATS_FORMATS = ["text", "json", "csv", "html", "md", "prometheus"] as const;

export function addStatsOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return addFilterOptions(command)
    .addOption(
      onceTextOption(
        "--batch <batchId>",
        "report on this one batch of the campaign only",
        "a batch id",
        "Run stats once per batch, or leave out --batch for a row per batch.",
      ),
    )
    .addOption(
      choiceOption(
        "--interval <unit>",
        "messages over time per hour or per day (default: hour for up to two days, else day)",
        INTERVALS,
      ),
    )
    .addOption(
      percentOption(
        "--max-failure-rate <percent>",
        "exit 5, after the report, when failures are more than this percent of the final messages (5 and 5% " +
          "mean 5 %; a bare value below 1 is refused: write 0.5% for half a percent); exit 8 when no message " +
          "is final, so there was nothing to check (msgstat help exit-codes)",
      ),
    )
    .addOption(
      durationPercentileOption(
        "--max-time-to-final <duration>",
        "exit 5, after the report, when the 95th percentile of the time from creation to final status is " +
          "above the duration, for any campaign or the total; another percentile after a colon (5m, 90s:99, " +
          "1h:99.9); exit 8 when no message is final (msgstat help monitoring)",
        { minMs: 1_000, maxMs: 30 * 86_400_000, minPercentile: 50, maxPercentile: 99.9, defaultPercentile: 95 },
      ),
    )
    .addOption(
      choiceOption(
        "--format <format>",
        "text (the default), json, csv, html (one page to share: msgstat help report), md (Markdown) or " +
          "prometheus (for node_exporter's textfile collector: msgstat help monitoring); or from -o's extension",
        STATS_FORMATS,
      ),
    )
    .option("--json", "the report as JSON (structure: msgstat help stats)")
    .option("--csv", "one table of the report as CSV (the summary row unless --by chooses another)")
    .addOption(bomOption())
    .addOption(choiceOption("--by <table>", "the table --csv writes (default: summary)", TABLE_CHOICES))
    .addOption(
      outputOption(
        "write the report to this file (atomically) instead of stdout; .txt, .json, .csv, .html, .md and " +
          ".prom set the format (then .gz: gzipped)",
      ),
    )
    .option(
      "--partial",
      "with several campaigns and -o: write the report of those counted even when some could not be (it says so)",
    )
    .option(
      "--watch",
      "read the listing again and again and show the report each time, with what changed since the " +
        "start (on a terminal, redrawn in place; else a JSON line a round) until Ctrl-C",
    )
    .addOption(
      durationOption(
        "--every <duration>",
        "with --watch: time between rounds (default 10s, or the time a round took if longer)",
        { minMs: 1_000, maxMs: 86_400_000 },
      ),
    )
    .addOption(concurrencyOption());
}

export type StatsFlags = ReturnType<ReturnType<typeof addStatsOptions<[], NoOptions, NoOptions>>["opts"]>;
