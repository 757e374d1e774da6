// Options of `msgstat stats`, checked into one typed object before anything is sent.
import { UsageError } from "../../core/errors.js";
import type { TimeZone } from "../../core/time.js";
import { outputPath } from "../shared/arguments.js";
import type { Interval } from "../../stats/time-buckets.js";
import type { TableChoice } from "../../stats/tables.js";
import { parseFilterOptions, type FilterOptions, type RawFilterOptions } from "../shared/filters.js";

export interface RawStatsOptions extends RawFilterOptions {
  batch?: string;
  interval?: string;
  maxFailureRate?: string;
  json?: boolean;
  csv?: boolean;
  by?: string;
  output?: string;
}

export type StatsOutput = { format: "report" } | { format: "json" } | { format: "csv"; by: TableChoice };

export interface StatsOptions extends FilterOptions {
  interval?: Interval;
  /** Percent, 0 to 100. */
  maxFailureRate?: number;
  output: StatsOutput;
  /** -o: a file to write atomically instead of stdout. */
  file?: string;
}

const PERCENT = /^\d+(\.\d+)?%?$/;

export function parseStatsOptions(raw: RawStatsOptions, now: number, zone: TimeZone): StatsOptions {
  return {
    ...parseFilterOptions(raw, now, zone),
    interval: raw.interval as Interval | undefined,
    maxFailureRate: raw.maxFailureRate === undefined ? undefined : parsePercent(raw.maxFailureRate),
    output: chosenOutput(raw),
    file: outputPath(raw.output),
  };
}

function parsePercent(text: string): number {
  const trimmed = text.trim();
  const value = PERCENT.test(trimmed) ? Number(trimmed.replace("%", "")) : Number.NaN;
  if (!(value >= 0 && value <= 100)) throw new UsageError(`--max-failure-rate must be a percent from 0 to 100 (e.g. 5 or 2.5), not "${text}"`);
  return value;
}

function chosenOutput(raw: RawStatsOptions): StatsOutput {
  if (raw.json && raw.csv) throw new UsageError("choose one output format, not json and csv");
  if (raw.by !== undefined && !raw.csv) throw new UsageError("--by chooses the table --csv writes: add --csv (or use --json for every figure)");
  if (raw.by === "batch" && raw.batch !== undefined) throw new UsageError("--by batch is the per-batch table of a campaign: leave out --batch");
  if (raw.csv) {
    if (raw.by === undefined) throw new UsageError("--csv writes one table: choose it with --by status|error|batch|attempts|time");
    return { format: "csv", by: raw.by as TableChoice };
  }
  return raw.json ? { format: "json" } : { format: "report" };
}
