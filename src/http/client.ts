// The HTTP layer: one keep-alive undici agent, GET with retries, timeouts from connect to last byte,
// a cap on body size, same-origin-only credentials on redirects, and typed errors from statuses.
import { Agent, type Dispatcher } from "undici";
import { AuthError, NotFoundError, ResponseError, ServiceError } from "../core/errors.js";
import { inlineSafe } from "../core/text.js";
import { apiPath } from "./path.js";
import { backoffDelayMs, isRetryableNetworkError, parseRetryAfter, RETRYABLE_STATUSES, sleep } from "./retry.js";

/** A 1000-message page is about 2-3 MB; anything past this is not a page of this API. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_REDIRECTS = 5;

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
  /** One line per request when --verbose; never receives credentials. */
  log?: (line: string) => void;
  warn: (line: string) => void;
}

export interface JsonResponse {
  status: number;
  body: unknown;
}

/** Thrown by one attempt; `retryable` decides whether another follows. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly final: Error | undefined,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export class ApiClient {
  private readonly agent: Agent;
  private readonly prefix: string;

  constructor(private readonly options: ClientOptions) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
    this.prefix = options.baseUrl.pathname.replace(/\/+$/, "");
  }

  /** GET a path under the base URL (segments are encoded one by one) and return its JSON body. */
  async getJson(segments: readonly string[], query: Record<string, string | undefined> = {}): Promise<JsonResponse> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
    const search = params.size > 0 ? `?${params.toString()}` : "";
    const url = new URL(this.options.baseUrl.origin);
    const path = apiPath(this.prefix, segments) + search;
    return this.withRetries(url.origin, path);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async withRetries(origin: string, path: string): Promise<JsonResponse> {
    const attempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.followRedirects(origin, path);
      } catch (error) {
        if (!(error instanceof AttemptError)) throw error;
        if (!error.retryable || attempt >= attempts) {
          throw error.final ?? new ServiceError(`GET ${inlineSafe(path)} failed after ${attempt} ${attempt === 1 ? "attempt" : "attempts"}: ${error.message}`, undefined, undefined, error.retryable);
        }
        await sleep(this.retryDelay(error, attempt), this.options.signal);
      }
    }
  }

  private retryDelay(error: AttemptError, attempt: number): number {
    const backoff = backoffDelayMs(attempt - 1, this.options.retryBaseMs);
    if (error.retryAfterMs === undefined) return backoff;
    const cap = this.options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
    if (error.retryAfterMs > cap) {
      this.options.warn(`the service asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before retrying; waiting ${Math.ceil(cap / 1000)} s, the most msgstat waits`);
      return cap;
    }
    return error.retryAfterMs;
  }

  private async followRedirects(origin: string, path: string): Promise<JsonResponse> {
    let currentOrigin = origin;
    let currentPath = path;
    for (let hop = 0; ; hop++) {
      const withCredentials = currentOrigin === this.options.baseUrl.origin;
      const outcome = await this.attempt(currentOrigin, currentPath, withCredentials);
      if (!("location" in outcome)) return outcome;
      if (hop >= MAX_REDIRECTS) throw new AttemptError("too many redirects", false, new ServiceError(`more than ${MAX_REDIRECTS} redirects from ${inlineSafe(path)}`));
      let target: URL;
      try {
        target = new URL(outcome.location, currentOrigin + currentPath);
      } catch {
        throw new AttemptError("bad redirect", false, new ServiceError(`the service redirected ${inlineSafe(path)} to something that is not a URL: ${inlineSafe(outcome.location.slice(0, 200))}`));
      }
      if (target.protocol !== "http:" && target.protocol !== "https:") {
        throw new AttemptError("redirect", false, new ServiceError(`refused a redirect to a ${inlineSafe(target.protocol)} URL`));
      }
      if (target.origin !== this.options.baseUrl.origin) {
        this.options.warn(`following a redirect to ${inlineSafe(target.origin)} without credentials (they are only sent to ${this.options.baseUrl.origin})`);
      }
      currentOrigin = target.origin;
      currentPath = target.pathname + target.search;
    }
  }

  private headersFor(withCredentials: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "msgstat" };
    if (!withCredentials) return headers;
    for (const [name, value] of this.options.headers) headers[name.toLowerCase()] = value;
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    return headers;
  }

  /** One request: a JSON body, a redirect to follow, or an AttemptError. */
  private async attempt(origin: string, path: string, withCredentials: boolean): Promise<JsonResponse | { location: string }> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    const logLine = (outcome: string) =>
      this.options.log?.(`GET ${inlineSafe(origin + path)} -> ${outcome} (${Math.round(performance.now() - started)} ms)`);
    let response: Dispatcher.ResponseData;
    try {
      // The agent is given origin and path apart: a URL string would be normalised, turning an id
      // of ".." (sent as %2E%2E) back into a dot segment that climbs to another endpoint.
      response = await this.agent.request({
        origin,
        path,
        method: "GET",
        headers: this.headersFor(withCredentials),
        signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    } catch (error) {
      throw this.networkFailure(error, timeout, logLine);
    }
    const { statusCode, headers } = response;
    let raw: Buffer;
    try {
      raw = await this.readBody(response.body, headers["content-length"]);
    } catch (error) {
      throw this.networkFailure(error, timeout, logLine);
    }
    logLine(String(statusCode));
    return this.interpret(statusCode, headers, raw, path);
  }

  private networkFailure(error: unknown, timeout: AbortSignal, logLine: (s: string) => void): Error {
    if (this.options.signal?.aborted) return this.options.signal.reason as Error;
    if (error instanceof AttemptError) return error;
    if (timeout.aborted) {
      logLine("timeout");
      return new AttemptError(`no complete response within ${this.options.timeoutMs / 1000} s (--timeout)`, true, undefined);
    }
    const code = (error as { code?: string }).code;
    const text = describeNetworkError(error);
    logLine(code ?? "error");
    return new AttemptError(text, isRetryableNetworkError(error) || code === undefined, undefined);
  }

  private async readBody(body: Dispatcher.ResponseData["body"], declaredLength: string | string[] | undefined): Promise<Buffer> {
    const cap = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
    const tooLarge = () => new AttemptError("body too large", false, new ResponseError(`the response body is larger than ${cap / 1024 / 1024} MiB, more than any page of this API`));
    if (typeof declaredLength === "string" && Number(declaredLength) > cap) {
      body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > cap) {
        body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }

  private interpret(status: number, headers: Record<string, string | string[] | undefined>, raw: Buffer, path: string): JsonResponse | { location: string } {
    const location = headers.location;
    if (status >= 300 && status < 400 && typeof location === "string") return { location };
    const contentType = String(headers["content-type"] ?? "");
    if (status >= 200 && status < 300) return { status, body: parseJsonBody(raw, contentType, path) };
    const serverMessage = serverMessageOf(raw, contentType);
    const said = serverMessage ? `: ${serverMessage}` : "";
    const statusText = `HTTP ${status}${said}`;
    if (RETRYABLE_STATUSES.has(status)) {
      const retryAfterMs = parseRetryAfter(String(headers["retry-after"] ?? ""), Date.now());
      throw new AttemptError(statusText, true, undefined, retryAfterMs);
    }
    const subject = `GET ${inlineSafe(path)}`;
    if (status === 401 || status === 403) {
      const error = new AuthError(`not authorised: ${subject} answered ${statusText}`, status, serverMessage);
      throw new AttemptError(statusText, false, error.withHint("Check the token (--token or MSGSTAT_TOKEN) or the headers given with -H."));
    }
    if (status === 404) throw new AttemptError(statusText, false, new NotFoundError(`not found: ${subject} answered ${statusText}`, status, serverMessage));
    throw new AttemptError(statusText, false, new ServiceError(`${subject} answered ${statusText}`, status, serverMessage));
  }
}

function parseJsonBody(raw: Buffer, contentType: string, path: string): unknown {
  const where = `the response to GET ${inlineSafe(path)}`;
  if (contentType !== "" && !/[/+]json\b/i.test(contentType)) {
    throw new AttemptError("not JSON", false, new ResponseError(`${where} is ${inlineSafe(contentType.split(";")[0] ?? contentType)}, not JSON`));
  }
  if (raw.length === 0) throw new AttemptError("empty", false, new ResponseError(`${where} has an empty body, not JSON`));
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AttemptError("bad JSON", false, new ResponseError(`${where} is not valid JSON (${inlineSafe(reason)}); it may have been cut short`));
  }
}

/** The server's own words from an error body, if it sent JSON with message/error/detail. */
function serverMessageOf(raw: Buffer, contentType: string): string | undefined {
  if (raw.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    const kind = contentType.split(";")[0]?.trim() || "unknown type";
    return `the body was not JSON (${inlineSafe(kind)}, ${raw.length} bytes)`;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const body = parsed as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  // The prose first; a short code such as "campaign_not_found" after it, in brackets.
  const prose = [text(body.message), text(body.detail)].filter((part) => part !== undefined);
  const code = text(body.error);
  const said = [...new Set(prose)].join(" ");
  const words = said !== "" ? (code && !said.includes(code) ? `${said} (${code})` : said) : code;
  return words !== undefined ? inlineSafe(words.slice(0, 500)) : undefined;
}

function describeNetworkError(error: unknown): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  const message = err.cause?.message ?? err.message ?? String(error);
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset by the server",
    ENOTFOUND: "host not found (DNS)",
    EAI_AGAIN: "DNS lookup failed",
    UND_ERR_SOCKET: "connection closed before the response was complete",
    UND_ERR_HEADERS_TIMEOUT: "timed out waiting for response headers",
    UND_ERR_BODY_TIMEOUT: "timed out waiting for the response body",
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "response body cut short",
  };
  const phrase = (code && known[code]) ?? inlineSafe(message);
  return code ? `${phrase} (${code})` : phrase;
}
