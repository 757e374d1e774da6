// `msgstat messages <campaignId>` and `msgstat batch <campaignId> <batchId>`.
import { Command } from "commander";
import { requireId } from "../shared/arguments.js";
import type { CommandSetup } from "../shared/setup.js";
import { DEFAULT_CSV_FIELDS, fieldHelp } from "../../render/fields.js";
import { addListingOptions } from "./flags.js";
import type { RawListingOptions } from "./options.js";

// Built from the field catalogue itself, so the help can never list a field that --fields refuses.
const FIELDS_HELP = `\n${fieldHelp()}\nCSV default columns: ${DEFAULT_CSV_FIELDS.join(", ")}.`;

async function run(setup: CommandSetup, listing: { campaignId: string; batchId?: string }, raw: RawListingOptions, command: Command): Promise<void> {
  const ctx = setup.context(command);
  const [{ parseListingOptions }, { runListing }] = await Promise.all([import("./options.js"), import("./run.js")]);
  const options = parseListingOptions(raw, ctx.now(), ctx.timeZone);
  requireId("campaignId", listing.campaignId);
  if (listing.batchId !== undefined) requireId("batchId", listing.batchId);
  await runListing(listing, options, ctx);
}

export function messagesCommand(setup: CommandSetup): Command {
  const command = new Command("messages")
    .description("list a campaign's messages, newest first")
    .argument("<campaignId>", "the campaign");
  addListingOptions(setup.withGlobals(command))
    .addHelpText("after", `${FIELDS_HELP}

Examples:
  msgstat messages cmp-spring-sale --search 11
  msgstat messages cmp-spring-sale --status failure --since 24h --all --csv -o failures.csv
  msgstat messages cmp-spring-sale --all --jsonl | jq -r .recipient
  msgstat messages cmp-spring-sale --fields id,recipient,values.name,lastErrorCode`)
    .action((campaignId: string, raw: RawListingOptions, cmd: Command) => run(setup, { campaignId }, raw, cmd));
  return command;
}

export function batchCommand(setup: CommandSetup): Command {
  const command = new Command("batch")
    .description("list the messages of one batch (uploaded file) of a campaign, newest first")
    .argument("<campaignId>", "the campaign")
    .argument("<batchId>", "the batch");
  addListingOptions(setup.withGlobals(command))
    .addHelpText("after", `${FIELDS_HELP}

Examples:
  msgstat batch cmp-spring-sale bat-spring-sale-1
  msgstat batch cmp-spring-sale bat-spring-sale-1 --status failure --all --csv -o batch-failures.csv`)
    .action((campaignId: string, batchId: string, raw: RawListingOptions, cmd: Command) => run(setup, { campaignId, batchId }, raw, cmd));
  return command;
}
