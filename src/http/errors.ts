// Typed HTTP errors. Each names the request (method, host and path: never a header, so never a
// credential) and what went wrong; the command layer adds what to try (commands/shared/advice.ts).
import { durationText } from "../core/duration.js";
import { AuthError, NotFoundError, ResponseError, ServiceError } from "../core/errors.js";
import { inlineSafe } from "../core/text.js";
import { proxyName } from "./proxy.js";

/** One request as errors and the verbose log name it. */
export interface RequestTarget {
  readonly method: "GET";
  /** `http://host:port`: a URL's origin never holds a user name or password. */
  readonly origin: string;
  /** Path and query, as sent. */
  readonly path: string;
}

export function describeTarget(target: RequestTarget): string {
  return `${target.method} ${inlineSafe(target.origin + target.path)}`;
}

/** Why one attempt failed, as data: the retry policy decides on it, `failureError` words it. */
export type Failure =
  | {
      readonly kind: "status";
      readonly status: number;
      readonly serverMessage?: string;
      readonly retryAfterMs?: number;
    }
  | { readonly kind: "network"; readonly code?: string; readonly text: string; readonly proxy?: ProxyTrouble }
  /** `proxy`: the request went through this one (host:port), which may be what never answered. */
  | { readonly kind: "timeout"; readonly timeoutMs: number; readonly proxy?: string }
  /** Nothing to retry: the response is unusable as it is (a bad body, a refused redirect). */
  | { readonly kind: "final"; readonly error: ServiceError };

/**
 * A request through a proxy failed: the proxy's name (host:port), and whether it refused (its status) or could not be
 * reached.
 */
export interface ProxyTrouble {
  readonly name: string;
  readonly refused?: number;
  readonly unreachable?: boolean;
  /** A user name or password was in the proxy's URL, so Proxy-Authorization was sent. */
  readonly credentialsSent?: boolean;
}

/** The request failed on the network, by timeout or with a status worth retrying, and retries are spent. */
export class RequestFailedError extends ServiceError {
  constructor(
    readonly target: RequestTarget,
    readonly failure: Exclude<Failure, { kind: "final" }>,
    readonly attempts: number,
    transient: boolean,
  ) {
    const status = failure.kind === "status" ? failure.status : undefined;
    const serverMessage = failure.kind === "status" ? failure.serverMessage : undefined;
    super(
      `${describeTarget(target)} failed after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}: ` +
        `${failureText(failure)}`,
      status,
      serverMessage,
      transient,
    );
  }
}

/** A redirect msgstat will not follow (not http(s), not a URL, a loop, too many). */
export class RedirectError extends ServiceError {}

function failureText(failure: Exclude<Failure, { kind: "final" }>): string {
  switch (failure.kind) {
    case "status":
      return statusText(failure.status, failure.serverMessage);
    case "network":
      return failure.text;
    case "timeout":
      return (
        `no complete response within ${durationText(failure.timeoutMs, { exact: true })}` +
        `${failure.proxy === undefined ? "" : `, through the proxy ${failure.proxy}`}`
      );
  }
}

function statusText(status: number, serverMessage: string | undefined): string {
  return `HTTP ${status}${serverMessage ? `: ${serverMessage}` : ""}`;
}

/** The error for a status that is not worth retrying: 401/403 and 404 get their own exit codes. */
export function statusError(target: RequestTarget, status: number, serverMessage: string | undefined): ServiceError {
  const said = `${describeTarget(target)} answered ${statusText(status, serverMessage)}`;
  if (status === 401 || status === 403) return new AuthError(`not authorised: ${said}`, status, serverMessage);
  if (status === 404) return new NotFoundError(`not found: ${said}`, status, serverMessage);
  return new ServiceError(said, status, serverMessage);
}

/** A response that arrived but is not a JSON body msgstat can read. */
export function bodyError(target: RequestTarget, problem: string): ResponseError {
  return new ResponseError(`the response to ${describeTarget(target)} ${problem}`);
}

/** The server's own words from an error body, if it sent JSON with message/error/detail. */
export function serverMessageOf(raw: Buffer, contentType: string): string | undefined {
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

const NETWORK_PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the server",
  ENOTFOUND: "host not found (DNS)",
  EAI_AGAIN: "DNS lookup failed",
  ETIMEDOUT: "timed out",
};

// Node's client says ECONNRESET both for a reset and for a server that closed the connection before
// its response was whole ("socket hang up" before any of it, "aborted" part way): the latter is said so.
const CLOSED_EARLY: ReadonlySet<string> = new Set(["socket hang up", "aborted"]);
const CLOSED_EARLY_PHRASE = "connection closed before the response was complete";

/** A proxy's own refusal: its answer to CONNECT was not 2xx, or it answered a forwarded request with 407. */
export class ProxyRefusedError extends Error {
  readonly code = "ERR_PROXY_REFUSED";
  constructor(readonly status: number) {
    super(`the proxy answered HTTP ${status}`);
  }
}

/** What is wrong with a server's certificate, by the code Node gives its check. */
export type CertificateProblem =
  "self-signed" | "unknown issuer" | "expired" | "not yet valid" | "name mismatch" | "revoked" | "untrusted";

const CERTIFICATE_PROBLEMS: Readonly<Record<string, CertificateProblem>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "unknown issuer",
  UNABLE_TO_GET_ISSUER_CERT: "unknown issuer",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "unknown issuer",
  CERT_HAS_EXPIRED: "expired",
  CERT_NOT_YET_VALID: "not yet valid",
  ERR_TLS_CERT_ALTNAME_INVALID: "name mismatch",
  CERT_REVOKED: "revoked",
  CERT_UNTRUSTED: "untrusted",
  CERT_SIGNATURE_FAILURE: "untrusted",
  CERT_REJECTED: "untrusted",
};

const CERTIFICATE_PHRASES: Readonly<Record<CertificateProblem, string>> = {
  "self-signed": "the server's certificate is self-signed, and not trusted here",
  "unknown issuer": "the server's certificate was issued by an authority not trusted here",
  expired: "the server's certificate has expired",
  "not yet valid": "the server's certificate is not valid yet",
  "name mismatch": "the server's certificate is for another host name",
  revoked: "the server's certificate was revoked",
  untrusted: "the server's certificate is not trusted",
};

export function certificateProblem(code: string | undefined): CertificateProblem | undefined {
  return code === undefined ? undefined : CERTIFICATE_PROBLEMS[code];
}

// What OpenSSL says when the bytes that came back to its hello are not TLS: "HTTP/1.1 400 ..." read as a record.
const NOT_TLS_CODES: ReadonlySet<string> = new Set([
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_SSL_PACKET_LENGTH_TOO_LONG",
  "ERR_SSL_UNKNOWN_PROTOCOL",
  "ERR_SSL_RECORD_LAYER_FAILURE",
]);

/** An https:// request answered by something that does not speak TLS, a plain-HTTP port most often. */
export function isNotTls(code: string | undefined): boolean {
  return code !== undefined && NOT_TLS_CODES.has(code);
}

// Failures to reach a proxy itself; through a proxy, these are about the proxy rather than the service.
const CONNECT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * A network error as a failure: its code (Node's or the system's) and a phrase for it. `via`, the
 * proxy the request went through, if any: it is named by host:port, never with its credentials.
 */
export function networkFailure(error: unknown, via?: URL): Failure {
  const err = error as NetworkError | null;
  const message = err?.cause?.message ?? err?.message ?? String(error);
  const code = tlsCodeIn(message) ?? err?.code ?? err?.cause?.code;
  const said = (phrase: string) => (code !== undefined ? `${phrase} (${code})` : phrase);
  if (via === undefined) return { kind: "network", code, text: said(phraseOf(err, code)) };
  const proxy = proxyName(via);
  const refused = error instanceof ProxyRefusedError ? error.status : undefined;
  if (refused !== undefined)
    return {
      kind: "network",
      code,
      proxy: { name: proxy, refused, credentialsSent: via.username !== "" || via.password !== "" },
      text:
        `the proxy ${proxy} refused the request: HTTP ` +
        `${refused}${refused === 407 ? " Proxy Authentication Required" : ""}`,
    };
  if (code !== undefined && CONNECT_CODES.has(code))
    return {
      kind: "network",
      code,
      proxy: { name: proxy, unreachable: true },
      text: `could not reach the proxy ${proxy}: ${said(phraseOf(err, code))}`,
    };
  // Through an https:// proxy, a refused certificate may be the proxy's own: Node's error does not say whose.
  const phrase = phraseOf(err, code);
  if (certificateProblem(code) !== undefined && via.protocol === "https:") {
    return {
      kind: "network",
      code,
      proxy: { name: proxy },
      text: said(phrase.replace("the server's certificate", `the certificate of the server or of the proxy ${proxy}`)),
    };
  }
  return { kind: "network", code, proxy: { name: proxy }, text: `${said(phrase)}, through the proxy ${proxy}` };
}

/**
 * A TLS failure met while writing ("write EPROTO ...") carries OpenSSL's own line in its message, where
 * one met while reading has Node's code for it. Node derives that code from OpenSSL's reason
 * ("wrong version number": ERR_SSL_WRONG_VERSION_NUMBER); so does this, so that both read alike.
 */
function tlsCodeIn(message: string): string | undefined {
  const reason = /error:[0-9A-F]+:SSL routines:[^:]*:([a-z0-9 ]+):/.exec(message)?.[1];
  return reason === undefined ? undefined : `ERR_SSL_${reason.toUpperCase().replace(/ /g, "_")}`;
}

type NetworkError = {
  code?: string;
  message?: string;
  /** Node's client: llhttp's reason for a parse error. */
  reason?: string;
  cert?: { subjectaltname?: string };
  cause?: { code?: string; message?: string };
};

function phraseOf(err: NetworkError | null, code: string | undefined): string {
  const problem = certificateProblem(code);
  if (problem === "name mismatch" && err?.cert?.subjectaltname)
    return `the server's certificate is for ${inlineSafe(err.cert.subjectaltname.slice(0, 200))}`;
  if (problem !== undefined) return CERTIFICATE_PHRASES[problem];
  if (isNotTls(code)) return "the server did not answer in TLS: the port may speak plain HTTP";
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- null, or an error without a message
  const message = err?.cause?.message ?? err?.message ?? String(err);
  if (code === "ECONNRESET" && CLOSED_EARLY.has(message)) return CLOSED_EARLY_PHRASE;
  if (code === "ETIMEDOUT" && err?.message?.startsWith("could not connect")) return inlineSafe(err.message);
  // llhttp's own words, as Node's client gives them: "Parse Error: Expected HTTP/, RTSP/ or ICE/".
  if (code === "HPE_INVALID_CONSTANT") return "the reply is not HTTP: it does not begin with HTTP/1.1";
  if (code?.startsWith("HPE_"))
    return `the response breaks HTTP/1.1: ${inlineSafe(err?.reason ?? message.replace(/^Parse Error: /, ""))}`;
  return (code !== undefined ? NETWORK_PHRASES[code] : undefined) ?? inlineSafe(message);
}
