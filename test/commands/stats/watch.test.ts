// stats --watch as a user runs it, in-process against the live sandbox on a virtual clock shared by
// the sandbox and msgstat: a sleep moves the clock at once, so nothing waits for real time.
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/terminal/width.js";
import { startLive } from "../../support/live-sandbox.js";

const live = startLive;

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
