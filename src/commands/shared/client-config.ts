// Global options and environment, validated into what the HTTP client needs. Every problem here is a
// usage error found before any request is sent.
import type { ClientOptions } from "../../http/client.js";
import { UsageError } from "../../core/errors.js";
import type { GlobalOptions } from "./global-options.js";

export type ClientSettings = Omit<ClientOptions, "signal" | "log" | "warn">;

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

// A header value with a control character cannot be sent; saying so is better than undici's refusal.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon > 0 ? text.slice(0, colon).trim() : "";
  // Only the name is ever echoed back: the value may be a credential.
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`-H expects "Name: value"; got a header without a valid name`);
  const value = text.slice(colon + 1).trim();
  if (CONTROL.test(value)) throw new UsageError(`-H ${name}: the value may not contain control characters or line breaks`);
  return [name, value];
}

export function clientSettings(raw: Partial<GlobalOptions>, env: Record<string, string | undefined>): ClientSettings {
  const baseText = raw.baseUrl ?? env.MSGSTAT_BASE_URL;
  if (baseText === undefined || baseText.trim() === "") {
    throw new UsageError("no service URL: pass --base-url <url> or set MSGSTAT_BASE_URL").withHint("To try msgstat against its built-in sandbox: msgstat sandbox, then --base-url with the URL it prints.");
  }
  let baseUrl: URL;
  try {
    baseUrl = new URL(baseText.trim());
  } catch {
    throw new UsageError("--base-url is not a URL (expected e.g. https://api.example.com/v2)");
  }
  if (baseUrl.protocol !== "http:" && baseUrl.protocol !== "https:") throw new UsageError(`--base-url must be http:// or https://, not ${baseUrl.protocol}//`);
  if (baseUrl.username !== "" || baseUrl.password !== "") {
    throw new UsageError("--base-url may not carry a user name or password").withHint("Pass credentials with --token (or MSGSTAT_TOKEN) or -H instead, so they are never shown in URLs or logs.");
  }
  if (baseUrl.search !== "" || baseUrl.hash !== "") throw new UsageError("--base-url may not carry a query or fragment");

  const token = raw.token ?? (env.MSGSTAT_TOKEN !== "" ? env.MSGSTAT_TOKEN : undefined);
  if (token !== undefined && CONTROL.test(token)) throw new UsageError("the token may not contain control characters or line breaks (check --token or MSGSTAT_TOKEN)");
  const headers = (raw.header ?? []).map(parseHeader);
  const sendsCredentials = token !== undefined || headers.length > 0;
  if (sendsCredentials && baseUrl.protocol === "http:" && !isLoopback(baseUrl.hostname) && !raw.allowInsecureHttp) {
    throw new UsageError(`refusing to send credentials over plain http:// to ${baseUrl.hostname}: anyone on the network path could read them`).withHint("Use https://, or pass --allow-insecure-http if this network is trusted.");
  }

  // --timeout and --retries were checked as they were read (option-values.ts).
  const timeout = raw.timeout ?? 30;
  const retryCount = raw.retries ?? 3;
  // For tests and the benchmark: a shorter backoff than people get.
  const retryBase = Number(env.MSGSTAT_RETRY_BASE_MS ?? 500);

  return {
    baseUrl,
    token,
    headers,
    timeoutMs: timeout * 1000,
    retries: retryCount,
    retryBaseMs: Number.isFinite(retryBase) && retryBase >= 0 ? retryBase : 500,
  };
}
