// `messages --follow` / `batch --follow`: the most recent messages first, then every new message as it
// appears, until interrupted. Chunks come oldest first, so the newest is at the bottom, as in `tail -f`.
//
// New messages are found by asking for the messages before the newest cursor seen (`before=`), page
// after page while the service says newer ones remain (`hasPreviousPage`), so a burst larger than a
// page between two polls is read whole. A round (the first chunk, or one poll) commits only once every
// page of it was read: then, and not before, its newest cursor is taken and its messages are marked
// printed. A round that fails part way leaves nothing behind, and is tried again from where it began
// (failures that may pass are retried forever with backoff; the caller is told when an outage starts
// and when it ends), so nothing is lost to a failed page and nothing is printed twice.
//
// The order (docs/live-modes.md): oldest `createdAt` first; messages with the same `createdAt` in the
// reverse of the service's listing order, which is the order they would have read oldest first. That
// order holds across pages (`before=` pages come oldest page first, each newest first inside) and across
// polls (a later poll reads only messages the service lists above those printed).
//
// The guard below the newest cursor: `before=` sees only what the service lists above the newest
// message seen. A message that appears below it (inserted late, or stamped by a server whose clock
// lags) would never be asked for, so each poll also re-reads the top of the listing (GUARD_WINDOW
// messages, one request) and prints any message there newer than the first chunk reached that was never
// read. What falls below that window before a poll is not seen: --follow's limit, said in the docs.
//
// With a status filter, a message is printed when it first matches: one seen while still in flight
// (`created`) is remembered and looked at again, by reading on from the top of the listing down to the
// oldest such message, until it settles. Each message is printed at most once, however often it is read.
import { MESSAGE, PAGE_DATA, read, type CheckedMessage } from "../core/message.js";
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

/**
 * An outage starts, or ends: `givenUp` counts the messages in flight that were given up meanwhile (a
 * status filter could no longer look at them again), so "nothing missed" is said only when true.
 */
export type FollowEvent =
  Extract<OutageEvent, { kind: "failing" }> | (Extract<OutageEvent, { kind: "recovered" }> & { givenUp: number });

/** Ids printed, remembered so a message re-read is never printed twice; oldest forgotten past this. */
const PRINTED_MEMORY = 100_000;
/** Ids read, for the guard: far more than the deepest read of the top (PENDING_PAGES pages). */
const SEEN_MEMORY = 100_000;
/**
 * The guard re-reads this many of the newest messages each poll (or --page-size, if smaller): a message
 * the service lists below the newest cursor is caught while it is this near the top. 50 messages is
 * about 10 s of a busy campaign (5 a second) and some 125 kB a poll; one request, so a quiet poll costs
 * two requests instead of one.
 */
const GUARD_WINDOW = 50;
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
  /**
   * Messages older than this (createdAt, ms) were never meant to be printed: the first chunk stopped
   * above them. The guard takes only messages newer than it. -Infinity: everything is in scope.
   */
  private floorAt = Number.NEGATIVE_INFINITY;
  private readonly printed = new Set<string>();
  /** Every id read in a committed round, printed or not: the guard prints only what was never read. */
  private readonly seen = new Set<string>();
  /** In flight and not matching yet: id -> createdAt instant. */
  private readonly pending = new Map<string, number>();
  /** Messages in flight given up so far: too many to remember, or too far down to read again. */
  private givenUp = 0;
  private givenUpBeforeOutage = 0;
  /** The end of an outage, told once the round that ended it is committed. */
  private recovered: number | undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly plan: FollowPlan,
    private readonly timer: Timer,
    private readonly signal: AbortSignal,
    private readonly onEvent: (event: FollowEvent) => void = () => undefined,
  ) {}

  /** Each message handed out as `reading` says: as parsed, or with its text (for JSON output). */
  async *chunks<M>(reading: MessageReading<M>): AsyncGenerator<M[]> {
    yield this.commit(await this.retrying(() => this.recent(reading)), reading);
    for (;;) {
      await this.timer.sleep(this.plan.everyMs, this.signal);
      const fresh = this.commit(await this.retrying(() => this.poll(reading)), reading);
      if (fresh.length > 0) yield fresh;
    }
  }

  /** The newest messages, read top down until `recent` match or `since` is passed. Changes nothing. */
  private async recent<M>(reading: MessageReading<M>): Promise<Round<M>> {
    const { since, recent } = this.plan;
    const listed: M[] = [];
    let matching = 0;
    let newestCursor: string | undefined;
    // Without filters every message read is kept, so pages can be sized to what is still wanted.
    const exact = since === undefined && this.plan.statuses === undefined;
    const reader = this.reader(
      undefined,
      "forward",
      () => (since === undefined ? recent - matching : Number.POSITIVE_INFINITY),
      exact,
    );
    for await (const { messages, page } of reader.pages(reading)) {
      newestCursor ??= cursorOf(page.pageData, "startCursor");
      let passedSince = false;
      for (const item of messages) {
        const at = createdAt(item, reading);
        if (since !== undefined && at !== undefined && at < since) {
          passedSince = true;
          continue;
        }
        if (since === undefined && matching >= recent) break;
        listed.push(item);
        if (this.matches(reading.messageOf(item))) matching++;
      }
      if (passedSince || (since === undefined && matching >= recent)) break;
    }
    const lowest = listed.length > 0 ? createdAt(listed[listed.length - 1]!, reading) : undefined;
    const floorAt = since ?? lowest ?? Number.NEGATIVE_INFINITY;
    // Read newest first: reversed, they are in the order the service would list them oldest first.
    return { items: listed.reverse(), newestCursor, floorAt };
  }

  /**
   * One round, changing nothing: the guard's read of the top (and, with a status filter, on down to the
   * oldest message in flight), then the messages created since the last round.
   */
  private async poll<M>(reading: MessageReading<M>): Promise<Round<M>> {
    if (this.newestCursor === undefined) {
      // Nothing was there yet: everything now at the top is new.
      const listed: M[] = [];
      let newestCursor: string | undefined;
      for await (const { messages, page } of this.reader(undefined, "forward", () => Number.POSITIVE_INFINITY).pages(
        reading,
      )) {
        newestCursor ??= cursorOf(page.pageData, "startCursor");
        listed.push(...messages);
      }
      return { items: listed.reverse(), newestCursor };
    }
    const { found: below, reachedAt } = await this.readTop(reading);
    const above: M[] = [];
    let newestCursor = this.newestCursor;
    // Pages before the cursor come nearest first, oldest page first; each lists its messages newest first.
    for await (const { messages, page } of this.reader(
      this.newestCursor,
      "backward",
      () => Number.POSITIVE_INFINITY,
    ).pages(reading)) {
      newestCursor = cursorOf(page.pageData, "startCursor") ?? newestCursor;
      for (let i = messages.length - 1; i >= 0; i--) above.push(messages[i]!);
    }
    const aboveIds = new Set(above.map((item) => reading.messageOf(item).id));
    // The top was read first: a message there and above the cursor is in `above` too, in its place.
    const late = below.filter((item) => !aboveIds.has(reading.messageOf(item).id));
    return { items: [...late, ...above], newestCursor, reachedAt };
  }

  /**
   * The top of the listing, newest first: the guard's window, and with messages in flight on down to the
   * oldest of them. Gives back, oldest first, those in flight and those never read that are in scope.
   */
  private async readTop<M>(reading: MessageReading<M>): Promise<{ found: M[]; reachedAt?: number }> {
    let oldestPending = Number.POSITIVE_INFINITY;
    for (const at of this.pending.values()) oldestPending = Math.min(oldestPending, at);
    const recheck = this.plan.statuses !== undefined && this.pending.size > 0;
    const found: M[] = [];
    let pages = 0;
    let deepest = Number.POSITIVE_INFINITY;
    let reachedOldest = false;
    for await (const { messages } of this.reader(
      undefined,
      "forward",
      // Without messages to recheck one page is all: none is asked for ahead.
      () => (recheck ? Number.POSITIVE_INFINITY : 0),
      false,
      recheck ? RECHECK_PAGE_SIZE : GUARD_WINDOW,
    ).pages(reading)) {
      for (const item of messages) {
        const message = reading.messageOf(item);
        const at = createdAt(item, reading);
        if (this.pending.has(message.id) || (!this.seen.has(message.id) && at !== undefined && at > this.floorAt))
          found.push(item);
        if (at !== undefined && at < oldestPending) reachedOldest = true;
        if (at !== undefined) deepest = Math.min(deepest, at);
      }
      if (!recheck || reachedOldest || ++pages >= PENDING_PAGES) break;
    }
    // Messages in flight further down than a recheck reaches are given up, not read for ever.
    return { found: found.reverse(), reachedAt: recheck && !reachedOldest ? deepest : undefined };
  }

  /** Takes a round that read every page: its cursor, its messages printed; gives back those to print. */
  private commit<M>(round: Round<M>, reading: MessageReading<M>): M[] {
    if (round.newestCursor !== undefined) this.newestCursor = round.newestCursor;
    if (round.floorAt !== undefined) this.floorAt = round.floorAt;
    if (round.reachedAt !== undefined)
      for (const [id, at] of this.pending)
        if (at < round.reachedAt) {
          this.pending.delete(id);
          this.givenUp++;
        }
    const found: M[] = [];
    for (const item of round.items) {
      remember(this.seen, reading.messageOf(item).id, SEEN_MEMORY);
      this.consider(item, found, reading);
    }
    if (this.recovered !== undefined) {
      this.onEvent({ kind: "recovered", downMs: this.recovered, givenUp: this.givenUp - this.givenUpBeforeOutage });
      this.recovered = undefined;
    }
    return inTimeOrder(found, reading);
  }

  private matches(message: CheckedMessage): boolean {
    return this.plan.statuses === undefined || this.plan.statuses.has(read(MESSAGE, message, "latestStatus") ?? "");
  }

  /** Prints a message the first time it matches; remembers it while it may still come to match. */
  private consider<M>(item: M, into: M[], reading: MessageReading<M>): void {
    const message = reading.messageOf(item);
    if (this.printed.has(message.id)) return;
    const status = read(MESSAGE, message, "latestStatus");
    if (this.matches(message)) {
      this.pending.delete(message.id);
      remember(this.printed, message.id, PRINTED_MEMORY);
      into.push(item);
    } else if (!isFinalStatus(status)) {
      this.pending.set(message.id, createdAt(item, reading) ?? this.timer.now());
      if (this.pending.size > PENDING_MEMORY) {
        this.pending.delete(this.pending.keys().next().value!);
        this.givenUp++;
      }
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

  /** Runs one round until it succeeds: failures that may pass are waited out, with one event per outage. */
  private retrying<T>(round: () => Promise<T>): Promise<T> {
    return throughOutages(round, {
      everyMs: this.plan.everyMs,
      maxBackoffMs: MAX_BACKOFF_MS,
      timer: this.timer,
      signal: this.signal,
      onEvent: (event) => {
        if (event.kind === "recovered") this.recovered = event.downMs;
        else {
          this.givenUpBeforeOutage = this.givenUp;
          this.onEvent(event);
        }
      },
    });
  }
}

/** What a round read, in the service's order oldest first, and where the next round starts. */
interface Round<M> {
  items: M[];
  newestCursor: string | undefined;
  floorAt?: number;
  /** A recheck stopped here (createdAt) before it reached the oldest message in flight. */
  reachedAt?: number;
}

/**
 * A cursor that can be sent: an empty string (or null, or none) is no cursor. An empty page's cursors
 * are not described by the reference; a service may send "" for them.
 */
function cursorOf(pageData: unknown, field: "startCursor" | "endCursor"): string | undefined {
  const cursor = read(PAGE_DATA, pageData, field);
  return cursor === "" ? undefined : cursor;
}

function createdAt<M>(item: M, reading: MessageReading<M>): number | undefined {
  return instantOf(read(MESSAGE, reading.messageOf(item), "createdAt"));
}

/**
 * Oldest createdAt first; equal ones (and those without a readable createdAt, after all the dated
 * ones) keep the order given, which is the service's own oldest first. Array sort is stable.
 */
function inTimeOrder<M>(messages: M[], reading: MessageReading<M>): M[] {
  return messages
    .map((item) => ({ item, at: createdAt(item, reading) ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1))
    .map(({ item }) => item);
}

function remember(ids: Set<string>, id: string, limit: number): void {
  ids.add(id);
  if (ids.size > limit) ids.delete(ids.values().next().value!);
}
