// message --wait as a user runs it, in-process against the live sandbox on a virtual clock shared by
// the sandbox and msgstat: a sleep moves the clock at once, so nothing waits for real time.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { FaultRule, Sandbox } from "../../../src/sandbox/index.js";
import { startLive, type Live } from "../../support/live-sandbox.js";
import type { VirtualClock } from "../../support/virtual-clock.js";

let sandbox: Sandbox | undefined;

/** The live sandbox of the running test, on its virtual clock (test/support/live-sandbox.ts). */
async function live(faults: FaultRule[] = []): Promise<Omit<Live, "sandbox">> {
  const started = await startLive(faults);
  sandbox = started.sandbox;
  return started;
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
    expect(lines[0]).toMatch(/^warning: .*HTTP 503.*; still waiting, trying again in (\d+ min|\d+ s|\d+ min \d+ s)$/);
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
