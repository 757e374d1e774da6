// From pages to the messages a listing prints: client-side filters (--status, --since, --until),
// the --limit cap, an early stop once --since is passed (only while the server's order holds),
// and where a later run can continue.
import {
  fetchPage,
  type PageClient,
  PARSED_MESSAGES,
  type ListingRef,
  type MessageReading,
  type PartSizes,
} from "./endpoints.js";
import { PageReader, type PageRead } from "./paging.js";
import { MESSAGE, PAGE_DATA, read as readField, type CheckedMessage } from "../core/message.js";
import { instantOf } from "../core/time.js";
import { recipientMatches, type RecipientTest } from "../core/phone-number.js";
import { ServiceError } from "../core/errors.js";

export interface Selection {
  listing: ListingRef;
  search?: string;
  /** Kept client-side after the server's substring `search`: one number exactly, or an ending. */
  recipientTest?: RecipientTest;
  statuses?: ReadonlySet<string>;
  since?: number;
  until?: number;
  /** Infinity for --all. */
  limit: number;
  pageSize: number;
  after?: string;
  before?: string;
  /** Called after each page is read, e.g. to show progress while filters keep few or none of its messages. */
  onPage?: () => void;
  /** How pages are parsed (endpoints.ts): whole unless said. */
  parts?: PartSizes;
  /** The consumer is done with a chunk's messages once it asks for the next one (PagingPlan.freeEachPage). */
  doneWithEachChunk?: boolean;
}

export interface SelectionOutcome {
  printed: number;
  /** Messages read from the pages so far (filtered out or not). */
  seen: number;
  /** Set when --limit stopped the listing while unread messages remain. */
  continueAt?: { direction: "after" | "before"; cursor: string | undefined };
  stoppedEarlyAtSince: boolean;
  undatedSkipped: number;
  /**
   * latestStatus of every message read while filtering ("" when it has none), for "nothing matched; statuses seen:
   * ...".
   */
  statusesSeen: Map<string, number>;
}

// Enough distinct statuses to name them all in a note; a hostile server cannot grow the map past it.
const MAX_STATUSES_SEEN = 20;

/** A message by its place in a page that was read. */
type Position<M> = { index: number; read: PageRead<M> };

export class MessageSelector {
  readonly outcome: SelectionOutcome = {
    printed: 0,
    seen: 0,
    stoppedEarlyAtSince: false,
    undatedSkipped: 0,
    statusesSeen: new Map(),
  };
  readonly reader: PageReader;
  private readonly backward: boolean;
  /** Filters are applied here (--status, --since, --until, a recipient test), so fewer may be kept than read. */
  readonly filtered: boolean;
  private newestFirstSoFar = true;
  private previousInstant = Number.POSITIVE_INFINITY;
  private pagesOrdered = 0;

  constructor(
    private readonly client: PageClient,
    private readonly selection: Selection,
  ) {
    this.backward = selection.before !== undefined;
    this.filtered =
      selection.statuses !== undefined ||
      selection.since !== undefined ||
      selection.until !== undefined ||
      selection.recipientTest !== undefined;
    this.reader = new PageReader(client, selection.listing, {
      direction: this.backward ? "backward" : "forward",
      cursor: this.backward ? selection.before : selection.after,
      pageSize: selection.pageSize,
      search: selection.search,
      exact: !this.filtered,
      remaining: () => this.selection.limit - this.outcome.printed,
      parts: selection.parts,
      // A walk back holds its pages until it has them all, then hands them out.
      freeEachPage: selection.doneWithEachChunk === true && !this.backward,
    });
  }

  /**
   * The selected messages, a page's worth at a time, newest first; each handed out as `reading` says:
   * as parsed, or with its text (for JSON output).
   */
  async *chunks<M>(reading: MessageReading<M>): AsyncGenerator<M[]> {
    if (this.backward) yield* this.backwardChunks(reading);
    else yield* this.forwardChunks(reading);
  }

  private async *forwardChunks<M>(reading: MessageReading<M>): AsyncGenerator<M[]> {
    let last: Position<M> | undefined;
    for await (const read of this.reader.pages(reading)) {
      const { chunk, lastIndex } = this.pick(read.messages, reading);
      if (chunk.length > 0) last = { index: lastIndex, read };
      this.outcome.printed += chunk.length;
      this.outcome.seen += read.messages.length;
      this.selection.onPage?.();
      if (chunk.length > 0) yield chunk;
      if (this.outcome.printed >= this.selection.limit) {
        const unread = lastIndex < read.messages.length - 1 || read.page.pageData.hasNextPage;
        if (unread && last)
          this.outcome.continueAt = { direction: "after", cursor: await this.cursorOf(last, reading) };
        return;
      }
      if (this.selection.since !== undefined && this.passedSince(read.messages, reading)) {
        this.outcome.stoppedEarlyAtSince = true;
        return;
      }
    }
  }

  /**
   * Walking back from --before: pages come nearest-first, so they are kept (up to --limit) and printed newest first.
   */
  private async *backwardChunks<M>(reading: MessageReading<M>): AsyncGenerator<M[]> {
    const kept: Array<{ messages: M[]; read: PageRead<M>; firstIndex: number }> = [];
    let collected = 0;
    let unread = false;
    for await (const read of this.reader.pages(reading)) {
      const wanted = this.selection.limit - collected;
      const matching = this.matchingIndexes(read.messages, reading);
      const taken = matching.slice(Math.max(0, matching.length - wanted));
      collected += taken.length;
      this.outcome.printed = collected;
      this.outcome.seen += read.messages.length;
      this.selection.onPage?.();
      if (taken.length > 0) kept.push({ messages: taken.map((i) => read.messages[i]!), read, firstIndex: taken[0]! });
      if (collected >= this.selection.limit) {
        unread = (taken[0] ?? 0) > 0 || readField(PAGE_DATA, read.page.pageData, "hasPreviousPage") === true;
        break;
      }
    }
    const newest = kept[kept.length - 1];
    if (unread && newest) {
      this.outcome.continueAt = {
        direction: "before",
        cursor: await this.cursorOf({ index: newest.firstIndex, read: newest.read }, reading),
      };
    }
    for (let i = kept.length - 1; i >= 0; i--) yield kept[i]!.messages;
  }

  /** The messages of one page that pass the filters, up to what --limit still allows. */
  private pick<M>(messages: M[], reading: MessageReading<M>): { chunk: M[]; lastIndex: number } {
    const room = this.selection.limit - this.outcome.printed;
    if (!this.filtered) {
      const chunk = messages.length <= room ? messages : messages.slice(0, room);
      return { chunk, lastIndex: chunk.length - 1 };
    }
    const chunk: M[] = [];
    let lastIndex = -1;
    for (let i = 0; i < messages.length && chunk.length < room; i++) {
      if (this.matches(reading.messageOf(messages[i]!))) {
        chunk.push(messages[i]!);
        lastIndex = i;
      }
    }
    if (chunk.length >= room) return { chunk, lastIndex };
    return { chunk, lastIndex: messages.length - 1 };
  }

  private matchingIndexes<M>(messages: M[], reading: MessageReading<M>): number[] {
    const indexes: number[] = [];
    for (let i = 0; i < messages.length; i++)
      if (!this.filtered || this.matches(reading.messageOf(messages[i]!))) indexes.push(i);
    return indexes;
  }

  private matches(message: CheckedMessage): boolean {
    const { statuses, since, until, recipientTest } = this.selection;
    const status = readField(MESSAGE, message, "latestStatus") ?? "";
    if (recipientTest && !recipientMatches(recipientTest, readField(MESSAGE, message, "recipient"))) return false;
    this.countStatus(status);
    if (statuses && !statuses.has(status)) return false;
    if (since === undefined && until === undefined) return true;
    const at = instantOf(readField(MESSAGE, message, "createdAt"));
    if (at === undefined) {
      this.outcome.undatedSkipped++;
      return false;
    }
    return (since === undefined || at >= since) && (until === undefined || at <= until);
  }

  private countStatus(status: string): void {
    const seen = this.outcome.statusesSeen;
    const count = seen.get(status);
    if (count !== undefined) seen.set(status, count + 1);
    else if (seen.size < MAX_STATUSES_SEEN) seen.set(status, 1);
  }

  /**
   * (Asked only with --since.) True once a page ends before --since and the order has been seen to hold:
   * newest first inside every page so far and across every boundary between them (a page's newest no
   * newer than the previous page's oldest). The reference does not promise the order, so it is trusted
   * only where checked: never on the first page alone (a server whose pages run oldest-first, each
   * newest-first inside, looks ordered until the second page), and a single message out of order
   * anywhere turns the early stop off for the rest of the run.
   */
  private passedSince<M>(messages: M[], reading: MessageReading<M>): boolean {
    let oldest: number | undefined;
    for (const item of messages) {
      const at = instantOf(readField(MESSAGE, reading.messageOf(item), "createdAt"));
      if (at === undefined) continue;
      if (at > this.previousInstant) this.newestFirstSoFar = false;
      this.previousInstant = at;
      oldest = at;
    }
    if (oldest !== undefined) this.pagesOrdered++;
    const since = this.selection.since;
    // Two dated pages: at least one boundary between them was checked.
    return (
      since !== undefined && this.newestFirstSoFar && this.pagesOrdered >= 2 && oldest !== undefined && oldest < since
    );
  }

  /**
   * The cursor of one message of a page. The API gives cursors for page ends only; for a message inside a
   * page, asking for the messages after the page's start, up to that message, ends on its cursor.
   */
  private async cursorOf<M>(at: Position<M>, { messageOf }: MessageReading<M>): Promise<string | undefined> {
    const { data, pageData } = at.read.page;
    const startCursor = readField(PAGE_DATA, pageData, "startCursor");
    const endCursor = readField(PAGE_DATA, pageData, "endCursor");
    const item = at.read.messages[at.index];
    const target = item === undefined ? undefined : messageOf(item);
    const index = data.findIndex((other) => messageOf(other).id === target?.id);
    if (index === data.length - 1 && endCursor) return endCursor;
    if (index === 0 && startCursor) return startCursor;
    if (index < 0 || !startCursor) return undefined;
    try {
      const probe = await fetchPage(
        this.client,
        this.selection.listing,
        { limit: index, after: startCursor, search: this.selection.search },
        PARSED_MESSAGES,
      );
      let reached: CheckedMessage | undefined;
      for (const part of probe.parts()) reached = part.data[part.data.length - 1] ?? reached;
      return reached?.id === target?.id ? readField(PAGE_DATA, probe.pageData, "endCursor") : undefined;
    } catch (error) {
      // A failed probe costs only the cursor (the hint then suggests --all); an interrupt is not a failure.
      if (error instanceof ServiceError) return undefined;
      throw error;
    }
  }
}
