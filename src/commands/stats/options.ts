// Options of `msgstat stats`: the flags, each already checked as it was read, combined into one
// typed object before anything is sent.
import { UsageError } from "../../core/errors.js";
import { shiftDecimal } from "../../core/numbers.js";
import type { TimeZone } from "../../core/time.js";
import type { Interval } from "../../stats/time-buckets.js";
import type { TimeToFinalLimit } from "../../stats/report.js";
import { DEFAULT_TABLE, type TableChoice } from "../../stats/tables.js";
import { parseFilterOptions, type FilterOptions } from "../shared/filters.js";
import { formatFor, requireCsv, type FileFormats } from "../shared/output-file.js";
import type { StatsFlags } from "./flags.js";

export type StatsFormat =
  | { kind: "report" }
  | { kind: "json" }
  | { kind: "csv"; by: TableChoice; bom: boolean }
  | { kind: "html" }
  | { kind: "md" }
  | { kind: "prometheus" };

export interface StatsOptions extends FilterOptions {
  interval?: Interval;
  /** Percent, 0 to 100. */
  maxFailureRate?: number;
  /** --max-time-to-final: that percentile of time to final status at most `ms`. */
  maxTimeToFinal?: TimeToFinalLimit;
  format: StatsFormat;
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
  /** --partial: with several campaigns and -o, write the report of those counted when some could not be. */
  partial: boolean;
  /** --watch: a round every `everyMs` (or the time a round took, if longer), until interrupted. */
  watch?: { everyMs: number };
}

export const DEFAULT_WATCH_EVERY_MS = 10_000;

const WATCHLESS = { csv: "CSV tables", html: "HTML", md: "Markdown", prometheus: "Prometheus metrics" } as const;

export function parseStatsOptions(raw: StatsFlags, now: number, zone: TimeZone): StatsOptions {
  const options: StatsOptions = {
    ...parseFilterOptions(raw, now, zone),
    interval: raw.interval,
    maxFailureRate: raw.maxFailureRate?.percent,
    maxTimeToFinal: raw.maxTimeToFinal,
    format: chosenFormat(raw),
    outputFile: raw.output,
    partial: raw.partial === true,
  };
  if (raw.every !== undefined && !raw.watch)
    throw new UsageError("--every goes with --watch: add --watch to read the listing again and again");
  if (raw.watch) {
    const kind = options.format.kind;
    if (kind !== "report" && kind !== "json") {
      const error = new UsageError(
        `--watch shows the report, or a JSON line a round: it does not write ${WATCHLESS[kind]}`,
      );
      // A textfile collector wants a file replaced now and then, which cron does (msgstat help monitoring).
      throw kind === "prometheus" ? error.withHint("Run stats -o <folder>/msgstat.prom from cron instead.") : error;
    }
    options.watch = { everyMs: raw.every ?? DEFAULT_WATCH_EVERY_MS };
  }
  const rate = raw.maxFailureRate;
  // The JSON report gives rates as fractions (0.137): a threshold copied from it would be 100 times too low,
  // and a cron job under --quiet would alert every night without a word of why. Written with %, it is meant.
  if (rate?.bare && rate.percent > 0 && rate.percent < 1)
    throw new UsageError(
      `--max-failure-rate ${rate.percent} reads as ${rate.percent} %; write ${rate.percent}% if that is meant, ` +
        `or ${shiftDecimal(rate.percent, 2)}% for ${shiftDecimal(rate.percent, 2)} percent`,
    );
  return options;
}

// The report is plain text in a file: a .txt file, or a name without an extension. A page to share is
// .html (or .htm), Markdown .md; .prom is what node_exporter's textfile collector reads.
const STATS_FILES: FileFormats<StatsFormat["kind"]> = {
  types: {
    ".txt": "report",
    ".json": "json",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".prom": "prometheus",
  },
  fallback: "report",
  advice: "Rename it (.txt for the report, .html for a page), or choose a format with --format: any name then works.",
};

const FORMAT_KINDS = {
  text: "report",
  json: "json",
  csv: "csv",
  html: "html",
  md: "md",
  prometheus: "prometheus",
} as const;

function chosenFormat(raw: StatsFlags): StatsFormat {
  const chosen = new Map<StatsFormat["kind"], string>();
  if (raw.format !== undefined) chosen.set(FORMAT_KINDS[raw.format], `--format ${raw.format}`);
  if (raw.json) chosen.set("json", "--json");
  if (raw.csv) chosen.set("csv", "--csv");
  if (chosen.size > 1) {
    const names = [...chosen.keys()].map((kind) => (kind === "report" ? "text" : kind));
    throw new UsageError(`choose one output format, not ${names.join(" and ")}`);
  }
  const [first] = chosen;
  const flagged = first && { format: first[0], flag: first[1] };
  const kind = formatFor<StatsFormat["kind"]>(raw.output, flagged, STATS_FILES);
  if (raw.by !== undefined && kind !== "csv")
    throw new UsageError("--by chooses the table --csv writes: add --csv (or use --json for every figure)");
  if (raw.by === "batch" && raw.batch !== undefined)
    throw new UsageError("--by batch is the per-batch table of a campaign: leave out --batch");
  // Without --by, the summary: one row of the headline figures (docs/stats.md).
  if (kind === "csv") return { kind: "csv", by: raw.by ?? DEFAULT_TABLE, bom: raw.bom === true };
  requireCsv(kind, raw.bom ? "--bom" : undefined);
  return { kind };
}
