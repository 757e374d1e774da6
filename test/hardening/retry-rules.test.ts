import { describe, expect, it } from "vitest";
import { backoffDelayMs, isRetryableNetworkError, parseRetryAfter, RETRYABLE_STATUSES } from "../../src/http/retry.js";

describe("what is retried", () => {
  it("the transient statuses and no other", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 429, 500, 502, 503, 504]);
  });

  it.each(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])("network error %s", (code) => {
    expect(isRetryableNetworkError(Object.assign(new Error("x"), { code }))).toBe(true);
  });

  it("not a certificate error", () => {
    expect(isRetryableNetworkError(Object.assign(new Error("x"), { code: "CERT_HAS_EXPIRED" }))).toBe(false);
  });
});

describe("how long to wait", () => {
  it("backs off exponentially with jitter between half and all of the ceiling", () => {
    expect(backoffDelayMs(0, 500, () => 0)).toBe(250);
    expect(backoffDelayMs(0, 500, () => 1)).toBe(500);
    expect(backoffDelayMs(3, 500, () => 1)).toBe(4000);
    expect(backoffDelayMs(20, 500, () => 1)).toBe(30_000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
