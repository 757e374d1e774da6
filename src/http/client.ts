// The HTTP client: GET a path under the base URL and return its JSON body. It composes the transport
// (transport.ts), the redirect rules (redirects.ts: where to go next, credentials to the base origin
// only), the body reader (json-body.ts: the cap, the JSON checks) and the retry policy (retries.ts),
// one attempt at a time: an attempt ends in a body or a Failure, as data, and the policy decides what
// follows. Errors are typed (errors.ts); what to advise the user is the command layer's business.
import type { Readable } from "node:stream";
import type { ServiceError } from "../core/errors.js";
import { inlineSafe } from "../core/text.js";
import {
  bodyError,
  describeTarget,
  networkFailure,
  RedirectError,
  RequestFailedError,
  serverMessageOf,
  statusError,
  type Failure,
  type RequestTarget,
} from "./errors.js";
import { ACCEPTED_CODINGS } from "./content-coding.js";
import {
  inUtf8,
  JsonBody,
  jsonBodyProblem,
  MAX_BODY_BYTES,
  readBody,
  readCapped,
  type ResponseBodyRead,
} from "./json-body.js";
import { apiPath } from "./path.js";
import { decideRetry, isRetryable, MAX_RETRY_AFTER_MS, parseRetryAfter, sleep, type RetryPolicy } from "./retries.js";
import { hopHeaders, isRedirect, nextHop } from "./redirects.js";
import { proxyFor, proxyName } from "./proxy.js";
import { createTransport, type Transport, type TransportOptions, type TransportResponse } from "./transport.js";

export interface ClientOptions {
  baseUrl: URL;
  token?: string;
  headers: Array<[string, string]>;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  maxBodyBytes?: number;
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
  /** The proxies and the trusted certificates (none: connect directly, with Node's trust). */
  network?: TransportOptions;
  /** One line per request when --verbose; never receives credentials. */
  log?: (line: string) => void;
  warn: (line: string) => void;
  /** The jitter's source of randomness (tests make it fixed). */
  random?: () => number;
}

/** How long a caller with a clock of its own has left, in milliseconds (0 or less: none). */
export interface TimeLeft {
  leftMs(): number;
}

type Attempt = { readonly body: JsonBody } | { readonly failure: Failure; readonly target: RequestTarget };

const ALWAYS_SENT = { accept: "application/json", "user-agent": "msgstat" };
// A page is asked for compressed: up to 1000 messages, a megabyte or more as JSON.
const FOR_A_PAGE = { ...ALWAYS_SENT, "accept-encoding": ACCEPTED_CODINGS };
// One message is a few kilobytes, which arrive within TCP's first window (about 14 kB) compressed or
// not: compression would save no round trip, only add decoding to every `msgstat message`
// (docs/bench.md, "The executable's start-up").
const FOR_ONE_OBJECT = { ...ALWAYS_SENT, "accept-encoding": "identity" };

export interface GetOptions {
  /** The caller's own clock (message --wait): see get(). */
  within?: TimeLeft;
  /** The answer is one object, not a page: it is asked for uncompressed. */
  oneObject?: boolean;
}

export class ApiClient {
  private readonly transport: Transport;
  private readonly prefix: string;
  private readonly policy: RetryPolicy;
  private readonly credentials: Record<string, string>;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: ClientOptions) {
    this.transport = createTransport({ ...options.network, timeoutMs: options.timeoutMs });
    this.credentials = credentialsOf(options);
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.prefix = options.baseUrl.pathname.replace(/\/+$/, "");
    this.policy = {
      retries: options.retries,
      baseMs: options.retryBaseMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
      random: options.random ?? Math.random,
    };
  }

  /**
   * GET a path under the base URL (segments are encoded one by one); its 2xx JSON body, not yet parsed.
   * `within`: the caller's own clock (message --wait): no attempt outlives the time it has left, no retry
   * starts once it is spent, and no backoff is longer than it.
   */
  async get(
    segments: readonly string[],
    query: Record<string, string | undefined> = {},
    { within, oneObject = false }: GetOptions = {},
  ): Promise<JsonBody> {
    const sent = oneObject ? FOR_ONE_OBJECT : FOR_A_PAGE;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
    const search = params.size > 0 ? `?${params.toString()}` : "";
    const target: RequestTarget = {
      method: "GET",
      origin: this.options.baseUrl.origin,
      path: apiPath(this.prefix, segments) + search,
    };
    const left = () => within?.leftMs() ?? Number.POSITIVE_INFINITY;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(target, sent, Math.max(1, Math.min(this.options.timeoutMs, left())));
      if ("body" in outcome) return outcome.body;
      const decision = decideRetry(outcome.failure, attempt, this.policy);
      if (!decision.retry || left() <= 0) throw finalError(outcome.target, outcome.failure, attempt);
      if (decision.warning !== undefined) this.options.warn(decision.warning);
      await sleep(Math.min(decision.delayMs, left()), this.options.signal);
      if (left() <= 0) throw finalError(outcome.target, outcome.failure, attempt);
    }
  }

  /** Closes every connection at once (transport.ts says why); a promise, as callers end a run with it. */
  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }

  /** One request, redirects included, bounded from connect to last byte by the timeout. */
  private async attempt(target: RequestTarget, sent: Record<string, string>, timeoutMs: number): Promise<Attempt> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    let hop = target;
    try {
      for (let redirects = 0; ; redirects++) {
        const outcome = await this.hop(hop, sent, signal, timeout);
        if (!("location" in outcome)) return outcome;
        const decision = nextHop(hop, outcome.location, redirects, this.options.baseUrl.origin);
        if ("refuse" in decision)
          return {
            failure: { kind: "final", error: new RedirectError(`${describeTarget(hop)} ${decision.refuse}`) },
            target: hop,
          };
        if (decision.warning !== undefined) this.options.warn(decision.warning);
        hop = decision.follow;
      }
    } catch (error) {
      // An interrupted run is not a failure to retry: it ends here.
      if (this.options.signal?.aborted) throw this.options.signal.reason;
      const proxy = this.proxyOf(hop.origin);
      if (timeout.aborted)
        return {
          failure: { kind: "timeout", timeoutMs, proxy: proxy === undefined ? undefined : proxyName(proxy) },
          target: hop,
        };
      return { failure: networkFailure(error, proxy), target: hop };
    }
  }

  /** The proxy a request to this origin goes through, if any (proxy.ts decides, as the transport does). */
  private proxyOf(origin: string): URL | undefined {
    return proxyFor(origin, this.options.network?.proxy);
  }

  /** One request to one URL: a body, a failure, or where it redirects to. Network errors are thrown. */
  private async hop(
    target: RequestTarget,
    sent: Record<string, string>,
    signal: AbortSignal,
    timeout: AbortSignal,
  ): Promise<Attempt | { location: string }> {
    const started = performance.now();
    const proxy = this.proxyOf(target.origin);
    const via = proxy === undefined ? "" : ` via proxy ${proxyName(proxy)}`;
    const log = (outcome: string) =>
      this.options.log?.(
        `GET ${inlineSafe(target.origin + target.path)}${via} -> ${outcome} ` +
          `(${Math.round(performance.now() - started)} ms)`,
      );
    const headers = hopHeaders(target.origin, this.options.baseUrl.origin, sent, this.credentials);
    let response: TransportResponse | undefined;
    try {
      // Origin and path are given apart: a URL string would be normalised, turning an id of ".."
      // (sent as %2E%2E) back into a dot segment that climbs to another endpoint.
      response = await this.transport.request({ origin: target.origin, path: target.path, headers, signal });
      if (isRedirect(response.statusCode, response.headers.location)) {
        await discard(response.body);
        log(String(response.statusCode));
        return { location: response.headers.location };
      }
      const read = await readBody(response.body, response.headers, this.maxBodyBytes);
      log(`${response.statusCode}${sizesOf(read)}`);
      return this.interpret(target, response, read);
    } catch (error) {
      log(
        timeout.aborted
          ? "timeout"
          : response !== undefined
            ? `${response.statusCode}, then ${errorCode(error)}`
            : errorCode(error),
      );
      throw error;
    }
  }

  private interpret(target: RequestTarget, response: TransportResponse, read: ResponseBodyRead): Attempt {
    const fail = (failure: Failure): Attempt => ({ failure, target });
    const { statusCode: status, headers } = response;
    const contentType = String(headers["content-type"] ?? "");
    const text = "bytes" in read ? inUtf8(read.bytes, contentType) : read;
    const success = status >= 200 && status < 300;
    if ("tooLarge" in text)
      return fail({
        kind: "final",
        error: bodyError(
          target,
          `is larger than ${this.maxBodyBytes / 1024 / 1024} MiB${text.coded ? " once decoded" : ""}, ` +
            `more than any page of this API`,
        ),
      });
    if (success) {
      if ("unreadable" in text) return fail({ kind: "final", error: bodyError(target, text.unreadable) });
      const problem = jsonBodyProblem(contentType, text.bytes);
      return problem === undefined
        ? { body: new JsonBody(text.bytes, target) }
        : fail({ kind: "final", error: bodyError(target, problem) });
    }
    const retryAfterMs = parseRetryAfter(String(headers["retry-after"] ?? ""), Date.now());
    // An error body that cannot be decoded still leaves the status to go on.
    const serverMessage = "bytes" in text ? serverMessageOf(text.bytes, contentType) : undefined;
    return fail({ kind: "status", status, serverMessage, retryAfterMs });
  }
}

/**
 * A redirect's body: read and dropped, so that its connection can carry the next hop; a large one ends it (readCapped
 * destroys it).
 */
async function discard(body: Readable): Promise<void> {
  await readCapped(body, undefined, DISCARD_LIMIT);
}

const DISCARD_LIMIT = 64 * 1024;

/** For the verbose line: the decoded size, and with a coding what crossed the wire. */
function sizesOf(read: ResponseBodyRead): string {
  if (!("bytes" in read)) return "";
  if (read.codings.length === 0) return `, ${byteSize(read.bytes.length)}`;
  return (
    `, ${read.codings.join(" + ")}: ${byteSize(read.wireBytes)} on the wire, ` +
    `${byteSize(read.bytes.length)} decoded`
  );
}

/** Bytes in decimal units, three significant figures: 812 B, 16.2 kB, 1.62 MB. */
function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, "kB"] : [bytes / 1e6, "MB"];
  return `${value.toPrecision(3)} ${unit}`;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "error";
}

/** The Authorization header and the -H headers: sent to the base origin only (redirects.ts). */
function credentialsOf(options: ClientOptions): Record<string, string> {
  const credentials: Record<string, string> = {};
  for (const [name, value] of options.headers) credentials[name.toLowerCase()] = value;
  if (options.token !== undefined) credentials.authorization = `Bearer ${options.token}`;
  return credentials;
}

function finalError(target: RequestTarget, failure: Failure, attempts: number): ServiceError {
  if (failure.kind === "final") return failure.error;
  if (failure.kind === "status" && !isRetryable(failure))
    return statusError(target, failure.status, failure.serverMessage);
  return new RequestFailedError(target, failure, attempts, isRetryable(failure));
}
