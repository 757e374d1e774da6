// A second export after a status change in the sandbox's live campaign rewrites only the partition of
// the message that changed: the live campaign runs on a virtual clock, set to a moment when one of its
// messages settled and none was created since the first run.
import { describe, expect, it, onTestFinished } from "vitest";
import { startSandbox } from "../../../src/sandbox/index.js";
import type { Message } from "../../../src/core/message.js";
import { dataFiles, readJsonlDataset, utcDate } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import { VirtualClock } from "../../support/virtual-clock.js";

// Five minutes past midnight: the ten minutes of history already sent span two UTC days.
const START = Date.parse("2026-11-22T00:05:00.000Z");

async function newest(url: string): Promise<Message[]> {
  const response = await fetch(`${url}/campaigns/cmp-live/messages?limit=300`);
  return ((await response.json()) as { data: Message[] }).data;
}

describe("msgstat export against the live campaign", () => {
  it("a status change rewrites only that message's partition", async () => {
    const clock = new VirtualClock(START);
    const sandbox = await startSandbox({ live: { ratePerSecond: 5 }, clock: clock.now, now: START, messages: 200 });
    onTestFinished(() => sandbox.close());
    const dir = scratchFolder("export-live-");
    const exportNow = () =>
      runCli(["--base-url", sandbox.url, "export", "cmp-live", "cmp-otp-alerts", "--to", dir, "--format", "jsonl.gz"], {
        clock: clock.now,
        env: { TZ: "UTC" },
      });
    expect((await exportNow()).code).toBe(0);
    const before = dataFiles(dir);
    const firstRows = await readJsonlDataset(dir);

    // The first moment, 10 ms at a time, when a message's status differs and no message is new.
    const then = await newest(sandbox.url);
    let changed: Message | undefined;
    for (let step = 0; step < 200 && changed === undefined; step++) {
      clock.at += 10;
      const now = await newest(sandbox.url);
      if (now[0]!.id !== then[0]!.id) throw new Error("a message was created before any changed: start elsewhere");
      changed = now.find((message, i) => message.latestStatus !== then[i]!.latestStatus);
    }
    expect(changed).toBeDefined();

    const again = await exportNow();
    expect(again).toMatchObject({ code: 0, stdout: "" });
    expect(again.stderr).toMatch(/: 1 file written, \d+ unchanged\n$/);
    const after = dataFiles(dir);
    const rewritten = Object.keys(after).filter((name) => after[name]!.mtimeMs !== before[name]!.mtimeMs);
    expect(rewritten).toEqual([`campaign_id=cmp-live/created_date=${utcDate(changed!.createdAt)}/messages.jsonl.gz`]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    // Both days of the live campaign are in the dataset, and the message reads with its new status.
    expect(new Set(firstRows.filter((row) => row.campaignId === "cmp-live").map((row) => row.createdDate))).toEqual(
      new Set(["2026-11-21", "2026-11-22"]),
    );
    const rows = await readJsonlDataset(dir);
    expect(rows).toHaveLength(firstRows.length);
    expect(rows.find((row) => row.message.id === changed!.id)?.message.latestStatus).toBe(changed!.latestStatus);
  });
});
