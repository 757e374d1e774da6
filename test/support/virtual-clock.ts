// A clock that moves only when slept on, shared by the live sandbox and msgstat in a test: a sleep
// moves it at once, so the live modes run without waiting for real time and never depend on speed.
import { InterruptedError } from "../../src/core/errors.js";
import type { Timer } from "../../src/core/timer.js";

export class VirtualClock implements Timer {
  constructor(public at: number) {}

  now = () => this.at;

  sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw signal.reason;
    this.at += ms;
    await new Promise((resolve) => setImmediate(resolve));
  };

  /** A sleep whose (n+1)th call is a Ctrl-C: a live mode run with it ends as a user's would. */
  interruptAfter(sleeps: number): { sleep: Timer["sleep"]; signal: AbortSignal } {
    const controller = new AbortController();
    let count = 0;
    return {
      signal: controller.signal,
      sleep: async (ms, signal) => {
        if (++count > sleeps) controller.abort(new InterruptedError("SIGINT"));
        await this.sleep(ms, signal);
      },
    };
  }
}
