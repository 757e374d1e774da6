// The retry policy, as decisions on data: which failures are tried again, and after how long.
// Hand-written rather than undici's retry interceptor, which resumes a body cut short with a `Range`
// request where msgstat must ask for the whole page again from the same cursor, waits without
// jitter, caps Retry-After without a word, and keeps waiting after the run is interrupted.
import { durationText } from "../core/duration.js";
import type { Failure } from "./errors.js";

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

// Network failures worth another try: refused, reset, closed early, a DNS server that did not answer
// (EAI_AGAIN), timeouts. A host DNS says does not exist (ENOTFOUND) is a typo more often than an outage.
const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

/** The longest wait msgstat accepts from a Retry-After header; a longer one is cut to this, with a warning. */
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** The first backoff ceiling; it doubles with each attempt. */
  baseMs: number;
  maxRetryAfterMs: number;
  random: () => number;
}

export type RetryDecision =
  { readonly retry: false } | { readonly retry: true; readonly delayMs: number; readonly warning?: string };

export function isRetryable(failure: Failure): boolean {
  switch (failure.kind) {
    case "status":
      return RETRYABLE_STATUSES.has(failure.status);
    case "network":
      // A failure without a code is one Node did not classify: a dropped connection more often than not.
      return failure.code === undefined || RETRYABLE_CODES.has(failure.code);
    case "timeout":
      return true;
    case "final":
      return false;
  }
}

/** What to do after attempt number `attempt` (1 for the first) failed with `failure`. */
export function decideRetry(failure: Failure, attempt: number, policy: RetryPolicy): RetryDecision {
  if (!isRetryable(failure) || attempt > policy.retries) return { retry: false };
  const retryAfterMs = failure.kind === "status" ? failure.retryAfterMs : undefined;
  if (retryAfterMs === undefined)
    return { retry: true, delayMs: backoffDelayMs(attempt - 1, policy.baseMs, policy.random) };
  if (retryAfterMs <= policy.maxRetryAfterMs) return { retry: true, delayMs: retryAfterMs };
  const warning =
    `the service asked to wait ${durationText(retryAfterMs)} before retrying; waiting ` +
    `${durationText(policy.maxRetryAfterMs, { exact: true })}, the most msgstat waits`;
  return { retry: true, delayMs: policy.maxRetryAfterMs, warning };
}

/**
 * Full jitter: a random wait from 0 up to base * 2^attempt (at most 30 s). Of the usual schemes it
 * spreads the retries of many clients (cron jobs started on the same minute) the most evenly, so
 * a recovering service is not hit in waves; equal jitter's guaranteed half-wait buys one client little.
 */
export function backoffDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** attempt, MAX_BACKOFF_MS);
  return Math.round(random() * ceiling);
}

/** `Retry-After` as seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// Waiting between tries is the same wait as the live modes' (core/timer.ts).
export { sleep } from "../core/timer.js";
