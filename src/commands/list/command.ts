// `msgstat messages <campaignId>` and `msgstat batch <campaignId> <batchId>`.
import { Command } from "commander";
import { requireId } from "../ids.js";
import type { CommandSetup } from "../setup.js";
import { addListingOptions } from "./flags.js";
import type { RawListingOptions } from "./options.js";

const FIELDS_HELP = `
Fields (--fields): id, createdAt, updatedAt, recipient, values, fullMessage, latestStatus,
  templateBodyId, campaignId, templateBody, batches, messageAttempts, attempts, language,
  batchId, creatorEmail, numAttempts; dotted paths into them (values.name, templateBody.body,
  batches.0.originalFileName, messageAttempts.-1.errorCode: -1 is the last); and derived fields:
  attemptCount, lastAttemptStatus, lastAttemptAt, lastErrorType, lastErrorCode (newest failed
  attempt), batchFile (first batch's file name). CSV default: id, recipient, latestStatus,
  createdAt, attemptCount, lastErrorType, lastErrorCode, batchId, fullMessage.`;

async function run(setup: CommandSetup, listing: { campaignId: string; batchId?: string }, raw: RawListingOptions, command: Command): Promise<void> {
  const ctx = setup.context(command);
  const [{ parseListingOptions }, { runListing }] = await Promise.all([import("./options.js"), import("./run.js")]);
  const options = parseListingOptions(raw, ctx.now());
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
