// `msgstat messages`, `batch` and `find`: the one listing run. One campaign or several merged newest
// first (service/fan-out.ts), each with its campaign in the table and CSV; paged, selected, rendered,
// then what became of each campaign and of -o, and how to go on. A campaign that cannot be read is
// named as it fails and the others are read to the end; the run then ends with an error whose exit
// code is the cause's. With -o the target is replaced only when every campaign is complete, unless
// --partial.
import { MESSAGE, read } from "../../../core/message.js";
import { count } from "../../../core/numbers.js";
import { formatWallTime, instantOf } from "../../../core/time.js";
import { IncompleteCampaignsError, ServiceError, UsageError } from "../../../core/errors.js";
import { SMALL_PARTS, type ListingRef, type MessageReading } from "../../../service/endpoints.js";
import { MergedListing, type MergedOutcome, type Tagged } from "../../../service/fan-out.js";
import { PagingError, repeatsLine } from "../../../service/paging.js";
import { MessageSelector } from "../../../service/select.js";
import type { Chunks } from "../../../formats/chunks.js";
import { compileFields } from "../../../formats/fields.js";
import { flushAtPageBoundaries } from "../../../output/page-flush.js";
import { openOutput, type Sink } from "../../../output/sink.js";
import { startProgress, type Progress } from "../../../terminal/spinner.js";
import type { Context } from "../../context.js";
import { runAgainOnce } from "../advice.js";
import { completeLine, failedCampaignLine, incompleteCampaigns, incompleteFileLines } from "../campaign-outcomes.js";
import { describeWindow, nothingMatched } from "../filters.js";
import { nextCommand } from "../next-command.js";
import { isGzipFile } from "../output-file.js";
import { progressText } from "../progress.js";
import { explainNotFound, explainRefusedCursor } from "../service-errors.js";
import type { ListingOptions } from "./options.js";
import { refuseBinaryOnTerminal, render, type Listed } from "./render.js";

/** What is listed: one campaign (or a batch of it), or several. */
export interface ListingSource {
  campaignIds: readonly string[];
  batchId?: string;
}

export interface RunChoices {
  /** The campaign column even for one campaign (find): the listing is a merge, whatever the count. */
  merge?: boolean;
  concurrency: number;
  /** --partial: with -o, keep what came when some campaign is incomplete. */
  partial: boolean;
  /** Flags of the command that take a value (to tell the campaign ids apart from values in the argv). */
  valueFlags: ReadonlySet<string>;
  /** false: the command has no --after (find), so no continuation is offered for a campaign cut short. */
  resumable?: boolean;
  /**
   * The note of an empty result, in lines, given the statuses of the messages read (before --status and the
   * window) and how many campaigns were read to the end; without it, nothingMatched's.
   */
  emptyNote?: (statusesSeen: ReadonlyMap<string, number>, complete: number, campaigns: number) => string[];
}

/** A listing being read: its rows for the renderer, and what its selectors saw, for the notes at the end. */
interface Reading {
  listed: Listed;
  selectors: MessageSelector[];
  /** Messages handed to the renderer. */
  printed: () => number;
  /** How each campaign ended; known once the rows have ended (none for one campaign read alone). */
  outcomes: () => readonly MergedOutcome[];
}

export async function runListing(
  source: ListingSource,
  options: ListingOptions,
  choices: RunChoices,
  ctx: Context,
): Promise<void> {
  refuseBinaryOnTerminal(options, ctx);
  for (const warning of options.warnings) ctx.warn(warning);
  const window = describeWindow(options, ctx.timeZone);
  if (window && ctx.verbose) ctx.note(window);
  const fields = options.fields ? compileFields(options.fields, { batchId: source.batchId }) : undefined;
  const client = await ctx.client();
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  // As gh does: when stdout is piped, its reader (jq, less) is likely printing to the same screen.
  const progress = await startProgress(ctx, "Loading messages…", toTerminal || options.outputFile !== undefined);
  // Rows reach the reader at every page boundary where the next page is not there yet; on the same
  // terminal, the spinner leaves the line while they are written, and comes back while pages load.
  const paced = <R>(chunks: Chunks<R>) => pacedRows(chunks, sink, progress, toTerminal);
  const merged = choices.merge === true || source.campaignIds.length > 1;
  // One campaign alone is read straight from its selector, not through a merge of one: the merge would
  // parse every createdAt, and take a turn every 50 messages, for an order one listing already has.
  const reading = merged
    ? mergedReading(source.campaignIds, options, choices, { client, progress, paced, ctx })
    : oneReading({ campaignId: source.campaignIds[0]!, batchId: source.batchId }, options, progress, paced, client);
  try {
    await render(reading.listed, options, fields, source.batchId, sink, ctx, toTerminal);
  } catch (error) {
    progress.stop();
    await sink.discard();
    throw failed(error, reading, source, options, sink, ctx);
  }
  progress.stop();
  const outcomes = reading.outcomes();
  const incomplete = incompleteCampaigns(outcomes);
  if (incomplete && options.outputFile !== undefined && !choices.partial) await sink.discard();
  else await sink.finish();
  if (merged) reportMerged(reading, options, choices, sink, ctx);
  else reportOne(reading.selectors[0]!, options, ctx);
}

type Client = Awaited<ReturnType<Context["client"]>>;

interface MergeContext {
  client: Client;
  progress: Progress;
  paced: <R>(chunks: Chunks<R>) => Chunks<R>;
  ctx: Context;
}

function oneReading(
  listing: ListingRef,
  options: ListingOptions,
  progress: Progress,
  paced: <R>(chunks: Chunks<R>) => Chunks<R>,
  client: Client,
): Reading {
  const selector: MessageSelector = new MessageSelector(client, {
    listing,
    ...options,
    onPage: () => progress.update(progressText("Loading messages…", [selector])),
    // Every renderer writes a chunk out before it asks for the next.
    doneWithEachChunk: true,
  });
  return {
    listed: { merged: false, chunksOf: (reading) => paced(selector.chunks(reading)) },
    selectors: [selector],
    printed: () => selector.outcome.printed,
    outcomes: () => [],
  };
}

function mergedReading(
  campaignIds: readonly string[],
  options: ListingOptions,
  choices: RunChoices,
  { client, progress, paced, ctx }: MergeContext,
): Reading {
  const selectors: MessageSelector[] = [];
  const done = { campaigns: 0 };
  let printed = 0;
  let merge: MergedListing<unknown> | undefined;
  const update = () =>
    progress.update(progressText("Loading messages…", selectors, { done: done.campaigns, of: campaignIds.length }));
  const chunksOf = <M>(reading: MessageReading<M>): Chunks<Tagged<M>> => {
    const listing = new MergedListing<M>(
      client,
      campaignIds,
      (campaignId, gated) => {
        const selector = new MessageSelector(gated, {
          listing: { campaignId },
          ...options,
          parts: SMALL_PARTS,
          onPage: update,
        });
        selectors.push(selector);
        return {
          chunks: endsCounted(selector.chunks(reading), () => {
            done.campaigns++;
            update();
          }),
          stoppedShort: () => selector.outcome.continueAt !== undefined,
        };
      },
      {
        concurrency: choices.concurrency,
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
    merge = listing as MergedListing<unknown>;
    return paced(
      counted(listing, (n) => {
        printed += n;
      }),
    );
  };
  return {
    listed: { merged: true, campaignIds, chunksOf },
    selectors,
    printed: () => printed,
    outcomes: () => merge?.outcomes ?? [],
  };
}

/** A campaign's chunks, and `ended` once they ended (a failure throws past it). */
async function* endsCounted<M>(chunks: AsyncIterable<M[]>, ended: () => void): AsyncGenerator<M[]> {
  yield* chunks;
  ended();
}

/** The merged rows, counted as they go; not one campaign read: thrown before a renderer writes a header. */
async function* counted<M>(listing: MergedListing<M>, add: (n: number) => void): AsyncGenerator<Array<Tagged<M>>> {
  let any = false;
  for await (const chunk of listing.chunks()) {
    any = true;
    add(chunk.length);
    yield chunk;
  }
  // A header alone would look like an empty result.
  if (!any && listing.outcomes.every((outcome) => outcome.state === "failed"))
    throw incompleteCampaigns(listing.outcomes)!;
}

async function* pacedRows<R>(
  chunks: Chunks<R>,
  sink: Sink,
  progress: Progress,
  sharesTerminal: boolean,
): AsyncGenerator<R[]> {
  yield* flushAtPageBoundaries(
    chunks as AsyncIterable<R[]>,
    sink,
    sharesTerminal ? { beforePage: () => progress.pause(), afterPage: () => progress.resume() } : {},
  );
  progress.stop();
}

/** The error that ends a run whose rendering failed, with what became of -o and how to go on. */
function failed(
  error: unknown,
  reading: Reading,
  source: ListingSource,
  options: ListingOptions,
  sink: Sink,
  ctx: Context,
): unknown {
  if (error instanceof IncompleteCampaignsError) {
    if (options.outputFile !== undefined)
      for (const line of incompleteFileLines(options.outputFile, sink.fate, reading.outcomes(), false))
        ctx.always.note(line);
    return error;
  }
  if (reading.listed.merged) return error;
  if (error instanceof PagingError) explainResume(error, options, sink, ctx);
  const cursor =
    options.before !== undefined
      ? { flag: "--before" as const, value: options.before }
      : { flag: "--after" as const, value: options.after };
  const listing = { campaignId: source.campaignIds[0]!, batchId: source.batchId };
  const explained = explainNotFound(
    explainRefusedCursor(error, cursor, reading.selectors[0]!.reader.pagesRead === 0),
    listing,
  );
  // A failure that trying again cannot mend (a 404, a refused cursor, a response msgstat cannot read)
  // says what became of -o's file too, as a passing one does with how to go on (explainResume).
  if (
    options.outputFile !== undefined &&
    sink.untouchedByFailure &&
    (explained instanceof ServiceError || explained instanceof UsageError) &&
    !explained.hints.some((hint) => hint.startsWith(sink.fate))
  )
    explained.withHint(sink.fate);
  return explained;
}

/** Where a later run can take over, when trying again can help at all (not after a 400, 404 or a bad response). */
function explainResume(error: PagingError, options: ListingOptions, sink: Sink, ctx: Context): void {
  if (!error.transient) return;
  if (options.outputFile !== undefined) {
    error.withHint(`${sink.fate}. ${runAgainOnce(error)}`);
  } else if (error.direction === "backward") {
    error.withHint(`Nothing was printed: a walk back prints only once it is complete. ${runAgainOnce(error)}`);
  } else if (error.resumeCursor !== undefined && error.resumeCursor !== options.after) {
    const next = nextCommand(ctx.argv, "after", error.resumeCursor);
    const credentials = next.leftOut !== undefined ? `\n(${next.leftOut})` : "";
    error.withHint(
      `Everything before the failure was written. To continue from there, run:\n${next.line}${credentials}`,
    );
  } else {
    error.withHint(`Nothing was written. ${runAgainOnce(error)}`);
  }
}

/**
 * With --quiet, the one line left when the table's default --limit (not -n, which the user chose) cut
 * the listing short: a cron job that pipes the table then still hears that rows were left out.
 */
function cutShortUnasked(printed: number, options: ListingOptions, ctx: Context): void {
  if (options.defaultLimit)
    ctx.always.note(
      `Showing ${count(printed, "message")}, the default --limit; more may follow: add --all for every message.`,
    );
}

/** What every selector of the run saw that the output leaves out: repeats, and undated messages. */
function reportLeftOut(selectors: readonly MessageSelector[], ctx: Context): void {
  const duplicates = selectors.reduce((sum, selector) => sum + selector.reader.duplicatesDropped, 0);
  if (duplicates > 0) ctx.warn(`${repeatsLine(duplicates)}; the repeats were left out`);
  const undated = selectors.reduce((sum, selector) => sum + selector.outcome.undatedSkipped, 0);
  if (undated > 0) ctx.warn(`${undated} message(s) without a readable createdAt were left out by --since/--until`);
}

/** The statuses every selector read while filtering, summed. */
function statusesSeen(selectors: readonly MessageSelector[]): Map<string, number> {
  if (selectors.length === 1) return selectors[0]!.outcome.statusesSeen;
  const seen = new Map<string, number>();
  for (const selector of selectors)
    for (const [status, n] of selector.outcome.statusesSeen) seen.set(status, (seen.get(status) ?? 0) + n);
  return seen;
}

/** The end of one campaign read alone: its notes, then how to go on from where --limit stopped it. */
function reportOne(selector: MessageSelector, options: ListingOptions, ctx: Context): void {
  const { outcome } = selector;
  reportLeftOut([selector], ctx);
  if (outcome.stoppedEarlyAtSince && ctx.verbose)
    ctx.note(
      `stopped after ${selector.reader.pagesRead} pages: every message so far came newest first, and ` +
        `the last page ended before --since (${formatWallTime(options.since!, ctx.timeZone)} ` +
        `${ctx.timeZone.name})`,
    );
  if (outcome.printed === 0) ctx.note(nothingMatched(outcome.statusesSeen));
  const next = outcome.continueAt;
  if (options.outputFile !== undefined) {
    // One line a cron mail shows: how many, where, and whether -n cut it short (a file has no default
    // limit); the continuation hint follows.
    const cut = next === undefined ? "" : `, cut short by --limit ${options.limit}: more may follow`;
    ctx.note(`wrote ${count(outcome.printed, "message")} to ${options.outputFile}${cut}`);
  }
  if (next === undefined) return;
  if (ctx.quiet) return cutShortUnasked(outcome.printed, options, ctx);
  const shown =
    options.outputFile !== undefined ? "" : `Showing ${count(outcome.printed, "message")}; more may follow. `;
  if (next.cursor === undefined) {
    ctx.note(`${shown}Use --all, or a larger --limit, for more.`);
    return;
  }
  const command = nextCommand(ctx.argv, next.direction, next.cursor);
  ctx.note(`${shown}For the next ${next.direction === "after" ? "ones" : "newer ones"}, run:`);
  ctx.note(command.line);
  if (command.leftOut !== undefined) ctx.note(`(${command.leftOut})`);
  if (next.direction === "after") ctx.note("Or add --all for every message.");
}

/** The end of a merge: its notes, what became of -o, and the error that ends it when a campaign failed. */
function reportMerged(reading: Reading, options: ListingOptions, choices: RunChoices, sink: Sink, ctx: Context): void {
  const outcomes = reading.outcomes();
  const printed = reading.printed();
  reportLeftOut(reading.selectors, ctx);
  const failedOnes = outcomes.filter((outcome) => outcome.state === "failed");
  if (printed === 0 && failedOnes.length < outcomes.length) {
    const seen = statusesSeen(reading.selectors);
    const lines = choices.emptyNote?.(seen, outcomes.length - failedOnes.length, outcomes.length) ?? [
      nothingMatched(seen),
    ];
    for (const line of lines) ctx.note(line);
  }
  const cut = outcomes.some((outcome) => outcome.state === "cut");
  if (options.outputFile !== undefined) {
    if (failedOnes.length === 0 || choices.partial) {
      const limitNote = cut ? `, cut short by --limit ${options.limit}: more may follow (--all for every message)` : "";
      ctx.note(
        `wrote ${count(printed, "message")} of ${count(outcomes.length, "campaign")} to ${options.outputFile}` +
          limitNote,
      );
    }
  } else if (cut && ctx.quiet) {
    cutShortUnasked(printed, options, ctx);
  } else if (cut) {
    // find has no --after at all.
    const why = choices.resumable === false ? "" : ". One --after cursor cannot continue several campaigns";
    ctx.note(`Showing ${count(printed, "message")}; more may follow${why}: use --all, or a larger --limit, for more.`);
  }
  const incomplete = incompleteCampaigns(outcomes);
  if (incomplete === undefined) {
    if (ctx.verbose) ctx.note(completeLine(outcomes));
    return;
  }
  if (options.outputFile !== undefined)
    for (const line of incompleteFileLines(options.outputFile, sink.fate, outcomes, choices.partial))
      ctx.always.note(line);
  else if (choices.resumable !== false) continuations(failedOnes, choices, ctx);
  throw incomplete;
}

/**
 * To stdout, everything a failed campaign gave came before its failure (the merge asks a campaign for its next page
 * only once it has written the last), so where trying again can help, it can be continued alone from where it
 * stopped: one command per campaign, since a cursor belongs to one.
 */
function continuations(failedOnes: readonly MergedOutcome[], choices: RunChoices, ctx: Context): void {
  const resumable = failedOnes.filter(
    (outcome) => outcome.error instanceof PagingError && outcome.error.transient && outcome.error.resumeCursor,
  );
  if (resumable.length === 0) return;
  ctx.always.note("A cursor continues one campaign. For the rest of each campaign cut short, run:");
  for (const outcome of resumable) {
    const cursor = (outcome.error as PagingError).resumeCursor!;
    const command = nextCommand(oneCampaignArgv(ctx.argv, outcome.campaignId, choices.valueFlags), "after", cursor);
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
