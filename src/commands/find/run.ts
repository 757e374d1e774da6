// `msgstat find`: the number read as a person typed it (core/phone-number.ts), the campaigns from the
// command line, --campaigns-file or the profile's list, then the listing of several campaigns
// (messages a b c: merged newest first, a campaign column, partial failures named), kept to that number.
import { count } from "../../core/numbers.js";
import { findQuery, type RecipientQuery } from "../../core/phone-number.js";
import { formatWallTime, type TimeZone } from "../../core/time.js";
import type { Profile } from "../../config/profile.js";
import type { Context } from "../context.js";
import { campaignIdsOrProfile } from "../shared/campaign-ids.js";
import { statusesRead } from "../shared/filters.js";
import type { ListingFlags } from "../shared/listing/flags.js";
import { parseListingOptions, type ListingOptions } from "../shared/listing/options.js";
import { runListing } from "../shared/listing/run.js";
import type { FindFlags } from "./flags.js";

export interface FindContext {
  ctx: Context;
  /** --concurrency, else MSGSTAT_CONCURRENCY, else the profile's, else 4. */
  concurrency: () => number;
}

export async function runFind(
  recipient: string,
  named: string[],
  raw: FindFlags,
  { ctx, concurrency }: FindContext,
): Promise<void> {
  const profile = ctx.settings.profile();
  const query = findQuery(recipient, countryCodeOf(raw, ctx));
  const options: ListingOptions = {
    ...parseListingOptions(listingFlags(raw), ctx.now(), ctx.timeZone),
    search: query.search,
    recipientTest: query.test,
  };
  const campaignIds = await campaignsOf(named, raw, ctx, profile);
  for (const line of query.ambiguous ?? []) ctx.note(line);
  if (ctx.verbose) ctx.note(`messages to ${query.described} in ${campaignIds.join(", ")}`);
  await runListing(
    { campaignIds },
    options,
    {
      // The campaign column even for one campaign: a number is looked for across campaigns.
      merge: true,
      concurrency: concurrency(),
      partial: raw.partial === true,
      valueFlags: new Set(),
      resumable: false,
      emptyNote: (seen, complete, campaigns) => nothingFound(query, options, ctx.timeZone, seen, complete, campaigns),
    },
    ctx,
  );
}

/**
 * An empty find says what it looked for: the number as it was read (a misread number would otherwise pass
 * for a customer without messages), the campaigns read to the end, the statuses and the createdAt window;
 * then, when the number has messages that --status or the window left out, their statuses.
 */
function nothingFound(
  query: RecipientQuery,
  options: Pick<ListingOptions, "statuses" | "since" | "until">,
  zone: TimeZone,
  seen: ReadonlyMap<string, number>,
  complete: number,
  campaigns: number,
): string[] {
  const number = query.test?.kind === "endsWith" ? `numbers ${query.described}` : query.described;
  const statuses = options.statuses ? ` with status ${[...options.statuses].join(" or ")}` : "";
  const where =
    complete === campaigns ? count(campaigns, "campaign") : `${complete} of ${count(campaigns, "campaign")}`;
  const first = `No messages to ${number} in ${where}${statuses}`;
  const window = createdWindow(options, zone);
  const line = `${first}, ${window}.`;
  // Notes on stderr are not wrapped: past 80 columns, the window goes on a line of its own.
  const said = line.length <= 80 ? [line] : [`${first},`, `${window}.`];
  return seen.size === 0 ? said : [...said, statusesRead(seen)];
}

/** `at any time`, `created since 2026-11-18 00:00 UTC`, `created 2026-11-18 00:00 to 2026-11-24 23:59 UTC`. */
function createdWindow({ since, until }: Pick<ListingOptions, "since" | "until">, zone: TimeZone): string {
  const at = (instant: number) => formatWallTime(instant, zone);
  if (since !== undefined && until !== undefined) return `created ${at(since)} to ${at(until)} ${zone.name}`;
  if (since !== undefined) return `created since ${at(since)} ${zone.name}`;
  if (until !== undefined) return `created until ${at(until)} ${zone.name}`;
  return "at any time";
}

/** find's flags as the listing commands read them: every message unless -n says otherwise. */
function listingFlags(raw: FindFlags): ListingFlags {
  return {
    status: raw.status,
    since: raw.since,
    until: raw.until,
    limit: raw.limit,
    all: raw.all ?? (raw.limit === undefined ? true : undefined),
    format: raw.format,
    json: raw.json,
    jsonl: raw.jsonl,
    csv: raw.csv,
    fields: raw.fields,
    output: raw.output,
    wide: raw.wide,
    headers: raw.headers,
    formulaGuard: raw.formulaGuard,
    csvTimes: raw.csvTimes,
  };
}

/** --country-code, else MSGSTAT_COUNTRY_CODE, else the profile's country-code: for a national number. */
function countryCodeOf(raw: FindFlags, ctx: Context): string | undefined {
  const setting = ctx.settings.setting("country-code", { countryCode: raw.countryCode });
  // Checked as it was read (config/keys.ts): its digits, +44 and 0044 read as 44.
  return setting === undefined ? undefined : String(setting.value);
}

/** The campaigns named (arguments, then --campaigns-file), else the profile's list; at least one. */
function campaignsOf(named: string[], raw: FindFlags, ctx: Context, profile: Profile): Promise<string[]> {
  return campaignIdsOrProfile(named, raw.campaignsFile, ctx, profile, {
    need: "find needs the campaigns to look in",
    example: "msgstat find <number> cmp-a cmp-b",
  });
}
