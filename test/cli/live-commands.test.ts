// The live modes as a user runs them, in-process against the live sandbox on a virtual clock shared by
// the sandbox and msgstat: a sleep moves the clock at once, so nothing waits for real time.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/render/width.js";
import { scratchFolder } from "../support/scratch.js";
import { VirtualClock } from "../support/virtual-clock.js";
import type { Message } from "../../src/core/message.js";
import { startSandbox, type FaultRule, type Sandbox } from "../../src/sandbox/index.js";
import { runBin, runCli, type CliOptions } from "../support/run-cli.js";
import { waitFor } from "../support/wait-for.js";

const START = Date.parse("2026-11-22T09:00:00.000Z");

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function live(
  faults: FaultRule[] = [],
): Promise<{ clock: VirtualClock; run: (args: string[], options?: CliOptions) => ReturnType<typeof runCli> }> {
  const clock = new VirtualClock(START);
  sandbox = await startSandbox({ live: { ratePerSecond: 5 }, clock: clock.now, now: START, faults });
  const url = sandbox.url;
  return {
    clock,
    run: (args, options = {}) =>
      runCli(["--base-url", url, ...args], { clock: clock.now, sleep: clock.sleep, env: { TZ: "UTC" }, ...options }),
  };
}

async function serverMessage(id: string, clock: VirtualClock, at = clock.at): Promise<Message> {
  const saved = clock.at;
  clock.at = at;
  const message = (await (await fetch(`${sandbox!.url}/campaigns/cmp-live/messages/${id}`)).json()) as Message;
  clock.at = saved;
  return message;
}

/** A message still in flight now whose fate (two minutes on) is `fate`. */
async function inFlightEndingIn(fate: string, clock: VirtualClock): Promise<Message> {
  const page = (await (await fetch(`${sandbox!.url}/campaigns/cmp-live/messages?limit=100`)).json()) as {
    data: Message[];
  };
  for (const message of page.data) {
    if (
      message.latestStatus === "created" &&
      (await serverMessage(message.id, clock, clock.at + 120_000)).latestStatus === fate
    )
      return message;
  }
  throw new Error(`no message in flight ends in ${fate}`);
}

describe("message --wait", () => {
  it("waits for a message that succeeds: exit 0, printed exactly as the service has it then", async () => {
    const { clock, run } = await live();
    const target = await inFlightEndingIn("success", clock);
    const { code, stdout, stderr } = await run(["message", "cmp-live", target.id, "--wait", "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Message;
    expect(printed.latestStatus).toBe("success");
    expect(printed).toEqual(await serverMessage(target.id, clock));
  });

  it("waits for a message that fails: exit 6, the message printed, why on stderr", async () => {
    const { clock, run } = await live();
    const target = await inFlightEndingIn("failure", clock);
    const { code, stdout, stderr } = await run(["message", "cmp-live", target.id, "--wait"]);
    expect(code).toBe(6);
    expect(stdout).toContain(`Message ${target.id}`);
    expect(stdout).toContain("failure");
    const final = await serverMessage(target.id, clock);
    const last = final.attempts![0]!;
    expect(stderr).toBe(`msgstat: ${target.id} ended in failure (${last.error!.type} / ${last.error!.code})\n`);
  });

  it("gives up after --wait-timeout: exit 7, the last state printed", async () => {
    const { clock, run } = await live();
    const target = await inFlightEndingIn("success", clock);
    const { code, stdout, stderr } = await run([
      "message",
      "cmp-live",
      target.id,
      "--wait",
      "--every",
      "1s",
      "--wait-timeout",
      "1s",
      "--json",
    ]);
    expect(code).toBe(7);
    expect(JSON.parse(stdout)).toMatchObject({ id: target.id, latestStatus: "created" });
    expect(stderr).toBe(`msgstat: ${target.id} is still created after 1 s (--wait-timeout)\n`);
  });

  it("keeps waiting through a burst of 503s, with one warning", async () => {
    // The same seed and clock give the same messages: find the target first, then fail its polls.
    const first = await live();
    const target = await inFlightEndingIn("success", first.clock);
    await sandbox!.close();
    const { run } = await live([{ path: `/messages/${target.id}`, times: 12, kind: "status", status: 503 }]);
    const { code, stdout, stderr } = await run([
      "message",
      "cmp-live",
      target.id,
      "--wait",
      "--json",
      "--retries",
      "1",
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ latestStatus: "success" });
    const lines = stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warning: .*HTTP 503.*; still waiting, trying again in (\d+ min )?\d+ s$/);
    expect(lines[1]).toBe("the service answers again; still waiting");
  });

  it("ends at once on a message that does not exist: exit 3", async () => {
    const { run } = await live();
    const { code, stdout } = await run(["message", "cmp-live", "msg-live-9999999", "--wait"]);
    expect(code).toBe(3);
    expect(stdout).toBe("");
  });

  it.each([
    [["--every", "2s"], "--every goes with --wait: add --wait to poll until the message is final"],
    [["--wait", "--every", "500ms"], '--every must be a duration from 1s to 60m (e.g. 2s, 90s, 10m), not "500ms"'],
    [
      ["--wait", "--wait-timeout", "soon"],
      '--wait-timeout must be a duration from 1s to 10080m (e.g. 2s, 90s, 10m), not "soon"',
    ],
  ])("%j is a usage error", async (flags, message) => {
    const { run } = await live();
    const { code, stderr } = await run(["message", "cmp-live", "msg-live-0000001", ...flags]);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(`msgstat: ${message}`);
  });
});

describe("messages --follow", () => {
  async function truthBetween(clock: VirtualClock, firstId: string): Promise<string[]> {
    const all: Message[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await (
        await fetch(`${sandbox!.url}/campaigns/cmp-live/messages?limit=1000${after ? `&after=${after}` : ""}`)
      ).json()) as { data: Message[]; pageData: { hasNextPage: boolean; endCursor: string } };
      all.push(...page.data);
      if (!page.pageData.hasNextPage || page.data.some((m) => m.id === firstId)) break;
      after = page.pageData.endCursor;
    }
    const ids = all.map((m) => m.id).reverse();
    return ids.slice(ids.indexOf(firstId));
  }

  it("prints the ten newest, then every new message once, oldest first, until Ctrl-C (exit 130)", async () => {
    const { clock, run } = await live();
    const stop = clock.interruptAfter(20);
    const { code, stdout, stderr } = await run(["messages", "cmp-live", "--follow", "--jsonl"], { ...stop });
    expect(code).toBe(130);
    expect(stderr).toBe("msgstat: interrupted\n");
    const printed = stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as Message).id);
    expect(printed.length).toBeGreaterThan(10 + 150);
    expect(printed).toEqual((await truthBetween(clock, printed[0]!)).slice(0, printed.length));
  });

  it("reads a burst of several pages between two polls, and rides out an outage", async () => {
    const { clock, run } = await live([{ path: "before=", times: 6, kind: "status", status: 503 }]);
    const stop = clock.interruptAfter(12);
    const { code, stdout, stderr } = await run(
      ["messages", "cmp-live", "--follow", "--jsonl", "--every", "30s", "--page-size", "25", "--retries", "0"],
      { ...stop },
    );
    expect(code).toBe(130);
    const lines = stderr.split("\n").filter(Boolean);
    expect(lines[0]).toMatch(/^warning: .*HTTP 503.*; still following, trying again in (\d+ min )?\d+ s$/);
    expect(lines[1]).toMatch(/^the service answers again after (\d+ min )?\d+ s; following on, nothing missed$/);
    const printed = stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as Message).id);
    expect(printed).toEqual((await truthBetween(clock, printed[0]!)).slice(0, printed.length));
  });

  it("with -o, the file holds every complete record received before Ctrl-C", async () => {
    const { clock, run } = await live();
    const dir = scratchFolder("msgstat-follow-");
    const file = path.join(dir, "live.jsonl");
    const stop = clock.interruptAfter(8);
    const { code, stdout } = await run(["messages", "cmp-live", "--follow", "-o", file], { ...stop });
    expect(code).toBe(130);
    expect(stdout).toBe("");
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const ids = text
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as Message).id);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual((await truthBetween(clock, ids[0]!)).slice(0, ids.length));
  });

  it("--status failure prints failures only, each once", async () => {
    const { clock, run } = await live();
    const stop = clock.interruptAfter(40);
    const { code, stdout } = await run(["messages", "cmp-live", "--follow", "--status", "failure", "--jsonl"], {
      ...stop,
    });
    expect(code).toBe(130);
    const printed = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Message);
    expect(printed.length).toBeGreaterThan(10);
    expect(printed.every((m) => m.latestStatus === "failure")).toBe(true);
    expect(new Set(printed.map((m) => m.id)).size).toBe(printed.length);
  });

  it.each([
    [
      ["--follow", "--all"],
      "--follow cannot be used with --all: it starts at the newest messages and goes on until interrupted",
    ],
    [
      ["--follow", "--after", "x"],
      "--follow cannot be used with --after: it starts at the newest messages and goes on until interrupted",
    ],
    [
      ["--follow", "--since", "1h", "-n", "5"],
      "--follow starts with the newest -n messages, or with those --since: not both",
    ],
    [["--every", "5s"], "--every goes with --follow: add --follow to keep reading new messages"],
  ])("%j is a usage error", async (flags, message) => {
    const { run } = await live();
    const { code, stderr } = await run(["messages", "cmp-live", ...flags]);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(`msgstat: ${message}`);
  });
});

describe("stats --watch", () => {
  interface Round {
    generatedAt: string;
    totals: { messages: number };
    delivery: { success: number; failure: number };
    watch: { round: number; startedAt: string; changes: { messages: number } };
  }

  it("piped: one JSON object a round, counts that grow and agree with a snapshot at the same moment", async () => {
    const { clock, run } = await live();
    const stop = clock.interruptAfter(4);
    const { code, stdout } = await run(["stats", "cmp-live", "--watch", "--every", "30s"], { ...stop });
    expect(code).toBe(130);
    const rounds = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Round);
    expect(rounds.map((r) => r.watch.round)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < rounds.length; i++) {
      expect(rounds[i]!.totals.messages).toBeGreaterThan(rounds[i - 1]!.totals.messages);
      expect(rounds[i]!.watch.changes.messages).toBe(rounds[i]!.totals.messages - rounds[0]!.totals.messages);
      expect(rounds[i]!.watch.startedAt).toBe(rounds[0]!.generatedAt);
    }
    // The last round, against `stats --json` run at that very moment.
    const last = rounds[rounds.length - 1]!;
    clock.at = Date.parse(last.generatedAt);
    const snapshot = await run(["stats", "cmp-live", "--json"]);
    const { watch: _watch, ...report } = last as Round & Record<string, unknown>;
    expect(report).toEqual(JSON.parse(snapshot.stdout));
  });

  it("--max-failure-rate ends the watch with exit 5 on the first round above it", async () => {
    const { clock, run } = await live();
    const stop = clock.interruptAfter(50);
    const { code, stdout, stderr } = await run(["stats", "cmp-live", "--watch", "--json", "--max-failure-rate", "1"], {
      ...stop,
    });
    expect(code).toBe(5);
    expect(stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(
      /^msgstat: failure rate [\d.]+% \([\d,]+ of [\d,]+ final messages\) is above --max-failure-rate 1%\n$/,
    );
  });

  it("on a terminal: redrawn in place in the alternate screen, the last round kept on the normal screen", async () => {
    const { clock, run } = await live();
    const stop = clock.interruptAfter(2);
    const { code, stdout } = await run(["stats", "cmp-live", "--watch"], { ...stop, tty: true, columns: 80 });
    expect(code).toBe(130);
    expect(stdout.startsWith("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J")).toBe(true);
    expect(stdout.split("\x1b[H\x1b[2J")).toHaveLength(4);
    const [, coloured] = stdout.split("\x1b[?25h\x1b[?1049l");
    const kept = coloured!.replace(/\x1b\[[0-9;]*m/g, "");
    expect(kept).toMatch(
      /^Watching cmp-live: round 3, updated \d\d:\d\d:\d\d UTC, every 10 s\. Ctrl-C to stop\.\nSince \d\d:\d\d:\d\d: \+\d+ /,
    );
    for (const line of kept.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it.each([
    [["--every", "5s"], "--every goes with --watch: add --watch to read the listing again and again"],
    [
      ["--watch", "--csv", "--by", "status"],
      "--watch shows the report, or a JSON line a round: it does not write CSV tables",
    ],
  ])("%j is a usage error", async (flags, message) => {
    const { run } = await live();
    const { code, stderr } = await run(["stats", "cmp-live", ...flags]);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(`msgstat: ${message}`);
  });
});

describe("the built executable, with real signals", () => {
  it("messages --follow --jsonl -o file, stopped with SIGINT: exit 130, complete lines only, in order", async () => {
    // A live sandbox on the real clock, at a brisk rate; nothing is timed: the signal is sent once the
    // file holds enough lines.
    sandbox = await startSandbox({ live: { ratePerSecond: 50 } });
    const dir = scratchFolder("msgstat-follow-bin-");
    const file = path.join(dir, "live.jsonl");
    const lines = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);
    const result = await runBin(
      ["--base-url", sandbox.url, "messages", "cmp-live", "--follow", "--every", "1s", "-o", file],
      {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          void waitFor(() => lines() >= 60, "60 lines in the file").then(
            () => child.kill("SIGINT"),
            () => child.kill("SIGKILL"),
          );
        },
      },
    );
    expect(result.code).toBe(130);
    expect(result.stderr).toBe("msgstat: interrupted\n");
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const serials = text
      .trimEnd()
      .split("\n")
      .map((line) => Number((JSON.parse(line) as Message).id.slice("msg-live-".length)));
    expect(serials.length).toBeGreaterThanOrEqual(60);
    expect(serials).toEqual(serials.map((_, i) => serials[0]! + i));
  });
});
