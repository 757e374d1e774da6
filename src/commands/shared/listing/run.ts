// `msgstat messages` and `msgstat batch`: page through a listing, select, render, and say how to go on.
import { PARSED_MESSAGES, SOURCED_MESSAGES, type ListingRef, type MessageReading } from "../../../service/endpoints.js";
import { PagingError, repeatsLine } from "../../../service/paging.js";
import type { Context } from "../../context.js";
import { MessageSelector } from "../../../service/select.js";
import { csvTimeFields, renderCsv } from "../../../formats/csv.js";
import { compileFields, DEFAULT_CSV_FIELDS, withCampaign, type Field } from "../../../formats/fields.js";
import { renderFieldsJson, renderFieldsJsonl, renderJson, renderJsonl } from "../../../formats/json.js";
import { loadPalette } from "../../../terminal/palette.js";
import { openOutput, type Sink } from "../../../output/sink.js";
import { startProgress, type Progress } from "../../../terminal/spinner.js";
import { formatWallTime } from "../../../core/time.js";
import { UsageError } from "../../../core/errors.js";
import { renderTable } from "../../../terminal/table.js";
import { flushAtPageBoundaries } from "../../../output/page-flush.js";
import { runAgainOnce } from "../advice.js";
import { progressText } from "../progress.js";
import { describeWindow, nothingMatched } from "../filters.js";
import { nextCommand } from "../next-command.js";
import { count } from "../../../core/numbers.js";
import { isGzipFile } from "../output-file.js";
import { explainNotFound, explainRefusedCursor } from "../service-errors.js";
import type { ListingOptions } from "./options.js";

/** The listing's messages, read as a renderer needs them: as parsed, or each with its text. */
export type ChunksOf = <M>(reading: MessageReading<M>) => AsyncIterable<M[]>;

export async function runListing(listing: ListingRef, options: ListingOptions, ctx: Context): Promise<void> {
  refuseBinaryOnTerminal(options, ctx);
  for (const warning of options.warnings) ctx.warn(warning);
  const window = describeWindow(options, ctx.timeZone);
  if (window && ctx.verbose) ctx.note(window);
  const fields = options.fields ? compileFields(options.fields, { batchId: listing.batchId }) : undefined;
  const client = await ctx.client();
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  // As gh does: when stdout is piped, its reader (jq, less) is likely printing to the same screen.
  const progress = await startProgress(ctx, "Loading messages…", toTerminal || options.outputFile !== undefined);
  const selector: MessageSelector = new MessageSelector(client, {
    listing,
    ...options,
    onPage: () => progress.update(progressText("Loading messages…", selector)),
    // Every renderer writes a chunk out before it asks for the next.
    doneWithEachChunk: true,
  });
  try {
    const select: ChunksOf = (reading) => withProgress(selector.chunks(reading), progress, sink, toTerminal);
    await render(options, fields, listing, select, sink, ctx, toTerminal);
    await sink.finish();
  } catch (error) {
    progress.stop();
    await sink.discard();
    if (error instanceof PagingError) explainResume(error, options, sink, ctx);
    const cursor =
      options.before !== undefined
        ? { flag: "--before" as const, value: options.before }
        : { flag: "--after" as const, value: options.after };
    throw explainNotFound(explainRefusedCursor(error, cursor, selector.reader.pagesRead === 0), listing);
  }
  progress.stop();
  reportOutcome(selector, options, ctx);
}

/** Parquet is binary: on a terminal, noise that can upset the terminal itself. Refused before any request. */
export function refuseBinaryOnTerminal(options: ListingOptions, ctx: Context): void {
  if (options.format === "parquet" && options.outputFile === undefined && ctx.stdoutIsTTY)
    throw new UsageError("Parquet is binary, and stdout is a terminal").withHint(
      "Write it to a file: -o messages.parquet (a reader needs the whole file).",
    );
}

/**
 * Renders in the chosen format; JSON of whole messages asks for each with its text, to write it as sent.
 * `campaign`, with several campaigns: the table's and CSV's first column (JSON stays as the server sent it).
 */
export async function render(
  options: ListingOptions,
  fields: Field[] | undefined,
  listing: ListingRef,
  chunksOf: ChunksOf,
  sink: Sink,
  ctx: Context,
  toTerminal: boolean,
  campaign?: Field,
  campaignIds?: readonly string[],
): Promise<void> {
  switch (options.format) {
    case "json":
      return fields
        ? renderFieldsJson(chunksOf(PARSED_MESSAGES), sink, { fields, pretty: toTerminal })
        : renderJson(chunksOf(SOURCED_MESSAGES), sink, toTerminal);
    case "jsonl":
      return fields
        ? renderFieldsJsonl(chunksOf(PARSED_MESSAGES), sink, fields)
        : renderJsonl(chunksOf(SOURCED_MESSAGES), sink);
    case "csv": {
      const csvFields = withCampaign(
        fields ?? compileFields(DEFAULT_CSV_FIELDS, { batchId: listing.batchId }),
        campaign,
      );
      return renderCsv(chunksOf(PARSED_MESSAGES), sink, {
        fields: csvTimeFields(csvFields, options.csvTimes, ctx.timeZone),
        guardFormulas: options.guardFormulas,
        bom: options.bom,
      });
    }
    case "parquet": {
      // Loaded only now: --help and the other formats never load the Parquet writer.
      const { renderParquet } = await import("../../../formats/parquet.js");
      return renderParquet(chunksOf(PARSED_MESSAGES), sink, { version: ctx.version });
    }
    case "table":
    case "tsv": {
      // tsv: the table's plain, tab-separated form, even on a terminal.
      const tty = toTerminal && options.format === "table";
      const palette = await loadPalette(ctx.color && tty);
      const { hidden } = await renderTable(chunksOf(PARSED_MESSAGES), sink, {
        tty,
        columns: ctx.columns,
        palette,
        fields,
        batchId: listing.batchId,
        timeZone: ctx.timeZone,
        wide: options.wide,
        headers: options.headers,
        campaign,
        oneRecipient: options.recipientTest?.kind === "equals",
        statuses: options.statuses,
        window: options.since !== undefined || options.until !== undefined,
        campaignIds,
      });
      if (hidden.length > 0) {
        // After the rows it is about, not among them on the screen.
        await sink.flush();
        ctx.note(`Hidden at ${ctx.columns} columns: ${hidden.join(", ")} (--wide shows all)`);
      }
      return;
    }
  }
}

/**
 * When the output goes to the same terminal, the spinner leaves the line while a page's rows are
 * written, and comes back while the next pages load: with filters, many may go by without a row.
 * Rows reach the reader at every page boundary where the next page is not there yet.
 */
async function* withProgress<M>(
  chunks: AsyncIterable<M[]>,
  progress: Progress,
  sink: Sink,
  sharesTerminal: boolean,
): AsyncGenerator<M[]> {
  yield* flushAtPageBoundaries(
    chunks,
    sink,
    sharesTerminal ? { beforePage: () => progress.pause(), afterPage: () => progress.resume() } : {},
  );
  progress.stop();
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
export function cutShortUnasked(printed: number, options: ListingOptions, ctx: Context): void {
  if (options.defaultLimit)
    ctx.always.note(
      `Showing ${count(printed, "message")}, the default --limit; more may follow: add --all for every message.`,
    );
}

function reportOutcome(selector: MessageSelector, options: ListingOptions, ctx: Context): void {
  const { outcome } = selector;
  if (selector.reader.duplicatesDropped > 0)
    ctx.warn(`${repeatsLine(selector.reader.duplicatesDropped)}; the repeats were left out`);
  if (outcome.undatedSkipped > 0)
    ctx.warn(`${outcome.undatedSkipped} message(s) without a readable createdAt were left out by --since/--until`);
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
