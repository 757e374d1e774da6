// The retry policy as decisions on data: which failures are tried again, and after how long.
import { describe, expect, it } from "vitest";
import { ServiceError } from "../../src/core/errors.js";
import type { Failure } from "../../src/http/errors.js";
import {
  backoffDelayMs,
  decideRetry,
  isRetryable,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  sleep,
  type RetryPolicy,
} from "../../src/http/retries.js";

const policy = (random = 0.5, retries = 3): RetryPolicy => ({
  retries,
  baseMs: 500,
  maxRetryAfterMs: 60_000,
  random: () => random,
});
const status = (code: number, retryAfterMs?: number): Failure => ({ kind: "status", status: code, retryAfterMs });
const network = (code?: string): Failure => ({ kind: "network", code, text: "x" });

describe("what is retried", () => {
  it("the transient statuses and no other", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 429, 500, 502, 503, 504]);
    for (let code = 400; code < 600; code++) expect(isRetryable(status(code))).toBe(RETRYABLE_STATUSES.has(code));
  });

  it.each(["ECONNREFUSED", "ECONNRESET", "EAI_AGAIN", "EPIPE", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH"])(
    "network error %s",
    (code) => {
      expect(isRetryable(network(code))).toBe(true);
    },
  );

  it("not a certificate error, nor a host DNS does not know, nor a proxy's refusal, nor a refusal msgstat made itself; a timeout is", () => {
    expect(isRetryable(network("CERT_HAS_EXPIRED"))).toBe(false);
    expect(isRetryable(network("ERR_PROXY_REFUSED"))).toBe(false);
    expect(isRetryable(network("ENOTFOUND"))).toBe(false);
    expect(isRetryable({ kind: "final", error: new ServiceError("bad body") })).toBe(false);
    expect(isRetryable({ kind: "timeout", timeoutMs: 30_000 })).toBe(true);
  });

  it("--retries more, then no more", () => {
    expect(decideRetry(status(503), 3, policy()).retry).toBe(true);
    expect(decideRetry(status(503), 4, policy())).toEqual({ retry: false });
    expect(decideRetry(status(503), 1, policy(0.5, 0))).toEqual({ retry: false });
    expect(decideRetry(status(400), 1, policy())).toEqual({ retry: false });
  });
});

describe("how long to wait", () => {
  it("full jitter: anywhere from nothing to a ceiling that doubles each attempt, at most 30 s", () => {
    expect(backoffDelayMs(0, 500, () => 0)).toBe(0);
    expect(backoffDelayMs(0, 500, () => 0.5)).toBe(250);
    expect(backoffDelayMs(0, 500, () => 1)).toBe(500);
    expect(backoffDelayMs(3, 500, () => 1)).toBe(4000);
    expect(backoffDelayMs(3, 500, () => 0.25)).toBe(1000);
    expect(backoffDelayMs(20, 500, () => 1)).toBe(30_000);
  });

  it("the first retry waits within the base, the next within twice it", () => {
    expect(decideRetry(status(503), 1, policy(1))).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(network("ECONNRESET"), 2, policy(1))).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry({ kind: "timeout", timeoutMs: 1 }, 2, policy(0))).toEqual({ retry: true, delayMs: 0 });
  });

  it("Retry-After is waited out exactly, up to the cap; beyond it, the cap, with a warning", () => {
    expect(decideRetry(status(429, 7000), 1, policy())).toEqual({ retry: true, delayMs: 7000 });
    expect(decideRetry(status(503, 60_000), 1, policy())).toEqual({ retry: true, delayMs: 60_000 });
    expect(decideRetry(status(429, 3_600_000), 1, policy())).toEqual({
      retry: true,
      delayMs: 60_000,
      warning: "the service asked to wait 1 h before retrying; waiting 1 min, the most msgstat waits",
    });
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("an interrupted run stops waiting at once, with the interruption", async () => {
    const controller = new AbortController();
    const waiting = sleep(3_600_000, controller.signal);
    controller.abort(new Error("interrupted"));
    await expect(waiting).rejects.toThrow("interrupted");
  });
});
