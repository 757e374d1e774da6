// `message --wait`: poll one message until its latestStatus is final (success or failure), or until
// the time allowed runs out. A failing or silent service (network, timeouts, 408/429/5xx, already
// retried by the HTTP layer) does not end the wait: it is reported, and polling goes on after a longer
// pause, cut to the time left. A 404, a 401/403 or another refusal of the request ends it at once.
import { ResponseError, ServiceError } from "../core/errors.js";
import { RedirectError } from "../http/errors.js";
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
  /** The message last read, with its text (for JSON output); none when no answer came in time. */
  message: SourcedMessage | undefined;
  /** The message reached success or failure in time. */
  final: boolean;
  waitedMs: number;
  /** Why the last try failed, when it did (the wait ran out while the service was failing). */
  lastError?: ServiceError;
}

/** Longest pause between polls while the service fails. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The wait keeps its clock: `plan.timeoutMs` from the first poll, whatever the service does. No request
 * outlives the time left (its timeout is cut to it, and so are the HTTP layer's retries and the pause
 * after a failure); when it is spent, the wait ends not final, with the last state read.
 */
export async function waitForFinal(
  client: ApiClient,
  plan: WaitPlan,
  timer: Timer,
  signal: AbortSignal,
  onEvent: (event: WaitEvent) => void = () => undefined,
): Promise<WaitOutcome> {
  const started = timer.now();
  const waited = () => timer.now() - started;
  const within = { leftMs: () => plan.timeoutMs - waited() };
  let last: SourcedMessage | undefined;
  let lastError: ServiceError | undefined;
  let failures = 0;
  for (;;) {
    let pauseMs = plan.everyMs;
    try {
      last = await fetchMessage(client, plan.campaignId, plan.messageId, within);
      failures = 0;
      lastError = undefined;
      onEvent({ kind: "polled", message: last, waitedMs: waited() });
      if (isFinalStatus(read(MESSAGE, last.message, "latestStatus")))
        return { message: last, final: true, waitedMs: waited() };
    } catch (error) {
      if (endsTheWait(error) || signal.aborted) throw error;
      failures++;
      lastError = error as ServiceError;
      pauseMs = Math.min(plan.everyMs * 2 ** failures, MAX_BACKOFF_MS);
      if (within.leftMs() > 0)
        onEvent({
          kind: "failing",
          error: lastError,
          waitedMs: waited(),
          retryInMs: Math.min(pauseMs, within.leftMs()),
        });
    }
    if (within.leftMs() > 0) await timer.sleep(Math.min(pauseMs, within.leftMs()), signal);
    // A request is sent only with time left for it: none at the deadline itself.
    if (within.leftMs() <= 0) return { message: last, final: false, waitedMs: waited(), lastError };
  }
}

/**
 * Whether a failure ends the wait before its time: the service refused the request itself (401/403,
 * 404, another 4xx but 408 and 429, a redirect msgstat will not follow), or it is not the service's at
 * all. A failing or silent service (network, timeouts, 408/429/5xx, a body msgstat cannot read) is
 * waited out: it may recover before the time is up.
 */
function endsTheWait(error: unknown): boolean {
  if (!(error instanceof ServiceError) || error instanceof RedirectError) return true;
  if (error.transient || error instanceof ResponseError) return false;
  return error.status === undefined || error.status < 500;
}
