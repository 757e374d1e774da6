// messages --follow as a user runs it, in-process against the live sandbox on a virtual clock shared by
// the sandbox and msgstat: a sleep moves the clock at once, so nothing waits for real time.
// message --wait: commands/message/wait.test.ts; stats --watch: commands/stats/watch.test.ts;
// the built executable with a real SIGINT: e2e/follow.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { FaultRule, Sandbox } from "../../../src/sandbox/index.js";
import { startLive, type Live } from "../../support/live-sandbox.js";
import { scratchFolder } from "../../support/scratch.js";
import type { VirtualClock } from "../../support/virtual-clock.js";

let sandbox: Sandbox | undefined;

/** The live sandbox of the running test, on its virtual clock (test/support/live-sandbox.ts). */
async function live(faults: FaultRule[] = []): Promise<Omit<Live, "sandbox">> {
  const started = await startLive(faults);
  sandbox = started.sandbox;
  return started;
}

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
    expect(lines[0]).toMatch(/^warning: .*HTTP 503.*; still following, trying again in (\d+ min|\d+ s|\d+ min \d+ s)$/);
    expect(lines[1]).toMatch(
      /^the service answers again after (\d+ min|\d+ s|\d+ min \d+ s); following on, nothing missed$/,
    );
    const printed = stdout
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as Message).id);
    expect(printed).toEqual((await truthBetween(clock, printed[0]!)).slice(0, printed.length));
  });

  it.each([
    { target: "-o x.jsonl", name: "live.jsonl", read: (bytes: Buffer) => bytes.toString("utf8") },
    {
      target: "-o x.jsonl.gz, as gzip,",
      name: "live.jsonl.gz",
      read: (bytes: Buffer) => gunzipSync(bytes).toString("utf8"),
    },
  ])("with $target the file holds every complete record received before Ctrl-C", async ({ name, read }) => {
    const { clock, run } = await live();
    const file = path.join(scratchFolder("msgstat-follow-"), name);
    const stop = clock.interruptAfter(8);
    const { code, stdout } = await run(["messages", "cmp-live", "--follow", "-o", file], { ...stop });
    expect(code).toBe(130);
    expect(stdout).toBe("");
    const text = read(readFileSync(file));
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
