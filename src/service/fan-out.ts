// Many campaigns at once. The API lists one campaign at a time, page after page; across campaigns
// nothing is sequential, so several are read at once, under one bound on the requests in flight.
// Two forms: a merge, newest createdAt first across campaigns (listings), and a plain run of one task
// per campaign (stats, where order does not matter). Either way a campaign that cannot be read does
// not stop the others: its outcome says why, and the caller decides what that means for the run.
import { ServiceError } from "../core/errors.js";
import { nextTurn } from "../core/timer.js";
import type { PageClient } from "./endpoints.js";

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;

/** How one campaign's listing ended. */
export interface CampaignOutcome {
  campaignId: string;
  /**
   * complete: read to the end of its selection. failed: it could not be read (or not to its end), for `error`'s reason.
   * cut: the consumer stopped before its end (the merged --limit was reached, or the output closed).
   */
  state: "complete" | "failed" | "cut";
  /** Why, when failed: the error as the listing threw it (a PagingError says where a later run could resume). */
  error?: ServiceError;
}

/** A campaign's outcome in a merge, with what it gave. */
export interface MergedOutcome extends CampaignOutcome {
  /** Messages of this campaign in the merged output. */
  delivered: number;
  /** Messages of this campaign newer than the one it listed before (its own pages were not newest first). */
  outOfOrder: number;
}

/** One campaign's selected messages, as the merge reads them. */
export interface CampaignListing<M> {
  /** Newest first (as the API lists them), a chunk (a page's worth) at a time. */
  chunks: AsyncIterable<M[]>;
  /** Asked once the chunks have ended: true when the campaign's own selection stopped before its end (its limit). */
  stoppedShort?: () => boolean;
}

/** Opens one campaign's listing; its requests must go through `client`, the gated one. */
export type OpenCampaign<M> = (campaignId: string, client: PageClient) => CampaignListing<M>;

/** A message of the merged stream, with the campaign it was listed under. */
export interface Tagged<M> {
  campaignId: string;
  item: M;
}

export interface MergeOptions<M> {
  /** Requests in flight at once, across all campaigns (each campaign has at most one: its read-ahead). */
  concurrency: number;
  /** The merged output stops after this many messages; Infinity for all. */
  limit: number;
  /** A message's createdAt as epoch ms; undefined when it has none that can be read. */
  createdAtOf: (item: M) => number | undefined;
  /** Once per campaign, the first time one of its messages is newer than the one it listed before. */
  onOutOfOrder?: (campaignId: string) => void;
  /** As soon as a campaign fails (the others go on). */
  onFailure?: (outcome: MergedOutcome) => void;
}

/**
 * At most `limit` tasks run at once; the others wait their turn, first come first served. A turn is
 * handed straight to the next waiter, so the count never dips while some wait.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a whole number >= 1`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The client with every request taking a turn of the gate: held from request to the body's last byte. */
export function gatedClient(client: PageClient, gate: ConcurrencyGate): PageClient {
  return { get: (segments, query) => gate.run(() => client.get(segments, query)) };
}

// A merged chunk is handed out at the latest at this size, so a renderer writes as the merge goes.
const MERGED_CHUNK = 1000;

/**
 * A turn of the event loop is taken every this many merged messages. Merging pages already read and
 * writing them out is all promises and synchronous writes (stdout to a pipe or a file is written
 * synchronously on Linux), so without turns the merge never lets the sockets be read while it works:
 * answers that arrived wait, their gate turns stay taken, and the next requests wait behind them. A
 * page's body comes in many socket reads, each needing a turn, so a turn per chunk left the merge idle
 * at every page boundary (bench/HISTORY.md, "The merge lets input in every 50 messages").
 */
export const INPUT_TURN_EVERY = 50;

/** One campaign in the merge: the chunk it is on, and the createdAt of its current message. */
class Lane<M> {
  private readonly iterator: AsyncIterator<M[]>;
  private buffer: M[] = [];
  private index = 0;
  /** The current message's place in the merge; that of the one before, while none is current. */
  key = Number.POSITIVE_INFINITY;
  ended = false;
  readonly outcome: MergedOutcome;

  constructor(
    readonly order: number,
    campaignId: string,
    private readonly listing: CampaignListing<M>,
    private readonly options: MergeOptions<M>,
  ) {
    this.iterator = listing.chunks[Symbol.asyncIterator]();
    this.outcome = { campaignId, state: "cut", delivered: 0, outOfOrder: 0 };
  }

  get current(): M {
    return this.buffer[this.index]!;
  }

  /** Moves to the next message of the chunk; false when the chunk is used up. */
  advance(): boolean {
    this.outcome.delivered++;
    this.index++;
    if (this.index < this.buffer.length) {
      this.place();
      return true;
    }
    this.buffer = [];
    return false;
  }

  /** Reads the next non-empty chunk; false when the campaign ended, or failed (its outcome says which). */
  async fill(): Promise<boolean> {
    for (;;) {
      let step: IteratorResult<M[]>;
      try {
        step = await this.iterator.next();
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        this.end("failed", error);
        this.options.onFailure?.(this.outcome);
        return false;
      }
      if (step.done) {
        this.end(this.listing.stoppedShort?.() ? "cut" : "complete");
        return false;
      }
      if (step.value.length === 0) continue;
      this.buffer = step.value;
      this.index = 0;
      this.place();
      return true;
    }
  }

  /** Stops reading the campaign (the consumer stopped): whatever it still had is cut. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer = [];
    // Not awaited: a read-ahead in flight finishes or fails on its own, and its result is dropped.
    this.iterator.return?.().catch(() => undefined);
  }

  /**
   * An undated message keeps the place of the one before it, so it stays beside its neighbours; a message newer
   * than the one before means the campaign is out of order: it is still handed out, in the campaign's own order.
   */
  private place(): void {
    const at = this.options.createdAtOf(this.current);
    if (at === undefined) return;
    if (at > this.key) {
      if (this.outcome.outOfOrder === 0) this.options.onOutOfOrder?.(this.outcome.campaignId);
      this.outcome.outOfOrder++;
    }
    this.key = at;
  }

  private end(state: "complete" | "failed" | "cut", error?: ServiceError): void {
    this.ended = true;
    this.outcome.state = state;
    if (error) this.outcome.error = error;
  }
}

/** Newest first; at the same createdAt, the campaign named first. */
const before = <M>(a: Lane<M>, b: Lane<M>) => a.key > b.key || (a.key === b.key && a.order < b.order);

/** A binary heap of lanes by `before`: the merge picks among k campaigns in log k, however many are named. */
class LaneHeap<M> {
  private readonly items: Lane<M>[] = [];

  get size(): number {
    return this.items.length;
  }

  top(): Lane<M> | undefined {
    return this.items[0];
  }

  push(lane: Lane<M>): void {
    this.items.push(lane);
    let i = this.items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.items[i]!, this.items[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): void {
    const last = this.items.pop();
    if (last === undefined || this.items.length === 0) return;
    this.items[0] = last;
    this.settleTop();
  }

  /** After the top lane's key changed. */
  settleTop(): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < this.items.length && before(this.items[left]!, this.items[first]!)) first = left;
      if (right < this.items.length && before(this.items[right]!, this.items[first]!)) first = right;
      if (first === i) return;
      this.swap(i, first);
      i = first;
    }
  }

  private swap(i: number, j: number): void {
    [this.items[i], this.items[j]] = [this.items[j]!, this.items[i]!];
  }
}

/**
 * The listings of several campaigns as one stream, newest createdAt first across them (a k-way merge
 * of streams each newest first). Every campaign is open at once, each holding the chunk the merge is on
 * and at most one read ahead; the gate bounds how many of them are fetching at any moment.
 */
export class MergedListing<M> {
  /** One per campaign, in the order named; final once chunks() has ended (or been stopped). */
  readonly outcomes: MergedOutcome[];
  private readonly lanes: Lane<M>[];

  constructor(
    client: PageClient,
    campaignIds: readonly string[],
    open: OpenCampaign<M>,
    private readonly options: MergeOptions<M>,
  ) {
    const gated = gatedClient(client, new ConcurrencyGate(options.concurrency));
    this.lanes = campaignIds.map((id, order) => new Lane(order, id, open(id, gated), options));
    this.outcomes = this.lanes.map((lane) => lane.outcome);
  }

  /** True when some campaign had more than the merged output took (the --limit was reached). */
  get cutShort(): boolean {
    return this.outcomes.some((outcome) => outcome.state === "cut");
  }

  async *chunks(): AsyncGenerator<Array<Tagged<M>>> {
    try {
      const heap = new LaneHeap<M>();
      const ready = await Promise.all(this.lanes.map((lane) => lane.fill()));
      this.lanes.forEach((lane, i) => ready[i] && heap.push(lane));
      let out: Array<Tagged<M>> = [];
      let emitted = 0;
      for (let lane = heap.top(); lane && emitted < this.options.limit; lane = heap.top()) {
        out.push({ campaignId: lane.outcome.campaignId, item: lane.current });
        emitted++;
        if (lane.advance()) {
          heap.settleTop();
        } else {
          heap.pop();
          // What is merged so far goes out before waiting on this campaign's next page.
          if (out.length > 0) yield out;
          out = [];
          if (await lane.fill()) heap.push(lane);
        }
        if (emitted % INPUT_TURN_EVERY === 0) await nextTurn();
        if (out.length >= MERGED_CHUNK) {
          yield out;
          out = [];
        }
      }
      if (out.length > 0) yield out;
    } finally {
      for (const lane of this.lanes) lane.close();
    }
  }
}

/** A campaign's outcome in a plain run: what its task returned, or why it failed. */
export interface CampaignResult<T> extends CampaignOutcome {
  state: "complete" | "failed";
  value?: T;
}

export interface EachCampaignOptions {
  /** Campaigns run at once (each task may keep one request ahead, as a listing does). */
  concurrency: number;
  /** As soon as a campaign fails (the others go on). */
  onFailure?: (result: CampaignResult<never>) => void;
}

/**
 * Runs `task` for every campaign, at most `concurrency` at once, in the order named. A task that throws
 * a ServiceError fails its campaign only; any other error (an interrupt, a defect) stops the run: no
 * campaign is started after it, and it is thrown once those running have ended.
 */
export async function forEachCampaign<T>(
  campaignIds: readonly string[],
  task: (campaignId: string) => Promise<T>,
  options: EachCampaignOptions,
): Promise<Array<CampaignResult<T>>> {
  const gate = new ConcurrencyGate(options.concurrency);
  let fatal: { error: unknown } | undefined;
  const results = await Promise.all(
    campaignIds.map((campaignId) =>
      gate.run(async (): Promise<CampaignResult<T>> => {
        if (fatal) return { campaignId, state: "failed", error: new ServiceError("not started") };
        try {
          return { campaignId, state: "complete", value: await task(campaignId) };
        } catch (error) {
          if (!(error instanceof ServiceError)) {
            fatal ??= { error };
            return { campaignId, state: "failed", error: new ServiceError("stopped") };
          }
          const result: CampaignResult<never> = { campaignId, state: "failed", error };
          options.onFailure?.(result);
          return result;
        }
      }),
    ),
  );
  if (fatal) throw fatal.error;
  return results;
}
