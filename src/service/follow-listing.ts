// `messages --follow` / `batch --follow`: the most recent messages first, then every new message as it
// appears, until interrupted. Chunks come oldest first, so the newest is at the bottom, as in `tail -f`.
//
// New messages are found by asking for the messages before the newest cursor seen (`before=`), page
// after page while the service says newer ones remain (`hasPreviousPage`), so a burst larger than a
// page between two polls is read whole. With a status filter, a message is printed when it first
// matches: one seen while still in flight (`created`) is remembered and looked at again, by re-reading
// the top of the listing down to the oldest such message, until it settles. Each message is printed
// at most once, however often it is read. Service failures that may pass are retried forever with
// backoff; the caller is told when an outage starts and when it ends.
import { MESSAGE, PAGE_DATA, read } from "../core/message.js";
import { isFinalStatus } from "../core/statuses.js";
import { instantOf } from "../core/time.js";
import type { Timer } from "../core/timer.js";
import type { ApiClient } from "../http/client.js";
import { PageReader } from "./paging.js";
import type { ListingRef, MessageReading } from "./endpoints.js";
import { throughOutages, type OutageEvent } from "./outages.js";

export interface FollowPlan {
  listing: ListingRef;
  search?: string;
  statuses?: ReadonlySet<string>;
  /** The first chunk: the `recent` newest matching messages, or every matching one since `since`. */
  recent: number;
  since?: number;
  everyMs: number;
  pageSize: number;
}

export type FollowEvent = OutageEvent;

/** Ids printed, remembered so a message re-read is never printed twice; oldest forgotten past this. */
const PRINTED_MEMORY = 100_000;
/** Messages in flight remembered for a status filter; past this the oldest are given up. */
const PENDING_MEMORY = 10_000;
/**
 * A re-read for messages in flight goes back this many pages of RECHECK_PAGE_SIZE at most: messages
 * settle within seconds, so the oldest in flight is rarely more than a page from the top.
 */
const PENDING_PAGES = 40;
const RECHECK_PAGE_SIZE = 250;
const MAX_BACKOFF_MS = 60_000;

export class ListingFollower {
  private newestCursor: string | undefined;
  private readonly printed = new Set<string>();
  /** In flight and not matching yet: id -> createdAt instant. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly client: ApiClient,
    private readonly plan: FollowPlan,
    private readonly timer: Timer,
    private readonly signal: AbortSignal,
    private readonly onEvent: (event: FollowEvent) => void = () => undefined,
  ) {}

  /** Each message handed out as `reading` says: as parsed, or with its text (for JSON output). */
  async *chunks<M>(reading: MessageReading<M>): AsyncGenerator<M[]> {
    yield await this.retrying(() => this.recent(reading));
    for (;;) {
      await this.timer.sleep(this.plan.everyMs, this.signal);
      const fresh = await this.retrying(() => this.poll(reading));
      if (fresh.length > 0) yield fresh;
    }
  }

  /** The newest messages, read top down until `recent` match or `since` is passed; oldest first. */
  private async recent<M>(reading: MessageReading<M>): Promise<M[]> {
    const kept: M[] = [];
    // Without filters every message read is kept, so pages can be sized to what is still wanted.
    const exact = this.plan.since === undefined && this.plan.statuses === undefined;
    const reader = this.reader(
      undefined,
      "forward",
      () => (this.plan.since === undefined ? this.plan.recent - kept.length : Number.POSITIVE_INFINITY),
      exact,
    );
    for await (const { messages, page } of reader.pages(reading)) {
      this.newestCursor ??= read(PAGE_DATA, page.pageData, "startCursor");
      let passedSince = false;
      for (const item of messages) {
        const at = instantOf(read(MESSAGE, reading.messageOf(item), "createdAt"));
        if (this.plan.since !== undefined && at !== undefined && at < this.plan.since) {
          passedSince = true;
          continue;
        }
        if (kept.length < this.plan.recent || this.plan.since !== undefined) this.consider(item, kept, reading);
      }
      if (passedSince || (this.plan.since === undefined && kept.length >= this.plan.recent)) break;
    }
    return this.inTimeOrder(kept, reading);
  }

  /** One round: the messages created since the last, then those in flight that now match. */
  private async poll<M>(reading: MessageReading<M>): Promise<M[]> {
    const found: M[] = [];
    if (this.newestCursor === undefined) {
      // Nothing was there yet: everything now at the top is new.
      for await (const { messages, page } of this.reader(undefined, "forward", () => Number.POSITIVE_INFINITY).pages(
        reading,
      )) {
        this.newestCursor ??= read(PAGE_DATA, page.pageData, "startCursor");
        for (const item of messages) this.consider(item, found, reading);
      }
    } else {
      for await (const { messages, page } of this.reader(
        this.newestCursor,
        "backward",
        () => Number.POSITIVE_INFINITY,
      ).pages(reading)) {
        this.newestCursor = read(PAGE_DATA, page.pageData, "startCursor") ?? this.newestCursor;
        for (const item of messages) this.consider(item, found, reading);
      }
    }
    if (this.plan.statuses !== undefined && this.pending.size > 0) await this.recheckPending(found, reading);
    return this.inTimeOrder(found, reading);
  }

  /** Re-reads the top of the listing down to the oldest message still in flight. */
  private async recheckPending<M>(found: M[], reading: MessageReading<M>): Promise<void> {
    let oldest = Number.POSITIVE_INFINITY;
    for (const at of this.pending.values()) oldest = Math.min(oldest, at);
    let pages = 0;
    for await (const { messages } of this.reader(
      undefined,
      "forward",
      () => Number.POSITIVE_INFINITY,
      false,
      RECHECK_PAGE_SIZE,
    ).pages(reading)) {
      let reachedOldest = false;
      for (const item of messages) {
        const message = reading.messageOf(item);
        if (this.pending.has(message.id)) this.consider(item, found, reading);
        const at = instantOf(read(MESSAGE, message, "createdAt"));
        if (at !== undefined && at < oldest) reachedOldest = true;
      }
      if (reachedOldest || ++pages >= PENDING_PAGES) break;
    }
  }

  /** Prints a message the first time it matches; remembers it while it may still come to match. */
  private consider<M>(item: M, into: M[], reading: MessageReading<M>): void {
    const message = reading.messageOf(item);
    if (this.printed.has(message.id)) return;
    const status = read(MESSAGE, message, "latestStatus");
    if (this.plan.statuses === undefined || this.plan.statuses.has(status ?? "")) {
      this.pending.delete(message.id);
      remember(this.printed, message.id, PRINTED_MEMORY);
      into.push(item);
    } else if (!isFinalStatus(status)) {
      this.pending.set(message.id, instantOf(read(MESSAGE, message, "createdAt")) ?? this.timer.now());
      if (this.pending.size > PENDING_MEMORY) this.pending.delete(this.pending.keys().next().value!);
    } else {
      this.pending.delete(message.id);
    }
  }

  private reader(
    cursor: string | undefined,
    direction: "forward" | "backward",
    remaining: () => number,
    exact = false,
    pageSize = this.plan.pageSize,
  ): PageReader {
    return new PageReader(this.client, this.plan.listing, {
      direction,
      cursor,
      pageSize: Math.min(pageSize, this.plan.pageSize),
      search: this.plan.search,
      exact,
      remaining,
    });
  }

  /** Oldest first; messages without a readable createdAt keep their place after the dated ones. */
  private inTimeOrder<M>(messages: M[], reading: MessageReading<M>): M[] {
    const at = (item: M) => instantOf(read(MESSAGE, reading.messageOf(item), "createdAt")) ?? Number.POSITIVE_INFINITY;
    return messages
      .map((item, i) => ({ item, i, at: at(item) }))
      .sort((a, b) => a.at - b.at || b.i - a.i)
      .map(({ item }) => item);
  }

  /** Runs one round until it succeeds: failures that may pass are waited out, with one event per outage. */
  private retrying<T>(round: () => Promise<T>): Promise<T> {
    return throughOutages(round, {
      everyMs: this.plan.everyMs,
      maxBackoffMs: MAX_BACKOFF_MS,
      timer: this.timer,
      signal: this.signal,
      onEvent: this.onEvent,
    });
  }
}

function remember(ids: Set<string>, id: string, limit: number): void {
  ids.add(id);
  if (ids.size > limit) ids.delete(ids.values().next().value!);
}
