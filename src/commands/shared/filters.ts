// The filters shared by the listing commands and `stats`: flags for commander, and their validation
// into typed options before anything is sent.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { MESSAGE_STATUSES } from "../../core/statuses.js";
import { parseTimeBound } from "../../core/time.js";
import { listOption, type NoOptions } from "./option-values.js";

export function addFilterOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) {
  return command
    .option("--search <digits>", 'recipient phone number contains this (spaces, dashes, dots, brackets and a leading + are dropped: "+1 (555)" searches 1555)')
    .addOption(listOption("--status <list>", "keep messages whose latestStatus is one of these (comma-separated, repeatable)"))
    .option("--since <time>", "createdAt at or after: ISO date or date-time, or a duration back from now (90m, 24h, 7d)")
    .option("--until <time>", "createdAt at or before: ISO date or date-time, or a duration back from now");
}

/** The filter flags as commander reads them. */
export type FilterFlags = ReturnType<ReturnType<typeof addFilterOptions<[], NoOptions, NoOptions>>["opts"]>;

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

export function parseFilterOptions(raw: FilterFlags, now: number): FilterOptions {
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
    const at = parseTimeBound(text, bound, now);
    if (at === undefined) throw new UsageError(`--${bound} "${text}" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00) or a duration (90m, 24h, 7d)`);
    options[bound] = at;
  }
  if (options.since !== undefined && options.until !== undefined && options.since > options.until) {
    throw new UsageError("--since is after --until: no message could match");
  }
  return options;
}
