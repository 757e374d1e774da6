// Options of `msgstat stats`: the flags, each already checked as it was read, combined into one
// typed object before anything is sent.
import { UsageError } from "../../core/errors.js";
import type { Interval } from "../../stats/time-buckets.js";
import type { TableChoice } from "../../stats/tables.js";
import { parseFilterOptions, type FilterOptions } from "../shared/filters.js";
import type { StatsFlags } from "./flags.js";

export type StatsFormat = { kind: "report" } | { kind: "json" } | { kind: "csv"; by: TableChoice };

export interface StatsOptions extends FilterOptions {
  interval?: Interval;
  /** Percent, 0 to 100. */
  maxFailureRate?: number;
  format: StatsFormat;
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
}

const PERCENT = /^\d+(\.\d+)?%?$/;

export function parseStatsOptions(raw: StatsFlags, now: number): StatsOptions {
  return {
    ...parseFilterOptions(raw, now),
    interval: raw.interval,
    maxFailureRate: raw.maxFailureRate === undefined ? undefined : parsePercent(raw.maxFailureRate),
    format: chosenFormat(raw),
    outputFile: raw.output,
  };
}

function parsePercent(text: string): number {
  const trimmed = text.trim();
  const value = PERCENT.test(trimmed) ? Number(trimmed.replace("%", "")) : Number.NaN;
  if (!(value >= 0 && value <= 100)) throw new UsageError(`--max-failure-rate must be a percent from 0 to 100 (e.g. 5 or 2.5), not "${text}"`);
  return value;
}

function chosenFormat(raw: StatsFlags): StatsFormat {
  if (raw.json && raw.csv) throw new UsageError("choose one output format, not json and csv");
  if (raw.by !== undefined && !raw.csv) throw new UsageError("--by chooses the table --csv writes: add --csv (or use --json for every figure)");
  if (raw.by === "batch" && raw.batch !== undefined) throw new UsageError("--by batch is the per-batch table of a campaign: leave out --batch");
  if (raw.csv) {
    if (raw.by === undefined) throw new UsageError("--csv writes one table: choose it with --by status|error|batch|attempts|time");
    return { kind: "csv", by: raw.by };
  }
  return raw.json ? { kind: "json" } : { kind: "report" };
}
