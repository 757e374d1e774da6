// The live sandbox on a virtual clock shared by the sandbox and msgstat: a sleep moves the clock at once,
// so the live modes (messages --follow, message --wait, stats --watch) never wait for real time.
import { onTestFinished } from "vitest";
import { startSandbox, type FaultRule, type Sandbox } from "../../src/sandbox/index.js";
import { runCli, type CliOptions, type CliResult } from "./run-cli.js";
import { VirtualClock } from "./virtual-clock.js";

export const LIVE_START = Date.parse("2026-11-22T09:00:00.000Z");

export interface Live {
  sandbox: Sandbox;
  clock: VirtualClock;
  /** msgstat in-process against this sandbox, on its clock. */
  run: (args: string[], options?: CliOptions) => Promise<CliResult>;
}

/** A live sandbox (5 new messages a second) for the running test, closed when it ends. */
export async function startLive(faults: FaultRule[] = []): Promise<Live> {
  const clock = new VirtualClock(LIVE_START);
  const sandbox = await startSandbox({ live: { ratePerSecond: 5 }, clock: clock.now, now: LIVE_START, faults });
  onTestFinished(() => sandbox.close());
  const url = sandbox.url;
  return {
    sandbox,
    clock,
    run: (args, options = {}) =>
      runCli(["--base-url", url, ...args], { clock: clock.now, sleep: clock.sleep, env: { TZ: "UTC" }, ...options }),
  };
}
