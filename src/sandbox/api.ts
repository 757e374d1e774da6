// The three endpoints as plain functions from a route and query to a status and a JSON body.
import type { Message, PageData } from "../core/message.js";
import type { BatchPlan, CampaignPlan } from "./campaigns.js";
import type { CursorCodec } from "./cursor.js";
import { deriveMessage, indexOfMessageId, recipientFor, type MessageView } from "./messages.js";
import { slicePage, type ListingRange, type PageQuery } from "./paging.js";
import type { Route } from "./routes.js";

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const MAX_LIMIT = 1000;

export function errorReply(status: number, error: string, message: string, headers?: Record<string, string>): JsonReply {
  return headers ? { status, body: { error, message }, headers } : { status, body: { error, message } };
}

export class SandboxApi {
  constructor(
    private readonly campaigns: readonly CampaignPlan[],
    private readonly cursors: CursorCodec,
  ) {}

  answer(route: Route, method: string, query: URLSearchParams): JsonReply {
    if (route.kind === "bad-path") return errorReply(400, "invalid_path", "The path contains a malformed percent-escape.");
    if (route.kind === "unknown") return errorReply(404, "not_found", "No such route. Routes: /campaigns/:campaignId/messages, /campaigns/:campaignId/batch/:batchId/messages, /campaigns/:campaignId/messages/:messageId.");
    if (method !== "GET") return errorReply(405, "method_not_allowed", `${method} is not allowed; this API is read-only (GET).`, { Allow: "GET" });
    const campaign = this.campaigns.find((plan) => plan.id === route.campaignId);
    if (!campaign) return errorReply(404, "campaign_not_found", `Campaign ${JSON.stringify(route.campaignId)} does not exist.`);
    switch (route.kind) {
      case "campaign-messages":
        return this.listing(campaign, undefined, query);
      case "batch-messages": {
        const batch = campaign.batches.find((candidate) => candidate.id === route.batchId);
        if (!batch) return errorReply(404, "batch_not_found", `Batch ${JSON.stringify(route.batchId)} does not exist in campaign ${campaign.id}.`);
        return this.listing(campaign, batch, query);
      }
      case "message":
        return this.singleMessage(campaign, route.messageId);
    }
  }

  private singleMessage(campaign: CampaignPlan, messageId: string): JsonReply {
    const index = indexOfMessageId(campaign, messageId);
    if (index === undefined) return errorReply(404, "message_not_found", `Message ${JSON.stringify(messageId)} does not exist in campaign ${campaign.id}.`);
    return { status: 200, body: deriveMessage(campaign, index, "single") };
  }

  private listing(campaign: CampaignPlan, batch: BatchPlan | undefined, query: URLSearchParams): JsonReply {
    const listing = batch ? `batch:${campaign.id}/${batch.id}` : `campaign:${campaign.id}`;
    const range: ListingRange = batch ? { start: batch.start, end: batch.end } : { start: 0, end: campaign.size };
    const pageQuery = this.pageQueryOf(campaign, listing, range, query);
    if ("status" in pageQuery) return pageQuery;
    const slice = pageQuery.impossible ? { indices: [], hasNextPage: false, hasPreviousPage: false } : slicePage(range, pageQuery);
    const view: MessageView = batch ? "batch" : "campaign";
    const data: Message[] = slice.indices.map((index) => deriveMessage(campaign, index, view));
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

  private pageQueryOf(campaign: CampaignPlan, listing: string, range: ListingRange, query: URLSearchParams): (PageQuery & { impossible: boolean }) | JsonReply {
    const limit = parseLimit(query.get("limit"));
    if (typeof limit === "string") return errorReply(400, "invalid_limit", limit);
    const after = query.get("after");
    const before = query.get("before");
    if (after !== null && before !== null) return errorReply(400, "conflicting_cursors", "Give either after or before, not both.");
    const cursor = after ?? before;
    let position: number | undefined;
    if (cursor !== null) {
      position = this.cursors.decode(listing, cursor);
      if (position === undefined || position < range.start || position >= range.end) {
        return errorReply(400, "invalid_cursor", `The ${after !== null ? "after" : "before"} cursor was not issued for this listing.`);
      }
    }
    const search = query.get("search") ?? "";
    const pageQuery: PageQuery & { impossible: boolean } = { limit, impossible: /[^0-9]/.test(search) };
    if (after !== null) pageQuery.after = position;
    if (before !== null) pageQuery.before = position;
    if (search !== "") pageQuery.matches = (index) => recipientFor(campaign, index).includes(search);
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
