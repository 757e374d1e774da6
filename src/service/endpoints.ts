// The three endpoints of the reference, each returning checked data: the server's own objects, untouched
// (with the text each was parsed from, where asked, so JSON output is exactly what was sent), known to hold what
// msgstat cannot work without (the `required` fields of core/message.ts). Everything else is read
// tolerantly where it is used.
import { ResponseError } from "../core/errors.js";
import {
  MESSAGE,
  MESSAGE_PAGE,
  problemIn,
  type CheckedMessage,
  type CheckedPage,
  type Shape,
} from "../core/message.js";
import { JsonSource, SourcedMessage } from "../core/json-source.js";
import { inlineSafe } from "../core/text.js";
import type { ApiClient, TimeLeft } from "../http/client.js";
import { releaseBody, type JsonBody, type JsonList } from "../http/json-body.js";

/** What listing needs of the HTTP client: a GET. The fan-out passes a gated one (fan-out.ts). */
export type PageClient = Pick<ApiClient, "get">;

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

/** Messages of a listing page, or of a part of one, with the page's cursors that are true of them. */
export interface PagePart<M> {
  readonly data: M[];
  readonly pageData: CheckedPage["pageData"];
}

/**
 * What a listing hands out for each message (`M`): the message as parsed, or the message with the text
 * it was parsed from (JSON output writes that text as sent).
 */
export interface MessageReading<M> {
  /** Whether a page is read element by element, to find each message's text. */
  readonly withSource: boolean;
  /** The item for element `index` of a list, already parsed and checked as `message`. */
  readonly fromList: (message: CheckedMessage, list: JsonList, index: number) => M;
  /** The item for a message of a page parsed whole. */
  readonly fromParsed: (message: CheckedMessage) => M;
  /** The message of an item: for ids, filters and cursors. */
  readonly messageOf: (item: M) => CheckedMessage;
}

/** Messages as parsed (tables, CSV, stats, JSON of chosen --fields). */
export const PARSED_MESSAGES: MessageReading<CheckedMessage> = {
  withSource: false,
  fromList: (message) => message,
  fromParsed: (message) => message,
  messageOf: (message) => message,
};

/** Messages with their text (JSON and JSONL of whole messages). */
export const SOURCED_MESSAGES: MessageReading<SourcedMessage> = {
  withSource: true,
  fromList: (message, list, index) => new SourcedMessage(message, list.sourceOf(index)),
  // Only when the scan of json-spans.ts gave up on a page JSON.parse read: written as JSON.stringify writes it.
  fromParsed: (message) => new SourcedMessage(message, JsonSource.written(message)),
  messageOf: (item) => item.message,
};

/** A listing page as it came: its pageData now, its messages checked and handed out a part at a time. */
export interface FetchedPage<M> {
  readonly pageData: CheckedPage["pageData"];
  /** How many messages the page holds. */
  readonly size: number;
  /** Read in parts (see PartSizes). */
  readonly inParts: boolean;
  /** Too large to hold parsed at once (only a server ignoring `limit` sends such a page): no other beside it. */
  readonly large: boolean;
  /**
   * The page's messages as pages of their own: the whole page at once, or, for a page read in parts,
   * one part after another (from the end when `fromEnd`), each with only the cursors that are true of it.
   */
  parts(fromEnd?: boolean): Iterable<PagePart<M>>;
  /**
   * The consumer holds none of the page's messages any more: their text's bytes are freed now, not at a
   * full collection (see releaseBody). A message's text read after this throws (JsonSource.checkHeld).
   */
  release(): void;
}

/** When a page is parsed a part at a time while its bytes are held, and how large a part is. */
export interface PartSizes {
  /** Pages of more bytes than this are read in parts. */
  fromBytes: number;
  messages: number;
  bytes: number;
}

// A page of the API (at most 1000 messages) is 2-3 MB, parsed whole. Past this size its messages are
// parsed a part at a time while its bytes are held, so memory stays near the body's size whatever it
// holds: parsed whole, a page costs many times its bytes.
const LARGE_PAGE_BYTES = 8 * 1024 * 1024;
export const WHOLE_PAGES: PartSizes = { fromBytes: LARGE_PAGE_BYTES, messages: 1000, bytes: 1024 * 1024 };
// A merge of many campaigns holds a page and a read-ahead of each at once: held as bytes and parsed 20
// messages at a time, a page costs little more than its bytes. Parts this small so that the parsed
// parts waiting their turn in the merge die young instead of outliving a collection (docs/bench.md's
// fan-out peak RSS target).
export const SMALL_PARTS: PartSizes = { fromBytes: 0, messages: 20, bytes: 64 * 1024 };

export function listingSegments(listing: ListingRef): string[] {
  return listing.batchId === undefined
    ? ["campaigns", listing.campaignId, "messages"]
    : ["campaigns", listing.campaignId, "batch", listing.batchId, "messages"];
}

export function messageSegments(campaignId: string, messageId: string): string[] {
  return ["campaigns", campaignId, "messages", messageId];
}

export async function fetchPage<M>(
  client: PageClient,
  listing: ListingRef,
  query: PageQuery,
  reading: MessageReading<M>,
  parts: PartSizes = WHOLE_PAGES,
): Promise<FetchedPage<M>> {
  return decodePage(await fetchPageBody(client, listing, query), reading, parts);
}

/** A page's body, not yet parsed: a page read ahead is held as its bytes until it is wanted. */
export function fetchPageBody(client: PageClient, listing: ListingRef, query: PageQuery): Promise<JsonBody> {
  return client.get(listingSegments(listing), {
    limit: String(query.limit),
    after: query.after,
    before: query.before,
    search: query.search,
  });
}

/** One message, with the text it was parsed from (one message costs next to nothing to keep it). */
export async function fetchMessage(
  client: ApiClient,
  campaignId: string,
  messageId: string,
  within?: TimeLeft,
): Promise<SourcedMessage> {
  const body = await client.get(messageSegments(campaignId, messageId), {}, { within, oneObject: true });
  const { value, source } = body.sourcedValue();
  return new SourcedMessage(checked<CheckedMessage>(MESSAGE, value, "message"), source);
}

export function decodePage<M>(
  body: JsonBody,
  reading: MessageReading<M>,
  sizes: PartSizes = WHOLE_PAGES,
): FetchedPage<M> {
  const inParts = body.bytes.length > sizes.fromBytes;
  const large = body.bytes.length > LARGE_PAGE_BYTES;
  // For JSON output each message comes with where its bytes lie: the page is parsed element by element
  // from them, which costs no more than parsing it whole (most messages decode to one-byte strings,
  // the page as a whole to a two-byte one), the scan for the elements included.
  const list = inParts || reading.withSource ? body.listAt("data") : undefined;
  if (list === undefined) {
    // A page of the API, or a body that is not one (the check then says what is wrong).
    const value = body.value();
    // Parsed whole and read as parsed: nothing reads the page's bytes again.
    releaseBody(body);
    const page = checked<CheckedPage>(MESSAGE_PAGE, value, "listing");
    return wholePage(
      { data: page.data.map((message) => reading.fromParsed(message)), pageData: page.pageData },
      large,
      body,
    );
  }
  const rest = checked<CheckedPage>(MESSAGE_PAGE, list.rest, "listing");
  if (!inParts)
    return wholePage({ data: messagesOf(list, 0, list.count, reading), pageData: rest.pageData }, large, body);
  return {
    pageData: rest.pageData,
    size: list.count,
    inParts: true,
    large,
    release: () => releaseBody(body),
    *parts(fromEnd = false) {
      const bounds = partBounds(list, sizes);
      if (fromEnd) bounds.reverse();
      for (const [k, [start, end]] of bounds.entries()) {
        const messages = messagesOf(list, start, end, reading);
        // The last part parsed, and the messages hold no text of their own: the bytes are done with.
        if (k === bounds.length - 1 && !reading.withSource) releaseBody(body);
        yield partPage(rest.pageData, messages, start === 0, end === list.count);
      }
    },
  };
}

function wholePage<M>(page: PagePart<M>, large: boolean, body: JsonBody): FetchedPage<M> {
  return {
    pageData: page.pageData,
    size: page.data.length,
    inParts: false,
    large,
    parts: () => [page],
    release: () => releaseBody(body),
  };
}

/** Messages start..end of a list, parsed and checked. */
function messagesOf<M>(list: JsonList, start: number, end: number, reading: MessageReading<M>): M[] {
  const items: M[] = [];
  for (let i = start; i < end; i++) {
    const message = list.parse(i);
    const problem = problemIn(MESSAGE, message, `data.${i}`);
    if (problem !== undefined) throw shapeError("listing", problem);
    items.push(reading.fromList(message as CheckedMessage, list, i));
  }
  return items;
}

/** [start, end) of each part: up to `sizes.messages` messages and about `sizes.bytes` of their text. */
function partBounds(list: JsonList, sizes: PartSizes): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < list.count; i++) {
    bytes += list.sizeOf(i);
    if (i + 1 - start >= sizes.messages || bytes >= sizes.bytes || i + 1 === list.count) {
      bounds.push([start, i + 1]);
      start = i + 1;
      bytes = 0;
    }
  }
  return bounds;
}

/** A part as a page: more follows it unless it ends the page; a cursor only where the page's is true of it. */
function partPage<M>(pageData: CheckedPage["pageData"], data: M[], first: boolean, last: boolean): PagePart<M> {
  const { startCursor, endCursor, ...rest } = pageData;
  return {
    data,
    pageData: {
      ...rest,
      hasNextPage: last ? pageData.hasNextPage : true,
      hasPreviousPage: first ? pageData.hasPreviousPage : true,
      ...(first ? { startCursor } : {}),
      ...(last ? { endCursor } : {}),
    },
  };
}

function checked<T>(shape: Shape, body: unknown, what: string): T {
  const problem = problemIn(shape, body);
  if (problem !== undefined) throw shapeError(what, problem);
  return body as T;
}

function shapeError(what: string, problem: string): ResponseError {
  return new ResponseError(`the ${what} response is not the shape msgstat expects: ${inlineSafe(problem)}`);
}
