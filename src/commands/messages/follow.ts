// `msgstat messages <campaignId> --follow` (and `batch ... --follow`): the newest messages, then every
// new one as it appears, oldest first, until interrupted. The same renderers as a listing, fed by the
// follower instead of the selector; each poll's messages are flushed as soon as they are rendered, so a
// pipeline (`--jsonl | jq`) sees them at once. -o is written in place as records come (gzipped for a
// .gz name): there is no end at which a temporary file could be moved into place, and what was
// received must survive Ctrl-C.
import { durationText } from "../../core/duration.js";
import { compileFields } from "../../formats/fields.js";
import { flushAtPageBoundaries } from "../../output/page-flush.js";
import { openOutput } from "../../output/sink.js";
import type { ListingRef } from "../../service/endpoints.js";
import { ListingFollower, type FollowEvent } from "../../service/follow-listing.js";
import type { Context } from "../context.js";
import { explainNotFound } from "../shared/service-errors.js";
import { isGzipFile } from "../shared/output-file.js";
import type { ListingOptions } from "../shared/listing/options.js";
import { render, type Listed } from "../shared/listing/render.js";

export async function runFollow(listing: ListingRef, options: ListingOptions, ctx: Context): Promise<void> {
  for (const warning of options.warnings) ctx.warn(warning);
  const fields = options.fields ? compileFields(options.fields, { batchId: listing.batchId }) : undefined;
  const client = await ctx.client();
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile), live: true });
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
    const follow: Listed = {
      merged: false,
      chunksOf: (reading) => flushAtPageBoundaries(follower.chunks(reading), sink),
    };
    await render(follow, options, fields, listing.batchId, sink, ctx, toTerminal);
    await sink.finish();
  } catch (error) {
    // Whole records only: what was rendered is flushed, a partial record never is; the file is ended.
    await sink.discard();
    throw explainNotFound(error, listing);
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
