// A token bucket: `perSecond` tokens a second, holding at most one second's worth (at least 1).

export class TokenBucket {
  private tokens: number;
  private readonly capacity: number;
  private lastRefillMs: number;

  constructor(
    private readonly perSecond: number,
    nowMs: number,
  ) {
    this.capacity = Math.max(1, perSecond);
    this.tokens = this.capacity;
    this.lastRefillMs = nowMs;
  }

  /** 0 when the request may pass, else the whole seconds to wait before a token is available. */
  take(nowMs: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + ((nowMs - this.lastRefillMs) / 1000) * this.perSecond);
    this.lastRefillMs = nowMs;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}
