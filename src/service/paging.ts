// Cursor paging as an async generator of pages. The next page is requested as soon as the current
// one is parsed (its cursor is known then), and sent before the current one is handed out, so
// fetching overlaps with rendering; it waits as its bytes, parsed only when it is wanted. It is
// requested only when the consumer is sure to want it, so `--limit 20` costs one request.
import { ServiceError } from "../core/errors.js";
import { inlineSafe } from "../core/text.js";
import type { JsonBody } from "../http/json-body.js";
import {
  decodePage,
  fetchPageBody,
  type PageClient,
  type FetchedPage,
  type ListingRef,
  type MessageReading,
  type PagePart,
  type PartSizes,
} from "./endpoints.js";
import { PAGE_DATA, read } from "../core/message.js";

export interface PagingPlan {
  direction: "forward" | "backward";
  /** Start after (forward) or before (backward) this cursor; undefined starts at the newest message. */
  cursor?: string;
  pageSize: number;
  search?: string;
  /**
   * Exact: every message of a page will be printed (no client-side filter), so pages are sized to
   * what is still wanted and the last page ends exactly at the last message printed.
   */
  exact: boolean;
  /** How many more messages the consumer wants now (Infinity for all). */
  remaining: () => number;
  /** How pages are parsed: whole (the default), or in small parts while their bytes are held (merges). */
  parts?: PartSizes;
  /**
   * The consumer holds none of a page's messages once it asks for the next (a renderer writing each page
   * as it comes): the page's bytes, which the messages of JSON output point into, are freed then rather
   * than at a full collection, which lets many pages pile up (bench/HISTORY.md, "A page's bytes freed").
   * Not for a consumer that keeps messages longer, as a walk back does.
   */
  freeEachPage?: boolean;
}

export interface PageRead<M> {
  /** The page's messages, less those already handed out (a server that repeats itself). */
  messages: M[];
  page: PagePart<M>;
}

/** Thrown when paging fails part way; says where a later run can take over. */
export class PagingError extends ServiceError {
  override readonly exitCode: number;
  constructor(
    override readonly cause: ServiceError,
    readonly resumeCursor: string | undefined,
    readonly direction: "forward" | "backward",
  ) {
    super(cause.message, cause.status, cause.serverMessage, cause.transient);
    this.exitCode = cause.exitCode;
    this.hints.push(...cause.hints);
  }
}

// Ids of this many recent pages are remembered to drop a message the server sends twice
// (a page re-served after a retry); a window keeps memory flat however long the listing.
export const DEDUPE_WINDOW_PAGES = 3;
// Empty pages that say more follow, with a fresh cursor, are followed (a server may skip deleted or
// hidden messages page by page) up to this many in a row; one more is taken for a loop.
export const EMPTY_PAGES_FOLLOWED = 10;

export class PageReader {
  /** The cursor after (or before) which nothing has been handed out yet: where a resumed run starts. */
  resumeCursor: string | undefined;
  pagesRead = 0;
  duplicatesDropped = 0;
  private readonly usedCursors = new Set<string>();
  private readonly recentIds: Set<string>[] = [];
  private emptyInARow = 0;

  constructor(
    private readonly client: PageClient,
    private readonly listing: ListingRef,
    private readonly plan: PagingPlan,
  ) {
    this.resumeCursor = plan.cursor;
  }

  /** The pages, each message handed out as `reading` says: as parsed, or with its text (for JSON output). */
  async *pages<M>(reading: MessageReading<M>): AsyncGenerator<PageRead<M>> {
    let pending: Promise<JsonBody> | undefined = this.request(
      this.plan.cursor,
      this.nextPageSize(this.plan.remaining()),
    );
    while (pending) {
      // Parsed only now: a page read ahead while the one before it was handed out waited as its bytes,
      // not as a second parsed page beside the first.
      const page = await this.guard(pending.then((body) => decodePage(body, reading, this.plan.parts)));
      pending = undefined;
      this.pagesRead++;
      const next = this.nextCursor(page);
      const remainingBefore = this.plan.remaining();
      // A page too large to parse whole is too large to have another in flight beside it.
      if (next !== undefined && page.size < remainingBefore && !page.large) {
        pending = this.request(next, this.nextPageSize(remainingBefore - page.size));
        // Surfaced when awaited; avoids an unhandled rejection if the consumer stops first.
        pending.catch(() => undefined);
        // On a kept-alive connection, Node's http client writes the request in a process.nextTick
        // callback, which runs only once the microtask queue is empty: a consumer rendering the page
        // in one chain of promises would hold the request back until it is done, and the server's
        // work on the next page would wait on the rendering instead of overlapping it (bench/HISTORY.md,
        // "The next page asked for before the current one is handed out").
        // A tick queued after that one lets it run first; a turn of the event loop would too, but the
        // page-boundary flush takes one turn to tell whether the next page is already there.
        await afterPendingTicks();
      }
      const ids = new Set<string>();
      for (const part of this.partsOf(page)) yield { messages: this.dropRepeats(part.data, ids, reading), page: part };
      this.rememberIds(ids);
      if (this.plan.freeEachPage) page.release();
      // The consumer asked for more: the page just yielded is complete.
      this.resumeCursor =
        this.plan.direction === "forward"
          ? (read(PAGE_DATA, page.pageData, "endCursor") ?? this.resumeCursor)
          : (read(PAGE_DATA, page.pageData, "startCursor") ?? this.resumeCursor);
      if (next === undefined) return;
      if (!pending && this.plan.remaining() > 0) {
        pending = this.request(next, this.nextPageSize(this.plan.remaining()));
      }
    }
  }

  /** A page's parts, nearest first; a bad message in a later part fails the listing as a bad page would. */
  private *partsOf<M>(page: FetchedPage<M>): Generator<PagePart<M>> {
    const parts = page.parts(this.plan.direction === "backward")[Symbol.iterator]();
    for (;;) {
      let step: IteratorResult<PagePart<M>>;
      try {
        step = parts.next();
      } catch (error) {
        throw this.pagingError(error);
      }
      if (step.done) return;
      yield step.value;
    }
  }

  private nextPageSize(stillWanted: number): number {
    if (!this.plan.exact) return this.plan.pageSize;
    return Math.max(1, Math.min(this.plan.pageSize, stillWanted));
  }

  private request(cursor: string | undefined, limit: number): Promise<JsonBody> {
    const forward = this.plan.direction === "forward";
    return fetchPageBody(this.client, this.listing, {
      limit,
      after: forward ? cursor : undefined,
      before: forward ? undefined : cursor,
      search: this.plan.search,
    });
  }

  private async guard<M>(pending: Promise<FetchedPage<M>>): Promise<FetchedPage<M>> {
    try {
      return await pending;
    } catch (error) {
      throw this.pagingError(error);
    }
  }

  private pagingError(error: unknown): unknown {
    return error instanceof ServiceError && !(error instanceof PagingError)
      ? new PagingError(error, this.resumeCursor, this.plan.direction)
      : error;
  }

  /** The cursor for the following request, or undefined at the end; stops a server that would loop. */
  private nextCursor(page: FetchedPage<unknown>): string | undefined {
    const forward = this.plan.direction === "forward";
    const more = forward ? page.pageData.hasNextPage : read(PAGE_DATA, page.pageData, "hasPreviousPage") === true;
    if (!more) return undefined;
    const cursor = read(PAGE_DATA, page.pageData, forward ? "endCursor" : "startCursor");
    const field = forward ? "endCursor" : "startCursor";
    if (typeof cursor !== "string" || cursor === "")
      this.stop(
        `the service says more messages follow but sent ${page.size === 0 ? "an empty page without" : "no"} ${field}`,
      );
    if (this.usedCursors.has(cursor) || cursor === this.plan.cursor)
      this.stop(`the service sent the ${field} ${inlineSafe(cursor)} a second time`);
    this.emptyInARow = page.size === 0 ? this.emptyInARow + 1 : 0;
    if (this.emptyInARow > EMPTY_PAGES_FOLLOWED)
      this.stop(`the service sent ${this.emptyInARow} empty pages in a row, each saying more messages follow`);
    this.usedCursors.add(cursor);
    return cursor;
  }

  private stop(what: string): never {
    throw new PagingError(
      new ServiceError(`${what}; stopping instead of looping`),
      this.resumeCursor,
      this.plan.direction,
    );
  }

  /** The messages not seen in this page so far (`ids`) nor in the last few pages. */
  private dropRepeats<M>(messages: M[], ids: Set<string>, reading: MessageReading<M>): M[] {
    let kept = messages;
    for (let i = 0; i < messages.length; i++) {
      const id = reading.messageOf(messages[i]!).id;
      const repeated = ids.has(id) || this.seenRecently(id);
      // Held whether kept or dropped: an id the server keeps sending stays known as long as it does.
      ids.add(id);
      if (repeated) {
        if (kept === messages) kept = messages.slice(0, i);
        this.duplicatesDropped++;
        continue;
      }
      if (kept !== messages) kept.push(messages[i]!);
    }
    return kept;
  }

  private seenRecently(id: string): boolean {
    for (const window of this.recentIds) if (window.has(id)) return true;
    return false;
  }

  private rememberIds(ids: Set<string>): void {
    this.recentIds.push(ids);
    if (this.recentIds.length > DEDUPE_WINDOW_PAGES) this.recentIds.shift();
  }
}

/** The warning's first half when the server repeated messages: how many, and what counts as a repeat. */
export function repeatsLine(dropped: number): string {
  return (
    `the service sent ${dropped} ${dropped === 1 ? "message" : "messages"} again (an id already ` +
    `seen in the last ${DEDUPE_WINDOW_PAGES} pages)`
  );
}

/** Resolves once the process.nextTick callbacks queued so far have run. */
function afterPendingTicks(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}
