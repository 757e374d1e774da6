// Waiting for a message and following a listing, against the live sandbox on a virtual clock: a sleep
// advances the clock at once, so nothing here waits for real time and nothing depends on speed.
import { afterEach, describe, expect, it } from "vitest";
import type { SourcedMessage } from "../../src/core/json-source.js";
import type { CheckedMessage, Message } from "../../src/core/message.js";
import { ServiceError } from "../../src/core/errors.js";
import type { ApiClient } from "../../src/http/client.js";
import { testClient } from "../support/client.js";
import { PARSED_MESSAGES, SOURCED_MESSAGES } from "../../src/service/endpoints.js";
import { ListingFollower, type FollowEvent, type FollowPlan } from "../../src/service/follow-listing.js";
import { waitForFinal, type WaitEvent } from "../../src/service/wait-for-message.js";
import { startSandbox, type FaultRule, type Sandbox } from "../../src/sandbox/index.js";
import { VirtualClock } from "../support/virtual-clock.js";

const START = Date.parse("2026-11-22T09:00:00.000Z");

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function liveSandbox(
  timer: VirtualClock,
  faults: FaultRule[] = [],
): Promise<{ sandbox: Sandbox; client: ApiClient }> {
  sandbox = await startSandbox({ live: { ratePerSecond: 5 }, clock: timer.now, now: START, faults });
  const client = testClient(sandbox.url);
  return { sandbox, client };
}

/** Every message of the live listing as the sandbox has it at `at`, oldest first. */
async function truth(at: number, timer: VirtualClock): Promise<Message[]> {
  const saved = timer.at;
  timer.at = at;
  const all: Message[] = [];
  let after: string | undefined;
  for (;;) {
    const response = await fetch(
      `${sandbox!.url}/campaigns/cmp-live/messages?limit=1000${after ? `&after=${after}` : ""}`,
    );
    const page = (await response.json()) as { data: Message[]; pageData: { hasNextPage: boolean; endCursor?: string } };
    all.push(...page.data);
    if (!page.pageData.hasNextPage) break;
    after = page.pageData.endCursor;
  }
  timer.at = saved;
  return all.reverse();
}

/** The fate of a message: its status long after it was created. */
async function fateOf(id: string, timer: VirtualClock): Promise<string> {
  const saved = timer.at;
  timer.at += 120_000;
  const message = (await (await fetch(`${sandbox!.url}/campaigns/cmp-live/messages/${id}`)).json()) as Message;
  timer.at = saved;
  return message.latestStatus;
}

async function newestAt(timer: VirtualClock): Promise<Message[]> {
  const response = await fetch(`${sandbox!.url}/campaigns/cmp-live/messages?limit=50`);
  void timer;
  return ((await response.json()) as { data: Message[] }).data;
}

describe("waitForFinal", () => {
  it.each(["success", "failure"])("follows a new message until it ends in %s", async (fate) => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const candidates = (await newestAt(timer)).filter((m) => m.latestStatus === "created");
    let target: Message | undefined;
    for (const message of candidates) if ((await fateOf(message.id, timer)) === fate) target = message;
    expect(target, `a new message that ends in ${fate}`).toBeDefined();
    const events: WaitEvent[] = [];
    const outcome = await waitForFinal(
      client,
      { campaignId: "cmp-live", messageId: target!.id, everyMs: 1000, timeoutMs: 600_000 },
      timer,
      new AbortController().signal,
      (event) => events.push(event),
    );
    expect(outcome.final).toBe(true);
    expect(outcome.message!.message.latestStatus).toBe(fate);
    // The message comes with the text it was parsed from.
    expect(JSON.parse(outcome.message!.source.text())).toEqual(outcome.message!.message);
    expect(events[0]).toMatchObject({ kind: "polled" });
    expect((events[0] as { message: SourcedMessage }).message.message.latestStatus).toBe("created");
    await client.close();
  });

  it("gives back the last state, not final, when the time runs out", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const fresh = (await newestAt(timer))[0]!;
    const outcome = await waitForFinal(
      client,
      { campaignId: "cmp-live", messageId: fresh.id, everyMs: 1000, timeoutMs: 1000 },
      timer,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ final: false, waitedMs: 1000 });
    expect(outcome.message!.message.latestStatus).toBe("created");
    await client.close();
  });

  it("keeps waiting through a burst of 503s, then gets the final state", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer, [
      { path: "/messages/msg-live", times: 5, kind: "status", status: 503 },
    ]);
    const fresh = (await newestAt(timer))[0]!;
    const events: WaitEvent[] = [];
    const outcome = await waitForFinal(
      client,
      { campaignId: "cmp-live", messageId: fresh.id, everyMs: 1000, timeoutMs: 600_000 },
      timer,
      new AbortController().signal,
      (event) => events.push(event),
    );
    expect(outcome.final).toBe(true);
    expect(events.filter((event) => event.kind === "failing")).toHaveLength(5);
    await client.close();
  });

  it("ends at once on a 404", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    await expect(
      waitForFinal(
        client,
        { campaignId: "cmp-live", messageId: "msg-live-9999999", everyMs: 1000, timeoutMs: 600_000 },
        timer,
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ exitCode: 3 });
    await client.close();
  });
});

async function followFor(follower: ListingFollower, rounds: number): Promise<CheckedMessage[][]> {
  const chunks: CheckedMessage[][] = [];
  const iterator = follower.chunks(PARSED_MESSAGES);
  // The first chunk, then every chunk up to `rounds` polls (an empty poll yields nothing, so count time).
  for (let i = 0; i < rounds; i++) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
  }
  await iterator.return(undefined);
  return chunks;
}

const plan = (extra: Partial<FollowPlan> = {}): FollowPlan => ({
  listing: { campaignId: "cmp-live" },
  recent: 10,
  everyMs: 2000,
  pageSize: 1000,
  ...extra,
});

describe("ListingFollower", () => {
  it("prints the ten newest, then every new message exactly once, oldest first", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const chunks = await followFor(new ListingFollower(client, plan(), timer, new AbortController().signal), 15);
    const printed = chunks.flat().map((m) => m.id);
    const all = (await truth(timer.at, timer)).map((m) => m.id);
    const firstIndex = all.indexOf(printed[0]!);
    expect(chunks[0]).toHaveLength(10);
    expect(printed).toEqual(all.slice(firstIndex, firstIndex + printed.length));
    expect(new Set(printed).size).toBe(printed.length);
    expect(printed.length).toBeGreaterThan(10 + 50);
    await client.close();
  });

  it("with SOURCED_MESSAGES, hands out each message with the text it was parsed from", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const iterator = new ListingFollower(client, plan(), timer, new AbortController().signal).chunks(SOURCED_MESSAGES);
    const first = (await iterator.next()).value as SourcedMessage[];
    await iterator.return(undefined);
    expect(first).toHaveLength(10);
    for (const { message, source } of first) {
      expect(JSON.parse(source.text())).toEqual(message);
      expect(source.oneLine).toBe(true);
    }
    await client.close();
  });

  it("reads a burst of several pages between two polls whole", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    // 30 s between polls at 5 a second is about 150 messages: eight pages of 20.
    const chunks = await followFor(
      new ListingFollower(client, plan({ everyMs: 30_000, pageSize: 20 }), timer, new AbortController().signal),
      4,
    );
    const printed = chunks.flat().map((m) => m.id);
    const all = (await truth(timer.at, timer)).map((m) => m.id);
    const firstIndex = all.indexOf(printed[0]!);
    expect(chunks[1]!.length).toBeGreaterThan(100);
    expect(printed).toEqual(all.slice(firstIndex, firstIndex + printed.length));
    await client.close();
  });

  it("rides out an outage of several polls: one event when it starts, one when it ends, nothing lost", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer, [{ path: "before=", times: 4, kind: "status", status: 503 }]);
    const events: FollowEvent[] = [];
    const chunks = await followFor(
      new ListingFollower(client, plan(), timer, new AbortController().signal, (event) => events.push(event)),
      6,
    );
    expect(events.map((event) => event.kind)).toEqual(["failing", "recovered"]);
    expect((events[0] as { error: ServiceError }).error.message).toContain("HTTP 503");
    const printed = chunks.flat().map((m) => m.id);
    const all = (await truth(timer.at, timer)).map((m) => m.id);
    const firstIndex = all.indexOf(printed[0]!);
    expect(printed).toEqual(all.slice(firstIndex, firstIndex + printed.length));
    await client.close();
  });

  it("with --status failure prints each failure once, when it settles", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const startedAt = timer.at;
    const chunks = await followFor(
      new ListingFollower(client, plan({ statuses: new Set(["failure"]) }), timer, new AbortController().signal),
      40,
    );
    const printed = chunks.flat();
    expect(printed.every((m) => m.latestStatus === "failure")).toBe(true);
    expect(new Set(printed.map((m) => m.id)).size).toBe(printed.length);
    // Every message created after the follow began and failed 30 s before the last poll was printed.
    const lastPoll = timer.at;
    const settled = await truth(lastPoll, timer);
    const expected = settled
      .filter(
        (m) =>
          Date.parse(m.createdAt) > startedAt &&
          Date.parse(m.createdAt) < lastPoll - 30_000 &&
          m.latestStatus === "failure",
      )
      .map((m) => m.id);
    expect(expected.length).toBeGreaterThan(2);
    const printedIds = new Set(printed.map((m) => m.id));
    expect(expected.filter((id) => !printedIds.has(id))).toEqual([]);
    await client.close();
  });

  it("stops when aborted, with the signal's reason", async () => {
    const timer = new VirtualClock(START);
    const { client } = await liveSandbox(timer);
    const controller = new AbortController();
    const iterator = new ListingFollower(client, plan(), timer, controller.signal).chunks(PARSED_MESSAGES);
    await iterator.next();
    controller.abort(new Error("stop"));
    await expect(iterator.next()).rejects.toThrow("stop");
    await client.close();
  });
});
