// `msgstat messages <campaignId> --follow` (and `batch ... --follow`): the newest messages, then every
// new one as it appears, oldest first, until interrupted. The same renderers as a listing, fed by the
// follower instead of the selector; each poll's messages are flushed as soon as they are rendered, so a
// pipeline (`--jsonl | jq`) sees them at once. Output goes straight through, -o included: there is no
// end at which a temporary file could be moved into place, and what was received must survive Ctrl-C.
import { durationText } from "../../core/duration.js";
import { compileFields } from "../../render/fields.js";
import { flushAtPageBoundaries } from "../../render/page-flush.js";
import { streamSink } from "../../render/sink.js";
import type { ListingRef } from "../../service/endpoints.js";
import { ListingFollower, type FollowEvent } from "../../service/follow-listing.js";
import type { Context } from "../context.js";
import { explainNotFound } from "../shared/service-errors.js";
import { straightFileSink } from "../shared/straight-file.js";
import type { ListingOptions } from "./options.js";
import { render, type ChunksOf } from "./run.js";

export async function runFollow(listing: ListingRef, options: ListingOptions, ctx: Context): Promise<void> {
  for (const warning of options.warnings) ctx.warn(warning);
  const fields = options.fields ? compileFields(options.fields, { batchId: listing.batchId }) : undefined;
  const client = await ctx.client();
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  const output =
    options.outputFile !== undefined
      ? await straightFileSink(options.outputFile, ctx.signal)
      : { sink: streamSink(ctx.stdout, ctx.signal), close: async () => undefined };
  const follower = new ListingFollower(
    client,
    {
      listing,
      search: options.search,
      statuses: options.statuses,
      recent: options.limit,
      since: options.since,
      everyMs: options.follow!.everyMs,
      // Polls read whatever arrived, so pages are as large as the API allows unless --page-size says otherwise.
      pageSize: options.pageSize === Math.min(options.limit, 1000) ? 1000 : options.pageSize,
    },
    ctx.timer,
    ctx.signal,
    (event) => report(event, ctx),
  );
  try {
    const follow: ChunksOf = (reading) => flushAtPageBoundaries(follower.chunks(reading), output.sink);
    await render(options, fields, listing, follow, output.sink, ctx, toTerminal);
  } catch (error) {
    // Whole records only: what was rendered is flushed, a partial record never is.
    await output.sink.discard();
    throw explainNotFound(error, listing);
  } finally {
    await output.close();
  }
}

function report(event: FollowEvent, ctx: Context): void {
  if (event.kind === "failing")
    ctx.warn(`${event.error.message}; still following, trying again in ${durationText(event.retryInMs)}`);
  else if (event.givenUp === 0)
    ctx.note(`the service answers again after ${durationText(event.downMs)}; following on, nothing missed`);
  else
    ctx.warn(
      `the service answers again after ${durationText(event.downMs)}; following on, but ${event.givenUp} ` +
        `${event.givenUp === 1 ? "message" : "messages"} in flight could not be looked at again: ` +
        `more arrived meanwhile than --follow reads back`,
    );
}
