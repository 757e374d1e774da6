// The three endpoints as plain functions from a route and query to a status and a JSON body.
import type { Message, PageData } from "../core/message.js";
import type { BatchPlan, CampaignPlan } from "./campaigns.js";
import type { CursorCodec } from "./cursor.js";
import {
  liveBatchById,
  liveIndexOf,
  liveMessage,
  liveRange,
  liveRecipient,
  liveSerialOf,
  liveSerialOfId,
  type LivePlan,
} from "./live.js";
import { deriveMessage, indexOfMessageId, recipientFor, type MessageView } from "./messages.js";
import { slicePage, type ListingRange, type PageQuery } from "./paging.js";
import type { Route } from "./routes.js";

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const MAX_LIMIT = 1000;

export function errorReply(
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
): JsonReply {
  return headers ? { status, body: { error, message }, headers } : { status, body: { error, message } };
}

/**
 * Where a campaign's messages come from, by listing position (0 is the newest of a static campaign).
 * Static campaigns are fixed at the sandbox's `now`; the live one is cut at the clock of each request.
 */
interface MessageSource {
  readonly plan: CampaignPlan;
  batch(id: string, nowMs: number): BatchPlan | undefined;
  range(batch: BatchPlan | undefined, nowMs: number): ListingRange;
  message(index: number, view: MessageView, nowMs: number): Message;
  indexOfId(id: string, nowMs: number): number | undefined;
  recipientAt(index: number): string;
}

function staticSource(plan: CampaignPlan): MessageSource {
  return {
    plan,
    batch: (id) => plan.batches.find((candidate) => candidate.id === id),
    range: (batch) => (batch ? { start: batch.start, end: batch.end } : { start: 0, end: plan.size }),
    message: (index, view) => deriveMessage(plan, index, view),
    indexOfId: (id) => indexOfMessageId(plan, id),
    recipientAt: (index) => recipientFor(plan, index),
  };
}

function liveSource(live: LivePlan): MessageSource {
  return {
    plan: live.campaign,
    batch: (id, nowMs) => liveBatchById(live, id, nowMs),
    range: (batch, nowMs) => liveRange(live, nowMs, batch),
    message: (index, view, nowMs) => liveMessage(live, liveSerialOf(index), view, nowMs),
    indexOfId: (id, nowMs) => {
      const serial = liveSerialOfId(live, id, nowMs);
      return serial === undefined ? undefined : liveIndexOf(serial);
    },
    recipientAt: (index) => liveRecipient(live, liveSerialOf(index)),
  };
}

export class SandboxApi {
  private readonly sources: MessageSource[];

  constructor(
    campaigns: readonly CampaignPlan[],
    private readonly cursors: CursorCodec,
    live?: LivePlan,
  ) {
    this.sources = campaigns.map(staticSource);
    if (live) this.sources.push(liveSource(live));
  }

  /** `nowMs`: the moment of the request, which only the live campaign depends on. */
  answer(route: Route, method: string, query: URLSearchParams, nowMs = 0): JsonReply {
    if (route.kind === "bad-path")
      return errorReply(400, "invalid_path", "The path contains a malformed percent-escape.");
    if (route.kind === "unknown")
      return errorReply(
        404,
        "not_found",
        "No such route. Routes: /campaigns/:campaignId/messages, " +
          "/campaigns/:campaignId/batch/:batchId/messages, /campaigns/:campaignId/messages/:messageId.",
      );
    if (method !== "GET")
      return errorReply(405, "method_not_allowed", `${method} is not allowed; this API is read-only (GET).`, {
        Allow: "GET",
      });
    const source = this.sources.find((candidate) => candidate.plan.id === route.campaignId);
    if (!source)
      return errorReply(404, "campaign_not_found", `Campaign ${JSON.stringify(route.campaignId)} does not exist.`);
    const campaign = source.plan;
    switch (route.kind) {
      case "campaign-messages":
        return this.listing(source, undefined, query, nowMs);
      case "batch-messages": {
        const batch = source.batch(route.batchId, nowMs);
        if (!batch)
          return errorReply(
            404,
            "batch_not_found",
            `Batch ${JSON.stringify(route.batchId)} does not exist in campaign ${campaign.id}.`,
          );
        return this.listing(source, batch, query, nowMs);
      }
      case "message": {
        const index = source.indexOfId(route.messageId, nowMs);
        if (index === undefined)
          return errorReply(
            404,
            "message_not_found",
            `Message ${JSON.stringify(route.messageId)} does not exist in campaign ${campaign.id}.`,
          );
        return { status: 200, body: source.message(index, "single", nowMs) };
      }
    }
  }

  private listing(
    source: MessageSource,
    batch: BatchPlan | undefined,
    query: URLSearchParams,
    nowMs: number,
  ): JsonReply {
    const campaign = source.plan;
    const listing = batch ? `batch:${campaign.id}/${batch.id}` : `campaign:${campaign.id}`;
    const range = source.range(batch, nowMs);
    const pageQuery = this.pageQueryOf(source, listing, range, query);
    if ("status" in pageQuery) return pageQuery;
    const slice = pageQuery.impossible
      ? { indices: [], hasNextPage: false, hasPreviousPage: false }
      : slicePage(range, pageQuery);
    const view: MessageView = batch ? "batch" : "campaign";
    const data: Message[] = slice.indices.map((index) => source.message(index, view, nowMs));
    const pageData: PageData = { hasNextPage: slice.hasNextPage, hasPreviousPage: slice.hasPreviousPage };
    const first = slice.indices[0];
    const last = slice.indices[slice.indices.length - 1];
    // An empty page has no first or last message, so it carries no cursors at all.
    if (first !== undefined && last !== undefined) {
      pageData.startCursor = this.cursors.encode(listing, first);
      pageData.endCursor = this.cursors.encode(listing, last);
    }
    return { status: 200, body: { data, pageData } };
  }

  private pageQueryOf(
    source: MessageSource,
    listing: string,
    range: ListingRange,
    query: URLSearchParams,
  ): (PageQuery & { impossible: boolean }) | JsonReply {
    const limit = parseLimit(query.get("limit"));
    if (typeof limit === "string") return errorReply(400, "invalid_limit", limit);
    const after = query.get("after");
    const before = query.get("before");
    if (after !== null && before !== null)
      return errorReply(400, "conflicting_cursors", "Give either after or before, not both.");
    const cursor = after ?? before;
    let position: number | undefined;
    if (cursor !== null) {
      position = this.cursors.decode(listing, cursor);
      if (position === undefined || position < range.start || position >= range.end) {
        return errorReply(
          400,
          "invalid_cursor",
          `The ${after !== null ? "after" : "before"} cursor was not issued for this listing.`,
        );
      }
    }
    const search = query.get("search") ?? "";
    const pageQuery: PageQuery & { impossible: boolean } = { limit, impossible: /[^0-9]/.test(search) };
    if (after !== null) pageQuery.after = position;
    if (before !== null) pageQuery.before = position;
    if (search !== "") pageQuery.matches = (index) => source.recipientAt(index).includes(search);
    return pageQuery;
  }
}

/** The limit, or the reason it is refused. */
function parseLimit(raw: string | null): number | string {
  if (raw === null) return `limit is required (1 to ${MAX_LIMIT}).`;
  if (!/^[0-9]+$/.test(raw)) return `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(raw)}.`;
  const limit = Number(raw);
  if (limit < 1 || limit > MAX_LIMIT) return `limit must be from 1 to ${MAX_LIMIT}, got ${raw}.`;
  return limit;
}
