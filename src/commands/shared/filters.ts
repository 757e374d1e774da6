// The filters shared by the listing commands and `stats`: flags for commander, and their validation
// into typed options before anything is sent.
import type { Command } from "commander";
import { Option } from "commander";
import { UsageError } from "../../core/errors.js";
import { MESSAGE_STATUSES } from "../../core/statuses.js";
import { formatWallTime, parseTimeBound, type TimeZone } from "../../core/time.js";
import { collect } from "./arguments.js";

export function addFilterOptions(command: Command): Command {
  return command
    .option("--search <digits>", 'recipient phone number contains this (spaces, dashes, dots, brackets and a leading + are dropped: "+1 (555)" searches 1555)')
    .addOption(new Option("--status <list>", "keep messages whose latestStatus is one of these (comma-separated, repeatable)").argParser(collect))
    .option("--since <time>", "createdAt at or after: a date (a whole day in --tz), a date-time (2026-11-01T09:30, in --tz unless it has an offset) or a duration back from now (90m, 24h, 7d)")
    .option("--until <time>", "createdAt at or before: a date (to its end), a date-time or a duration back from now");
}

export interface RawFilterOptions {
  search?: string;
  status?: string[];
  since?: string;
  until?: string;
}

export interface FilterOptions {
  search?: string;
  statuses?: Set<string>;
  since?: number;
  until?: number;
  /** Warnings for a person (statuses not seen in the reference), printed by the run function. */
  warnings: string[];
}

/** Characters that only format a phone number; the API matches digits. */
export function normaliseSearch(text: string): string {
  // Formatting first, so a "+" inside brackets, as in "(+44) 7700", is leading once they are gone.
  return text.trim().replace(/[\s\-.()]/g, "").replace(/^\+/, "");
}

export function parseFilterOptions(raw: RawFilterOptions, now: number, zone: TimeZone): FilterOptions {
  const warnings: string[] = [];
  const options: FilterOptions = { warnings };
  if (raw.search !== undefined) {
    const search = normaliseSearch(raw.search);
    if (search === "") throw new UsageError(`--search "${raw.search}" has nothing left to search for once formatting is dropped`);
    options.search = search;
  }
  if (raw.status !== undefined) {
    const statuses = raw.status.flatMap((value) => value.split(",")).map((value) => value.trim()).filter((value) => value !== "");
    if (statuses.length === 0) throw new UsageError("--status needs at least one status, e.g. --status failure");
    const known: readonly string[] = MESSAGE_STATUSES;
    for (const status of statuses) {
      if (!known.includes(status)) warnings.push(`--status ${status}: not a status the service is known to send (${known.join(", ")}); filtering on it anyway`);
    }
    options.statuses = new Set(statuses);
  }
  for (const bound of ["since", "until"] as const) {
    const text = raw[bound];
    if (text === undefined) continue;
    const at = parseTimeBound(text, bound, now, zone);
    if (at === undefined) throw new UsageError(`--${bound} "${text}" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00) or a duration (90m, 24h, 7d)`);
    options[bound] = at;
  }
  if (options.since !== undefined && options.until !== undefined && options.since > options.until) {
    throw new UsageError("--since is after --until: no message could match");
  }
  return options;
}

/** For --verbose: the createdAt window as it was read, in the zone, so a person can see what a bare date meant. */
export function describeWindow(filters: Pick<FilterOptions, "since" | "until">, zone: TimeZone): string | undefined {
  const at = (instant: number) => `${formatWallTime(instant, zone, "second")} (${new Date(instant).toISOString()})`;
  const parts = [filters.since === undefined ? "" : `from ${at(filters.since)}`, filters.until === undefined ? "" : `until ${at(filters.until)}`].filter(Boolean);
  return parts.length === 0 ? undefined : `createdAt ${parts.join(" ")}, read in ${zone.name}`;
}
