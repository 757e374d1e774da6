// messages --follow against a listing the test scripts (test/support/listing-server.ts): bursts
// between polls, a 503 on one page of a poll, messages sharing a createdAt across pages and polls, empty
// pages whose cursors are "" or null, a message the service lists below the newest one. msgstat runs
// in-process on a virtual clock; each of its sleeps is a step of the script, so nothing waits for time.
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/core/errors.js";
import type { Timer } from "../../../src/core/timer.js";
import { runCli, type CliResult } from "../../support/run-cli.js";
import { scripted, startLiveListing, type LiveListing } from "../../support/listing-server.js";
import { VirtualClock } from "../../support/virtual-clock.js";

const T0 = Date.parse("2026-11-22T09:00:00.000Z");

/** Messages id1..idN (prefix `m`), one second apart from T0 unless `at` gives each its time. */
function messages(from: number, to: number, at: (n: number) => number = (n) => T0 + n * 1000) {
  const list = [];
  for (let n = from; n <= to; n++) list.push(scripted(`m${n}`, at(n)));
  return list;
}

/**
 * Runs `messages cmp --follow ...` with the script: step i runs at msgstat's i-th sleep (the pause
 * before a poll, or a backoff); one quiet poll follows the last step (so what it printed is flushed: a
 * Ctrl-C drops what is buffered), and the sleep after that is a Ctrl-C.
 */
async function follow(listing: LiveListing, args: string[], steps: Array<() => void>): Promise<CliResult> {
  const clock = new VirtualClock(T0 + 3_600_000);
  const controller = new AbortController();
  let sleeps = 0;
  const sleep: Timer["sleep"] = async (ms, signal) => {
    const step = sleeps++;
    if (step < steps.length) steps[step]!();
    else if (step > steps.length) controller.abort(new InterruptedError("SIGINT"));
    await clock.sleep(ms, signal);
  };
  return runCli(["--base-url", listing.url, "messages", "cmp", "--follow", "--jsonl", "--retries", "0", ...args], {
    clock: clock.now,
    sleep,
    signal: controller.signal,
    env: { TZ: "UTC" },
  });
}

const idsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

const range = (from: number, to: number) => messages(from, to).map((m) => m.id);

describe("messages --follow, against a scripted listing", () => {
  it("a poll whose second page fails is read again from where it began: nothing lost (issue 25, 1)", async () => {
    const listing = await startLiveListing();
    listing.send(...messages(1, 3));
    const result = await follow(
      listing,
      ["--every", "1s", "--page-size", "2"],
      [
        () => {
          // Five between two polls: three pages before m3; the second of them fails once.
          listing.send(...messages(4, 8));
          listing.faults.push({ when: (url) => url.searchParams.get("before") === "m5", times: 1, kind: "503" });
        },
        () => undefined, // the backoff after the 503
        () => listing.send(...messages(9, 9)),
      ],
    );
    expect(idsOf(result.stdout)).toEqual(range(1, 9));
    expect(result.stderr.split("\n")).toEqual([
      expect.stringMatching(/^warning: .*HTTP 503.*; still following, trying again in 2 s$/),
      "the service answers again after 2 s; following on, nothing missed",
      "msgstat: interrupted",
      "",
    ]);
    expect(result.code).toBe(130);
  });

  it("a failure on every page in turn still loses nothing and prints nothing twice", async () => {
    const listing = await startLiveListing();
    listing.send(...messages(1, 2));
    const steps: Array<() => void> = [() => listing.send(...messages(3, 12))];
    // Each retry of the poll fails one page further on, until a retry reads them all.
    for (const cursor of ["m2", "m4", "m6", "m8", "m10"])
      listing.faults.push({ when: (url) => url.searchParams.get("before") === cursor, times: 1, kind: "503" });
    for (let i = 0; i < 5; i++) steps.push(() => undefined);
    const result = await follow(listing, ["--every", "1s", "--page-size", "2"], steps);
    expect(idsOf(result.stdout)).toEqual(range(1, 12));
    expect(result.code).toBe(130);
  });

  it("says 'nothing missed' only when true: a message in flight given up during an outage is said", async () => {
    const listing = await startLiveListing();
    listing.send(scripted("m1", T0 + 1000, 0, "created"), scripted("m2", T0 + 2000));
    const result = await follow(
      listing,
      ["--every", "1s", "--page-size", "2", "--status", "failure"],
      [
        () => {
          // More arrive during the outage than a recheck reads back (40 pages of --page-size 2).
          listing.send(
            ...messages(3, 102, (n) => T0 + n * 1000).map((m) =>
              m.id === "m50" ? { ...m, latestStatus: "failure" } : m,
            ),
          );
          listing.faults.push({ when: (url) => url.searchParams.get("before") === "m2", times: 1, kind: "503" });
        },
        () => undefined,
      ],
    );
    expect(idsOf(result.stdout)).toEqual(["m50"]);
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "warning: the service answers again after 2 s; following on, but 1 message in flight could not be looked " +
        "at again: more arrived meanwhile than --follow reads back",
      "msgstat: interrupted",
      "",
    ]);
  });

  it("messages sharing one createdAt across pages and polls come out in the service's order (issue 25, 2)", async () => {
    const listing = await startLiveListing();
    const tie = T0 + 10_000;
    // m2..m4 tie inside the first chunk, which is read in two pages.
    listing.send(...messages(1, 4, (n) => (n === 1 ? T0 : tie - 5000)));
    const result = await follow(
      listing,
      ["--every", "1s", "--page-size", "2", "-n", "4"],
      [
        () => listing.send(...messages(5, 9, () => tie)),
        () => listing.send(...messages(10, 11, () => tie)),
        () => listing.send(...messages(12, 12, () => tie + 1)),
      ],
    );
    expect(idsOf(result.stdout)).toEqual(range(1, 12));
  });

  it.each([[""], [null], ["absent"]] as const)(
    "an empty page's cursors sent as %j are no cursor: following goes on from the last good one (issue 25, 8)",
    async (emptyCursors) => {
      const listing = await startLiveListing();
      listing.emptyCursors = emptyCursors;
      listing.send(...messages(1, 2));
      const result = await follow(
        listing,
        ["--every", "1s"],
        [() => undefined, () => undefined, () => listing.send(...messages(3, 4)), () => undefined],
      );
      expect(idsOf(result.stdout)).toEqual(range(1, 4));
      expect(result.stderr).toBe("msgstat: interrupted\n");
      expect(listing.requests.filter((target) => /[?&](before|after)=(&|$)/.test(target))).toEqual([]);
    },
  );

  it('a listing empty at the start, whose empty page has cursors "", is read from the top once messages come', async () => {
    const listing = await startLiveListing();
    const result = await follow(
      listing,
      ["--every", "1s"],
      [() => undefined, () => listing.send(...messages(1, 3)), () => listing.send(...messages(4, 4))],
    );
    expect(idsOf(result.stdout)).toEqual(range(1, 4));
    expect(result.stderr).toBe("msgstat: interrupted\n");
  });

  it("-n 6 --page-size 3 with the second request failing once prints the newest six (issue 25, 9)", async () => {
    const listing = await startLiveListing();
    listing.send(...messages(1, 20));
    listing.faults.push({ when: (url) => url.searchParams.get("after") === "m18", times: 1, kind: "503" });
    const result = await follow(listing, ["--every", "1s", "-n", "6", "--page-size", "3"], [() => undefined]);
    expect(idsOf(result.stdout)).toEqual(range(15, 20));
  });

  it("the guard: a message the service lists below the newest one is printed at the next poll", async () => {
    const listing = await startLiveListing();
    listing.send(...messages(1, 5));
    const result = await follow(
      listing,
      ["--every", "1s", "-n", "3"],
      [
        () => {
          // Stamped by a server whose clock lags: older than m5, so listed below it.
          listing.insertBelow(1, scripted("late", T0 + 4500));
          listing.send(...messages(6, 6));
        },
        () => undefined,
      ],
    );
    // m1 and m2 are older than the first chunk: never printed, though the guard reads them every poll.
    expect(idsOf(result.stdout)).toEqual(["m3", "m4", "m5", "late", "m6"]);
  });

  it("--follow's limit: a message inserted below the guard's window (50 newest) is not seen", async () => {
    const listing = await startLiveListing();
    listing.send(...messages(1, 60));
    const result = await follow(
      listing,
      ["--every", "1s", "-n", "60"],
      [() => listing.insertBelow(55, scripted("too-deep", T0 + 5500)), () => undefined],
    );
    expect(idsOf(result.stdout)).toEqual(range(1, 60));
  });
});
