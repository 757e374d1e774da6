// `msgstat messages <campaignId...>` and `msgstat batch <campaignId> <batchId>`.
import type { Command, CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { requireId } from "../shared/option-values.js";
import { campaignIdsFrom, campaignsFileOption } from "../shared/campaign-ids.js";
import { chosenConcurrency, concurrencyOption } from "../shared/concurrency.js";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { FILTER_BRIEF_HELP } from "../shared/filters.js";
import { addHelpSections, setBriefHelp, type BriefHelp, type HelpSection } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { DEFAULT_CSV_FIELDS, DERIVED_FIELDS, fieldHelpText } from "../../formats/fields.js";
import { OUTPUT_BRIEF_HELP } from "../shared/output-flags.js";
import { addListingOptions, type ListingFlags } from "../shared/listing/flags.js";
import { runFollow } from "./follow.js";
import { parseListingOptions, type ListingOptions } from "../shared/listing/options.js";
import { oneCampaignArgv, runListing } from "../shared/listing/run.js";

// Built from the field catalogue itself, so the help can never list a field that --fields refuses;
// when a listing command is defined, not by every run of msgstat.
const fieldsHelp = (): HelpSection[] => [
  {
    heading: "Fields (--fields):",
    text: `${fieldHelpText()} CSV default columns: ${DEFAULT_CSV_FIELDS.join(", ")}.`,
    fullOnly: true,
  },
  {
    heading: "Derived fields:",
    items: Object.entries(DERIVED_FIELDS).map(([name, { describe }]) => [name, describe]),
    fullOnly: true,
  },
];

// What the --help of messages and batch shows: the options most runs use, one line each at 80 columns.
const LISTING_BRIEF: BriefHelp = {
  options: {
    "--search": "the number contains these digits; *0779: ends with them",
    ...FILTER_BRIEF_HELP,
    "--limit": "",
    "--all": "",
    "--json": "a JSON array",
    "--jsonl": "a JSON object a line",
    "--csv": "CSV (--bom for Excel)",
    "--fields": "the columns (or JSON keys), comma-separated",
    "--output": OUTPUT_BRIEF_HELP,
    "--follow": "then each new message as it comes, until Ctrl-C",
  },
  topics: ["fields", "formats", "dates"],
};

async function list(
  run: Run,
  listing: { campaignId: string; batchId?: string },
  raw: ListingFlags,
  command: AnyCommand,
): Promise<void> {
  const ctx = contextFor(command, run);
  const options = parseListingOptions(raw, ctx.now(), ctx.timeZone);
  requireId("campaignId", listing.campaignId);
  if (listing.batchId !== undefined) requireId("batchId", listing.batchId);
  if (options.follow) await runFollow(listing, options, ctx);
  else await runListing({ campaignIds: [listing.campaignId], batchId: listing.batchId }, options, ONE, ctx);
}

// A batch, or one campaign: nothing to merge.
const ONE = { concurrency: 1, partial: false, valueFlags: new Set<string>() };

/** Several campaigns: what a single-campaign listing does that cannot span them. */
function refuseForMany(options: ListingOptions): void {
  const cursor = options.after !== undefined ? "--after" : options.before !== undefined ? "--before" : undefined;
  if (cursor)
    throw new UsageError(`${cursor} takes a cursor of one campaign, and several are named`).withHint(
      "Give one campaign with a cursor, or leave the cursor out.",
    );
  if (options.follow) throw new UsageError("--follow reads one campaign, and several are named");
}

/** Flags of a command that take a value, long and short: to tell operands from values in its argv. */
function valueFlagsOf(command: AnyCommand): Set<string> {
  const flags = new Set<string>();
  for (const option of command.options)
    if (option.required || option.optional)
      for (const flag of [option.long, option.short]) if (flag !== undefined) flags.add(flag);
  return flags;
}

async function listMany(
  run: Run,
  args: string[],
  raw: ListingFlags & { campaignsFile?: string; concurrency?: number; partial?: boolean },
  command: AnyCommand,
): Promise<void> {
  // As commander says it of a required argument (ids may also come from --campaigns-file, so it is optional there).
  if (args.length === 0 && raw.campaignsFile === undefined)
    command.error("error: missing required argument 'campaignId'", {
      exitCode: 2,
      code: "commander.missingArgument",
    });
  const ctx = contextFor(command, run);
  const options = parseListingOptions(raw, ctx.now(), ctx.timeZone);
  const concurrency = chosenConcurrency(raw.concurrency, ctx.settings);
  const ids = await campaignIdsFrom(args, raw.campaignsFile, ctx);
  if (ids.length === 1) {
    if (options.follow) return runFollow({ campaignId: ids[0]! }, options, ctx);
    // A hint that repeats the command names the campaign itself: stdin (`--campaigns-file -`) is read
    // once, and a file may have changed by the time the hint is run.
    const hinted =
      raw.campaignsFile === undefined
        ? ctx
        : { ...ctx, argv: oneCampaignArgv(ctx.argv, ids[0]!, valueFlagsOf(command)) };
    return runListing({ campaignIds: ids }, options, ONE, hinted);
  }
  refuseForMany(options);
  await runListing(
    { campaignIds: ids },
    options,
    { concurrency, partial: raw.partial === true, valueFlags: valueFlagsOf(command) },
    ctx,
  );
}

export function defineMessages(command: Command, run: Run): void {
  const messages = addGlobalOptions(
    addListingOptions(command.argument("[campaignId...]", "the campaigns (one or more; or --campaigns-file)"))
      .addOption(campaignsFileOption())
      .addOption(concurrencyOption())
      .option("--partial", "with several campaigns and -o: write what came even when some campaign is incomplete"),
    GLOBAL_OPTIONS_HEADING,
  ).action((campaignIds, raw, cmd) => listMany(run, campaignIds, raw, cmd));
  setBriefHelp(messages, { ...LISTING_BRIEF, topics: [...LISTING_BRIEF.topics!, "many-campaigns"] });
  addHelpSections(messages, ...fieldsHelp(), {
    heading: "Examples:",
    examples: [
      { command: "msgstat messages cmp-spring-sale --search 11" },
      { command: "msgstat messages cmp-spring-sale --status failure --since 24h --all -o failures.csv" },
      { command: "msgstat messages cmp-spring-sale --all --jsonl | jq -r .recipient" },
      { command: "msgstat messages cmp-spring-sale --fields id,recipient,values.first_name,lastErrorCode" },
      { command: "msgstat messages cmp-spring-sale cmp-loyalty-es --status failure --since 7d --all" },
    ],
  });
}

export function defineBatch(command: Command, run: Run): void {
  const batch = addGlobalOptions(
    addListingOptions(command.argument("<campaignId>", "the campaign").argument("<batchId>", "the batch")),
    GLOBAL_OPTIONS_HEADING,
  ).action((campaignId, batchId, raw, cmd) => list(run, { campaignId, batchId }, raw, cmd));
  setBriefHelp(batch, LISTING_BRIEF);
  addHelpSections(batch, ...fieldsHelp(), {
    heading: "Examples:",
    examples: [
      { command: "msgstat batch cmp-spring-sale bat-spring-w1" },
      { command: "msgstat batch cmp-spring-sale bat-spring-w1 --status failure --all -o batch-failures.csv" },
    ],
  });
}
