// Public types of the sandbox library.
import type { FaultRule } from "./faults.js";
import type { LiveOptions } from "./live.js";

export interface SandboxOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 1. All data is deterministic from (seed, now). */
  seed?: number;
  /** Size of the largest campaign; default 5000. */
  messages?: number;
  /** Also serve this many generated campaigns, cmp-many-01 .., each of `messages` messages, times interleaving. */
  campaigns?: number;
  /**
   * Anchor for createdAt (the newest message is one to three minutes before it); default now, floored to the minute.
   */
  now?: number | Date;
  /** When set, every request needs `Authorization: Bearer <token>`, else 401. */
  token?: string;
  /**
   * Compress responses when the request's Accept-Encoding allows (br, gzip, deflate), as a front end
   * such as nginx does; identity otherwise. Default true.
   */
  compression?: boolean;
  /** Bytes per second of a simulated link: every response body is paced to it. Default: unpaced. */
  bandwidth?: number;
  /** Added before each response. */
  latencyMs?: number;
  /** 0..1: share of requests answered 500 or 503, from a seeded sequence keyed by request number. */
  failRate?: number;
  /** Requests per second (token bucket, burst of one second); past it 429 with Retry-After. */
  rateLimit?: number;
  /** Scripted faults; the first live matching rule applies. */
  faults?: FaultRule[];
  /**
   * Adds the live campaign `cmp-live`, which keeps sending (docs/sandbox.md, "The live campaign"):
   * `true` for the defaults, or its rate and start.
   */
  live?: boolean | LiveOptions;
  /**
   * The sandbox's clock (ms since the epoch), read at every request: what the live campaign shows
   * depends on it, so a test can run it at any speed. Default Date.now. The static campaigns are
   * anchored at `now` (default: this clock at start).
   */
  clock?: () => number;
  /**
   * Keep each listing page of the static campaigns as it was first built, and send those bytes again when the
   * same page is asked for (the same path and query): what a page holds never changes, so only the sandbox's
   * CPU differs. For benchmarks, where building pages would take the cores the client is measured on. Not
   * for cmp-live, nor for a request a fault applies to, nor with `transform`. Default false.
   */
  cachePages?: boolean;
  /** Rewrites a successful (200) JSON body before it is sent. */
  transform?: (body: unknown, req: { path: string; query: URLSearchParams; n: number }) => unknown;
}

export interface SandboxCampaign {
  id: string;
  /** Messages at start; the live campaign grows from there. */
  size: number;
  /** The live campaign, which keeps sending. */
  live?: boolean;
  batches: { id: string; size: number; originalFileName: string }[];
}

export interface SandboxRequest {
  /** 1-based, counting every request received. */
  n: number;
  method: string;
  /** The request target as sent (path and query, still encoded). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Status sent; 0 when none was sent (reset, or still pending). */
  status: number;
  /** When it arrived (ms since the epoch): lets tests check how long a client waited between tries. */
  receivedAt: number;
}

export interface Sandbox {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  campaigns: SandboxCampaign[];
  /** Every request received, in order. */
  requests: SandboxRequest[];
  /** Closes the server and destroys all connections, pending stalls included. */
  close(): Promise<void>;
}
