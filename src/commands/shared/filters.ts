// The filters shared by the listing commands and `stats`: flags for commander, and their validation
// into typed options before anything is sent.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { countText } from "../../core/numbers.js";
import { closest, didYouMean, editDistance } from "../../core/edit-distance.js";
import { ATTEMPT_STATUSES, MESSAGE_STATUSES } from "../../core/statuses.js";
import { shellWord } from "../../core/text.js";
import { searchQuery, type RecipientTest } from "../../core/phone-number.js";
import { CALENDAR_WORDS, formatWallTime, parseTimeBound, type TimeZone } from "../../core/time.js";
import { listOption, type NoOptions } from "./option-values.js";

export function addFilterOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return addStatusAndTimeOptions(
    command.option(
      "--search <digits>",
      "recipient phone number contains this (spaces, dashes, dots, brackets and a leading + or 00 are " +
        'dropped: "+1 (555)" searches 1555); a national 07700 900123 or *0779: numbers ending in those digits',
    ),
  );
}

/** --status, --since and --until: also find's, whose number is its argument rather than --search. */
export function addStatusAndTimeOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(command: Command<Args, Opts, Globals>) {
  return command
    .addOption(
      listOption(
        "--status <list>",
        `keep messages whose latestStatus is one of: ${MESSAGE_STATUSES.join(", ")} (comma-separated, ` +
          "repeatable; msgstat help statuses)",
      ),
    )
    .option(
      "--since <time>",
      "createdAt at or after: a date or date-time (in --tz unless it has an offset), a duration back " +
        'from now (24h, 7d), or today, yesterday, monday.., "last week", "this month" (msgstat help dates)',
    )
    .option(
      "--until <time>",
      "createdAt at or before, in the same forms; a date or a word up to its end (--until yesterday: " +
        "its last instant)",
    );
}

/** The filters as a command's --help shows them, one line each (its full help has the whole text above). */
export const FILTER_BRIEF_HELP: Readonly<Record<string, string>> = {
  "--status": "created, success or failure (comma-separated)",
  "--since": 'from: 7d, 2026-11-01, today, "last week"...',
  "--until": "up to, in the same forms",
};

/** The filter flags as commander reads them. */
export type FilterFlags = ReturnType<ReturnType<typeof addFilterOptions<[], NoOptions, NoOptions>>["opts"]>;

export interface FilterOptions {
  search?: string;
  /** Kept client-side after the server's "contains" (a national form, *digits): core/phone-number.ts. */
  recipientTest?: RecipientTest;
  statuses?: Set<string>;
  since?: number;
  until?: number;
  /** Warnings for a person (statuses not seen in the reference), printed by the run function. */
  warnings: string[];
}

/** What --search sends: the digits of a phone number as typed (core/phone-number.ts reads it). */
export function normaliseSearch(text: string): string {
  return searchQuery(text).search;
}

// The reference lists statuses as "values seen", so an unknown one may be new and is filtered on with
// a warning; but one a typo away from a known status ("failed") is a mistake that would silently
// match nothing, so it is refused with the status meant.
const KNOWN_STATUSES: readonly string[] = [...new Set<string>([...MESSAGE_STATUSES, ...ATTEMPT_STATUSES])];

function checkStatus(status: string): string | undefined {
  if ((MESSAGE_STATUSES as readonly string[]).includes(status)) return undefined;
  if ((ATTEMPT_STATUSES as readonly string[]).includes(status)) {
    return (
      `--status ${status}: "${status}" is an attempt's status; a message whose attempt is under way ` +
      `has latestStatus "created"`
    );
  }
  const near = KNOWN_STATUSES.filter(
    (known) => editDistance(status.toLowerCase(), known) <= typoAllowance(known, status),
  );
  if (near.length > 0) {
    const meant = near.sort((a, b) => editDistance(status, a) - editDistance(status, b))[0]!;
    throw new UsageError(`unknown status "${status}"; did you mean "${meant}"?`).withHint(
      `Message statuses the service is known to send: ${MESSAGE_STATUSES.join(", ")}.`,
    );
  }
  return (
    `--status ${status}: not a status the service is known to send ` +
    `(${MESSAGE_STATUSES.join(", ")}); filtering on it anyway`
  );
}

/**
 * Edits a typo may be away from `known`: 1 for "sent", 3 for "failure" ("failed"); never half of what was typed ("read"
 * is no "created").
 */
const typoAllowance = (known: string, typed: string) =>
  Math.min(3, Math.floor((known.length - 1) / 2), Math.floor(typed.length / 2));

export function parseFilterOptions(raw: FilterFlags, now: number, zone: TimeZone): FilterOptions {
  const warnings: string[] = [];
  const options: FilterOptions = { warnings };
  if (raw.search !== undefined) {
    const { search, test } = searchQuery(raw.search);
    if (search === "")
      throw new UsageError(`--search "${raw.search}" has nothing left to search for once formatting is dropped`);
    // The reference's recipients are digits only: a letter (or a + inside a number) could match none, and the API
    // would answer "no messages", which reads as "this customer got nothing".
    if (/[^0-9]/.test(search))
      throw new UsageError(
        `--search "${raw.search}" is not a phone number or part of one: recipients are digits only`,
      ).withHint(
        "It takes digits as people write them (spaces, dashes, dots, brackets, a leading + or 00), or *digits " +
          `for the numbers ending in them: --search "+44 7700", --search '*0779'`,
      );
    options.search = search;
    if (test !== undefined) options.recipientTest = test;
  }
  if (raw.status !== undefined) {
    const statuses = raw.status
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter((value) => value !== "");
    if (statuses.length === 0) throw new UsageError("--status needs at least one status, e.g. --status failure");
    for (const status of statuses) {
      const warning = checkStatus(status);
      if (warning) warnings.push(warning);
    }
    options.statuses = new Set(statuses);
  }
  for (const bound of ["since", "until"] as const) {
    const text = raw[bound];
    if (text === undefined) continue;
    const at = parseTimeBound(text, bound, now, zone);
    if (at === undefined) {
      const error = new UsageError(
        `--${bound} "${text}" is not a time: use an ISO date (2026-11-01), a date-time ` +
          `(2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, ` +
          `monday, "this week", "last month")`,
      );
      // lastweek, yesteday: a calendar word with a slip, offered as it is typed.
      const near = closest(text.trim().toLowerCase(), CALENDAR_WORDS).map((word) => `--${bound} ${shellWord(word)}`);
      const guess = didYouMean(near);
      if (guess !== undefined) error.withHint(guess);
      throw error.withHint("Every form, with examples: msgstat help dates");
    }
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
  const parts = [
    filters.since === undefined ? "" : `from ${at(filters.since)}`,
    filters.until === undefined ? "" : `until ${at(filters.until)}`,
  ].filter(Boolean);
  return parts.length === 0 ? undefined : `createdAt ${parts.join(" ")}, read in ${zone.name}`;
}

/** The closing note of an empty result; after a filter, the statuses the messages read had (most first). */
export function nothingMatched(statusesSeen: ReadonlyMap<string, number>): string {
  if (statusesSeen.size === 0) return "No messages found.";
  return `No messages matched. ${statusesRead(statusesSeen)}`;
}

/** `Statuses of the messages read: success 178, failure 17.`, most first. */
export function statusesRead(statusesSeen: ReadonlyMap<string, number>): string {
  const seen = [...statusesSeen]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status === "" ? "(none)" : shellWord(status)} ${countText(n)}`);
  return `Statuses of the messages read: ${seen.join(", ")}.`;
}
