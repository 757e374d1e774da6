// The three endpoints, each returning checked data. Checking covers what msgstat relies on (the zod
// schemas in schemas.ts), but hands back the server's own objects, so JSON output stays exactly what
// was sent. A hand-written check runs first; zod is loaded only to word a rejection.
import type { z } from "zod";
import { ResponseError } from "../errors.js";
import { inlineSafe } from "../output/sanitize.js";
import type { ApiClient } from "./client.js";
import { listingSegments, messageSegments, type ListingRef } from "./path.js";
import { quickMessageOk, quickPageOk } from "./quick-check.js";
import type { CheckedMessage, CheckedPage } from "./schemas.js";

export interface PageQuery {
  limit: number;
  after?: string;
  before?: string;
  search?: string;
}

export async function fetchPage(client: ApiClient, listing: ListingRef, query: PageQuery): Promise<CheckedPage> {
  const { body } = await client.getJson(listingSegments(listing), {
    limit: String(query.limit),
    after: query.after,
    before: query.before,
    search: query.search,
  });
  if (quickPageOk(body)) return body as CheckedPage;
  const { messagePageSchema } = await import("./schemas.js");
  return checked(messagePageSchema, body, "listing");
}

export async function fetchMessage(client: ApiClient, campaignId: string, messageId: string): Promise<CheckedMessage> {
  const { body } = await client.getJson(messageSegments(campaignId, messageId));
  if (quickMessageOk(body)) return body as CheckedMessage;
  const { messageSchema } = await import("./schemas.js");
  return checked(messageSchema, body, "message");
}

function checked<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return body as z.infer<S>;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.join(".") : "(the body)";
  throw new ResponseError(`the ${what} response is not the shape msgstat expects: ${inlineSafe(path)}: ${inlineSafe(issue?.message ?? "invalid")}`);
}
