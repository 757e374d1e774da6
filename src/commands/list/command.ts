// `msgstat messages <campaignId>` and `msgstat batch <campaignId> <batchId>`.
import type { Command, CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import { requireId } from "../shared/option-values.js";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { addHelpSections, type HelpSection } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { DEFAULT_CSV_FIELDS, DERIVED_FIELDS, fieldHelpText } from "../../render/fields.js";
import { addListingOptions, type ListingFlags } from "./flags.js";
import { runFollow } from "./follow.js";
import { parseListingOptions } from "./options.js";
import { runListing } from "./run.js";

// Built from the field catalogue itself, so the help can never list a field that --fields refuses;
// when a listing command is defined, not by every run of msgstat.
const fieldsHelp = (): HelpSection[] => [
  { heading: "Fields (--fields):", text: `${fieldHelpText()} CSV default columns: ${DEFAULT_CSV_FIELDS.join(", ")}.` },
  { heading: "Derived fields:", items: Object.entries(DERIVED_FIELDS).map(([name, { describe }]) => [name, describe]) },
];

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
  else await runListing(listing, options, ctx);
}

export function defineMessages(command: Command, run: Run): void {
  const messages = addGlobalOptions(
    addListingOptions(command.argument("<campaignId>", "the campaign")),
    GLOBAL_OPTIONS_HEADING,
  ).action((campaignId, raw, cmd) => list(run, { campaignId }, raw, cmd));
  addHelpSections(messages, ...fieldsHelp(), {
    heading: "Examples:",
    examples: [
      { command: "msgstat messages cmp-spring-sale --search 11" },
      { command: "msgstat messages cmp-spring-sale --status failure --since 24h --all -o failures.csv" },
      { command: "msgstat messages cmp-spring-sale --all --jsonl | jq -r .recipient" },
      { command: "msgstat messages cmp-spring-sale --fields id,recipient,values.first_name,lastErrorCode" },
    ],
  });
}

export function defineBatch(command: Command, run: Run): void {
  const batch = addGlobalOptions(
    addListingOptions(command.argument("<campaignId>", "the campaign").argument("<batchId>", "the batch")),
    GLOBAL_OPTIONS_HEADING,
  ).action((campaignId, batchId, raw, cmd) => list(run, { campaignId, batchId }, raw, cmd));
  addHelpSections(batch, ...fieldsHelp(), {
    heading: "Examples:",
    examples: [
      { command: "msgstat batch cmp-spring-sale bat-spring-w1" },
      { command: "msgstat batch cmp-spring-sale bat-spring-w1 --status failure --all -o batch-failures.csv" },
    ],
  });
}
