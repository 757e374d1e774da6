// The three endpoints of the reference, each returning checked data: the server's own objects, untouched
// (so JSON output is exactly what was sent), known to hold what msgstat cannot work without (the
// `required` fields of core/message.ts). Everything else is read tolerantly where it is used.
import { ResponseError } from "../core/errors.js";
import { MESSAGE, MESSAGE_PAGE, problemIn, type CheckedMessage, type CheckedPage, type Shape } from "../core/message.js";
import { inlineSafe } from "../core/text.js";
import type { ApiClient } from "../http/client.js";

export interface ListingRef {
  campaignId: string;
  batchId?: string;
}

export interface PageQuery {
  limit: number;
  after?: string;
  before?: string;
  search?: string;
}

export function listingSegments(listing: ListingRef): string[] {
  return listing.batchId === undefined
    ? ["campaigns", listing.campaignId, "messages"]
    : ["campaigns", listing.campaignId, "batch", listing.batchId, "messages"];
}

export function messageSegments(campaignId: string, messageId: string): string[] {
  return ["campaigns", campaignId, "messages", messageId];
}

export async function fetchPage(client: ApiClient, listing: ListingRef, query: PageQuery): Promise<CheckedPage> {
  const { body } = await client.getJson(listingSegments(listing), {
    limit: String(query.limit),
    after: query.after,
    before: query.before,
    search: query.search,
  });
  return checked<CheckedPage>(MESSAGE_PAGE, body, "listing");
}

export async function fetchMessage(client: ApiClient, campaignId: string, messageId: string): Promise<CheckedMessage> {
  const { body } = await client.getJson(messageSegments(campaignId, messageId));
  return checked<CheckedMessage>(MESSAGE, body, "message");
}

function checked<T>(shape: Shape, body: unknown, what: string): T {
  const problem = problemIn(shape, body);
  if (problem !== undefined) throw new ResponseError(`the ${what} response is not the shape msgstat expects: ${inlineSafe(problem)}`);
  return body as T;
}
