// `msgstat messages a b c`: several campaigns as one listing, newest createdAt first across them
// (service/fan-out.ts merges them), with a first column naming each message's campaign in the table and
// CSV. A campaign that cannot be read is named as it fails and the others are read to the end; the
// run then ends with an error whose exit code is the cause's. With -o the target is replaced only when
// every campaign is complete, unless --partial.
import { IncompleteCampaignsError } from "../../../core/errors.js";
import { MESSAGE, read } from "../../../core/message.js";
import { instantOf } from "../../../core/time.js";
import { count, countText } from "../../../core/numbers.js";
import { SMALL_PARTS, type MessageReading } from "../../../service/endpoints.js";
import { MergedListing, type MergedOutcome } from "../../../service/fan-out.js";
import { PagingError, repeatsLine } from "../../../service/paging.js";
import { MessageSelector } from "../../../service/select.js";
import { compileFields, type Field } from "../../../formats/fields.js";
import { openOutput, type Sink } from "../../../output/sink.js";
import { startProgress } from "../../../terminal/spinner.js";
import { flushAtPageBoundaries } from "../../../output/page-flush.js";
import type { Context } from "../../context.js";
import { completeLine, failedCampaignLine, incompleteCampaigns } from "../campaign-outcomes.js";
import { describeWindow, nothingMatched } from "../filters.js";
import { nextCommand } from "../next-command.js";
import { isGzipFile } from "../output-file.js";
import type { ListingOptions } from "./options.js";
import { cutShortUnasked, refuseBinaryOnTerminal, render, type ChunksOf } from "./run.js";

export interface ManyOptions {
  concurrency: number;
  /** --partial: with -o, keep what came when some campaign is incomplete. */
  partial: boolean;
  /** Flags of the command that take a value (to tell the campaign ids apart from values in the argv). */
  valueFlags: ReadonlySet<string>;
  /** false: the command has no --after (find), so no continuation is offered for a campaign cut short. */
  resumable?: boolean;
  /**
   * The note of an empty result, in lines, given the statuses of the messages read (before --status and the window)
   * and how many campaigns were read to the end; without it, nothingMatched's.
   */
  emptyNote?: (statusesSeen: ReadonlyMap<string, number>, complete: number, campaigns: number) => string[];
}

/** What the selectors of the merged campaigns saw, summed for the notes at the end. */
interface Tally {
  selectors: MessageSelector[];
  printed: number;
}

export async function runManyListings(
  campaignIds: readonly string[],
  options: ListingOptions,
  many: ManyOptions,
  ctx: Context,
): Promise<void> {
  refuseBinaryOnTerminal(options, ctx);
  for (const warning of options.warnings) ctx.warn(warning);
  const window = describeWindow(options, ctx.timeZone);
  if (window && ctx.verbose) ctx.note(window);
  const fields = options.fields ? compileFields(options.fields) : undefined;
  const client = await ctx.client();
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  const progress = await startProgress(ctx, "Loading messages…", toTerminal || options.outputFile !== undefined);
  const tally: Tally = { selectors: [], printed: 0 };
  const campaign: Field = { name: "campaignId", get: (message) => (message as CampaignTagged)[CAMPAIGN] };
  let merged: MergedListing<unknown> | undefined;
  const chunksOf: ChunksOf = <M>(reading: MessageReading<M>) => {
    const listing = new MergedListing<M>(
      client,
      campaignIds,
      (campaignId, gated) => {
        const selector = new MessageSelector(gated, {
          listing: { campaignId },
          ...options,
          parts: SMALL_PARTS,
          onPage: () => progress.update(progressLine(tally, campaignIds.length)),
        });
        tally.selectors.push(selector);
        return { chunks: selector.chunks(reading), stoppedShort: () => selector.outcome.continueAt !== undefined };
      },
      {
        concurrency: many.concurrency,
        limit: options.limit,
        createdAtOf: (item) => instantOf(read(MESSAGE, reading.messageOf(item), "createdAt")),
        onOutOfOrder: (id) =>
          ctx.warn(
            `campaign ${id}: its messages do not come newest first; they are listed in the order it sent them, ` +
              `so the merged output is out of order around them (none is left out)`,
          ),
        onFailure: (outcome) => ctx.always.warn(failedCampaignLine(outcome)),
      },
    );
    merged = listing as MergedListing<unknown>;
    return flushAtPageBoundaries(
      untagged(listing, reading, tally),
      sink,
      toTerminal ? { beforePage: () => progress.pause(), afterPage: () => progress.resume() } : {},
    );
  };
  try {
    await render(
      options,
      fields,
      { campaignId: campaignIds[0]! },
      chunksOf,
      sink,
      ctx,
      toTerminal,
      campaign,
      campaignIds,
    );
  } catch (error) {
    progress.stop();
    await sink.discard();
    if (error instanceof IncompleteCampaignsError && options.outputFile !== undefined)
      ctx.always.note(`${sink.fate}: no campaign could be read`);
    throw error;
  }
  progress.stop();
  const outcomes = merged?.outcomes ?? [];
  const incomplete = outcomes.some((outcome) => outcome.state === "failed");
  if (incomplete && options.outputFile !== undefined && !many.partial) {
    await sink.discard();
  } else {
    await sink.finish();
  }
  reportMerged(tally, merged, options, many, sink, ctx);
}

/**
 * The campaign each message was listed under, for the first column of the table and CSV: a symbol-keyed
 * property of the parsed message, which JSON.stringify, Object.keys and for...in all pass over, so the
 * message is written as sent. Not a WeakMap keyed by the message: its entry for every message merged
 * cost a merge more CPU time (its entries are work for every collection too; the commit says by how much).
 */
const CAMPAIGN = Symbol("campaignId");
type CampaignTagged = { [CAMPAIGN]?: string };

/** The merged stream as a renderer takes it: each message noted with its campaign, then handed on alone. */
async function* untagged<M>(listing: MergedListing<M>, reading: MessageReading<M>, tally: Tally): AsyncGenerator<M[]> {
  for await (const chunk of listing.chunks()) {
    const items = chunk.map(({ campaignId, item }) => {
      (reading.messageOf(item) as CampaignTagged)[CAMPAIGN] = campaignId;
      return item;
    });
    tally.printed += items.length;
    yield items;
  }
  // Not one campaign could be read: thrown before a renderer writes a header that would look like an empty result.
  if (tally.printed === 0 && listing.outcomes.every((outcome) => outcome.state === "failed"))
    throw incompleteCampaigns(listing.outcomes)!;
}

function progressLine(tally: Tally, campaigns: number): string {
  let pages = 0;
  let seen = 0;
  for (const selector of tally.selectors) {
    pages += selector.reader.pagesRead;
    seen += selector.outcome.seen;
  }
  return `Loading messages… ${countText(campaigns)} campaigns, ${countText(pages)} pages, ${countText(seen)} seen`;
}

function reportMerged(
  tally: Tally,
  merged: MergedListing<unknown> | undefined,
  options: ListingOptions,
  many: ManyOptions,
  sink: Sink,
  ctx: Context,
): void {
  const outcomes = merged?.outcomes ?? [];
  const duplicates = tally.selectors.reduce((sum, selector) => sum + selector.reader.duplicatesDropped, 0);
  if (duplicates > 0) ctx.warn(`${repeatsLine(duplicates)}; the repeats were left out`);
  const undated = tally.selectors.reduce((sum, selector) => sum + selector.outcome.undatedSkipped, 0);
  if (undated > 0) ctx.warn(`${undated} message(s) without a readable createdAt were left out by --since/--until`);
  const failed = outcomes.filter((outcome) => outcome.state === "failed");
  if (tally.printed === 0 && failed.length < outcomes.length) {
    const seen = new Map<string, number>();
    for (const selector of tally.selectors)
      for (const [status, n] of selector.outcome.statusesSeen) seen.set(status, (seen.get(status) ?? 0) + n);
    const lines = many.emptyNote?.(seen, outcomes.length - failed.length, outcomes.length) ?? [nothingMatched(seen)];
    for (const line of lines) ctx.note(line);
  }
  const cut = merged?.cutShort === true;
  if (options.outputFile !== undefined) {
    const kept = failed.length === 0 || many.partial;
    if (kept) {
      const limitNote = cut ? `, cut short by --limit ${options.limit}: more may follow (--all for every message)` : "";
      ctx.note(
        `wrote ${count(tally.printed, "message")} of ${count(outcomes.length, "campaign")} to ${options.outputFile}` +
          limitNote,
      );
    }
  } else if (cut && ctx.quiet) {
    cutShortUnasked(tally.printed, options, ctx);
  } else if (cut) {
    // find has no --after at all.
    const why = many.resumable === false ? "" : ". One --after cursor cannot continue several campaigns";
    ctx.note(
      `Showing ${count(tally.printed, "message")}; more may follow${why}: use --all, or a larger --limit, for more.`,
    );
  }
  if (failed.length > 0) throw failureError(outcomes, failed, options, many, sink, ctx);
  if (ctx.verbose) ctx.note(completeLine(outcomes));
}

/** The error that ends the run, with what became of -o and how each incomplete campaign can be read again. */
function failureError(
  outcomes: readonly MergedOutcome[],
  failed: readonly MergedOutcome[],
  options: ListingOptions,
  many: ManyOptions,
  sink: Sink,
  ctx: Context,
): Error {
  const file = options.outputFile;
  if (file !== undefined && many.partial) {
    const missing = failed.filter((outcome) => outcome.delivered === 0).map((outcome) => outcome.campaignId);
    const cut = failed
      .filter((outcome) => outcome.delivered > 0)
      .map((outcome) => `${outcome.campaignId} (after ${count(outcome.delivered, "message")})`);
    if (missing.length > 0)
      ctx.always.note(`${file} is missing campaign${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`);
    if (cut.length > 0) ctx.always.note(`${file} holds only part of ${cut.join(", ")}`);
  } else if (file !== undefined) {
    ctx.always.note(`${sink.fate}: not every campaign was complete (add --partial to keep what came)`);
  } else {
    if (many.resumable !== false) continuations(failed, many, ctx);
  }
  return incompleteCampaigns(outcomes)!;
}

/**
 * To stdout, everything a failed campaign gave came before its failure (the merge asks a campaign for its next page
 * only once it has written the last), so where trying again can help, it can be continued alone from where it
 * stopped: one command per campaign, since a cursor belongs to one.
 */
function continuations(failed: readonly MergedOutcome[], many: ManyOptions, ctx: Context): void {
  const resumable = failed.filter(
    (outcome) => outcome.error instanceof PagingError && outcome.error.transient && outcome.error.resumeCursor,
  );
  if (resumable.length === 0) return;
  ctx.always.note("A cursor continues one campaign. For the rest of each campaign cut short, run:");
  for (const outcome of resumable) {
    const cursor = (outcome.error as PagingError).resumeCursor!;
    const command = nextCommand(oneCampaignArgv(ctx.argv, outcome.campaignId, many.valueFlags), "after", cursor);
    ctx.always.note(command.line);
    if (command.leftOut !== undefined) ctx.always.note(`(${command.leftOut})`);
  }
}

// Flags of a run over several campaigns that a one-campaign continuation goes without.
const MANY_ONLY = new Set(["--campaigns-file", "--concurrency", "--partial"]);

/** The argv with `campaignId` as its only operand (the other ids and the flags of many campaigns left out). */
export function oneCampaignArgv(
  argv: readonly string[],
  campaignId: string,
  valueFlags: ReadonlySet<string>,
): string[] {
  const kept: string[] = [];
  let command = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("-") && arg !== "-") {
      const [flag] = arg.split("=");
      const value = !arg.includes("=") && valueFlags.has(flag!) && i + 1 < argv.length ? [argv[++i]!] : [];
      if (!MANY_ONLY.has(flag!)) kept.push(arg, ...value);
    } else if (!command) {
      // The command's name; every later operand is a campaign id.
      command = true;
      kept.push(arg, campaignId);
    }
  }
  return kept;
}
