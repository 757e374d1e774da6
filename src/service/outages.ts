// The live modes keep going while the service fails: a round that fails in a way that may pass (already
// retried by the HTTP layer) is tried again after a growing pause, for as long as it takes. The caller
// hears once when an outage starts and once when it ends, not at every try.
import { ServiceError } from "../core/errors.js";
import type { Timer } from "../core/timer.js";

export type OutageEvent =
  { kind: "failing"; error: ServiceError; retryInMs: number } | { kind: "recovered"; downMs: number };

export interface OutagePolicy {
  /** The first pause; it doubles with each failed try. */
  everyMs: number;
  maxBackoffMs: number;
  timer: Timer;
  signal: AbortSignal;
  onEvent: (event: OutageEvent) => void;
}

/** Runs `round` until it succeeds; anything but a transient service failure (or an interrupt) ends it. */
export async function throughOutages<T>(round: () => Promise<T>, policy: OutagePolicy): Promise<T> {
  let failures = 0;
  let downSince: number | undefined;
  for (;;) {
    try {
      const result = await round();
      if (downSince !== undefined) policy.onEvent({ kind: "recovered", downMs: policy.timer.now() - downSince });
      return result;
    } catch (error) {
      if (!(error instanceof ServiceError) || !error.transient || policy.signal.aborted) throw error;
      failures++;
      const retryInMs = Math.min(policy.everyMs * 2 ** failures, policy.maxBackoffMs);
      if (downSince === undefined) {
        downSince = policy.timer.now();
        policy.onEvent({ kind: "failing", error, retryInMs });
      }
      await policy.timer.sleep(retryInMs, policy.signal);
    }
  }
}
