// `message --wait`: poll one message until its latestStatus is final (success or failure), or until
// the time allowed runs out. A failure that may pass (network, 408/429/5xx, already retried by the
// HTTP layer) does not end the wait: it is reported, and polling goes on after a longer pause. A 404,
// a 401 or a response msgstat cannot read ends it at once.
import { ServiceError } from "../core/errors.js";
import type { SourcedMessage } from "../core/json-source.js";
import { MESSAGE, read } from "../core/message.js";
import { isFinalStatus } from "../core/statuses.js";
import type { Timer } from "../core/timer.js";
import type { ApiClient } from "../http/client.js";
import { fetchMessage } from "./endpoints.js";

export interface WaitPlan {
  campaignId: string;
  messageId: string;
  /** Between polls. */
  everyMs: number;
  /** From the first poll. */
  timeoutMs: number;
}

export type WaitEvent =
  | { kind: "polled"; message: SourcedMessage; waitedMs: number }
  | { kind: "failing"; error: ServiceError; waitedMs: number; retryInMs: number };

export interface WaitOutcome {
  /** The message last read, with its text (for JSON output). */
  message: SourcedMessage;
  /** The message reached success or failure in time. */
  final: boolean;
  waitedMs: number;
}

/** Longest pause between polls while the service fails. */
const MAX_BACKOFF_MS = 60_000;

export async function waitForFinal(
  client: ApiClient,
  plan: WaitPlan,
  timer: Timer,
  signal: AbortSignal,
  onEvent: (event: WaitEvent) => void = () => undefined,
): Promise<WaitOutcome> {
  const started = timer.now();
  const waited = () => timer.now() - started;
  let last: SourcedMessage | undefined;
  let failures = 0;
  for (;;) {
    let pauseMs = plan.everyMs;
    try {
      last = await fetchMessage(client, plan.campaignId, plan.messageId);
      failures = 0;
      onEvent({ kind: "polled", message: last, waitedMs: waited() });
      if (isFinalStatus(read(MESSAGE, last.message, "latestStatus")))
        return { message: last, final: true, waitedMs: waited() };
    } catch (error) {
      if (!(error instanceof ServiceError) || !error.transient || signal.aborted) throw error;
      failures++;
      pauseMs = Math.min(plan.everyMs * 2 ** failures, MAX_BACKOFF_MS);
      onEvent({ kind: "failing", error, waitedMs: waited(), retryInMs: pauseMs });
      if (waited() + pauseMs > plan.timeoutMs && last === undefined) throw error;
    }
    const left = plan.timeoutMs - waited();
    if (left <= 0) {
      if (last === undefined)
        throw new ServiceError(
          `no answer for message ${plan.messageId} within the time allowed`,
          undefined,
          undefined,
          true,
        );
      return { message: last, final: false, waitedMs: waited() };
    }
    await timer.sleep(Math.min(pauseMs, left), signal);
  }
}
