// Every setting a profile may hold, declared once: its key in the config file, the environment
// variable and global flag that override it, its built-in default, and the rule a value must keep.
// The same checks serve flags, environment variables, the config file and `msgstat config set`.
import path from "node:path";
import {
  CONCURRENCY_RANGE,
  describeNumber,
  numberWithin,
  RETRIES_RANGE,
  TIMEOUT_RANGE,
  type Range,
} from "../core/numbers.js";
import { TimeZone, ZONE_HINT } from "../core/time.js";
import { isLoopback, isLoopbackUrl } from "../http/proxy.js";
import { splitCommand } from "./command-line.js";

export type SettingName =
  | "base-url"
  | "timeout"
  | "retries"
  | "proxy"
  | "ca-file"
  | "tz"
  | "token-command"
  | "token-command-timeout"
  | "concurrency"
  | "campaigns"
  | "country-code"
  | "quiet";

/** Where a value was read: it is named in every complaint about it. */
export type SourceKind = "flag" | "environment" | "profile" | "default";

export interface Source {
  kind: SourceKind;
  /** "--timeout", "MSGSTAT_TIMEOUT", 'timeout of profile "staging"', "built-in default". */
  label: string;
}

/** A value as the config file stores it, or why the text is not one. */
export type Checked = { value: string | number } | { reason: string; hint?: string };

export interface SettingKey {
  name: SettingName;
  about: string;
  env?: string;
  /** The commander attribute of the global flag, when there is one (or will be: --proxy, --ca-file, --tz). */
  flag?: string;
  builtIn?: string | number;
  check(text: string, source: SourceKind): Checked;
}

/** A number by the same rule, and in the same words, as a flag's (core/numbers.ts). */
function number(whole: boolean, range: Range) {
  return (text: string): Checked => {
    const value = numberWithin(text, whole, range);
    return value === undefined ? { reason: `must be ${describeNumber(whole, range)}, not "${text}"` } : { value };
  };
}

export function checkBaseUrl(text: string): Checked {
  const trimmed = text.trim();
  // "localhost:8080" parses as a URL of scheme "localhost:"; "10.0.0.5:8080" not at all. Both mean a host.
  if (!trimmed.includes("://")) {
    const guess = schemeFor(trimmed);
    return guess === undefined
      ? { reason: "is not a URL (expected e.g. https://api.example.com/v2)" }
      : { reason: "has no scheme (http:// or https://)", hint: `Did you mean ${guess}?` };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { reason: "is not a URL (expected e.g. https://api.example.com/v2)" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { reason: `must be http:// or https://, not ${url.protocol}//` };
  if (url.username !== "" || url.password !== "") {
    return {
      reason: "may not carry a user name or password",
      hint:
        "Pass credentials with msgstat auth login, MSGSTAT_TOKEN or -H instead, so they are never shown " +
        "in URLs or logs.",
    };
  }
  if (url.search !== "" || url.hash !== "") return { reason: "may not carry a query or fragment" };
  return { value: text.trim() };
}

/** A scheme-less host[:port][/path] with the scheme it most likely wants: http for this machine, https elsewhere. */
function schemeFor(text: string): string | undefined {
  if (text === "" || /\s/.test(text)) return undefined;
  try {
    const { hostname } = new URL(`http://${text}`);
    return `${isLoopback(hostname) ? "http" : "https"}://${text}`;
  } catch {
    return undefined;
  }
}

// isLoopback lives with the proxy routes (http/proxy.ts), which need it too.
export { checkProxy, isLoopback, isLoopbackUrl };

/** A base URL as one string for comparing: the origin and the path prefix without trailing slashes. */
export function baseUrlIdentity(text: string): string {
  const url = new URL(text.trim());
  return url.origin + url.pathname.replace(/\/+$/, "");
}

function checkProxy(text: string, source: SourceKind): Checked {
  const trimmed = text.trim();
  // As curl: --proxy "" means no proxy at all, and a proxy given without a scheme is http://.
  if (trimmed === "" && source === "flag") return { value: "" };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { reason: "is not a URL (expected e.g. http://proxy.example.com:3128)" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { reason: `must be an http:// or https:// proxy URL, not ${url.protocol}//` };
  if (url.hostname === "") return { reason: "names no host (expected e.g. http://proxy.example.com:3128)" };
  if (source === "profile" && (url.username !== "" || url.password !== "")) {
    return {
      reason: "may not carry a user name or password: no credential is kept in the config file",
      hint: "Give a proxy that needs credentials with HTTPS_PROXY (or --proxy) for the session instead.",
    };
  }
  return { value: withScheme };
}

function checkTimeZone(text: string): Checked {
  const zone = text.trim();
  if (zone.toLowerCase() === "local" || (zone !== "" && TimeZone.named(zone) !== undefined)) return { value: zone };
  return {
    reason: `"${text}" is not a time zone: ${ZONE_HINT}`,
  };
}

function checkCaFile(text: string, source: SourceKind): Checked {
  if (text.trim() === "") return { reason: "needs a file name (a PEM file of certificates)" };
  // In the file a path must not depend on where msgstat is run from; `config set` makes it absolute.
  if (source === "profile" && !path.isAbsolute(text)) return { reason: `must be an absolute path, not "${text}"` };
  return { value: text };
}

function checkTokenCommand(text: string): Checked {
  const split = splitCommand(text);
  return "words" in split ? { value: text.trim() } : { reason: split.reason, hint: split.hint };
}

/** Longest list `campaigns` holds: one find or stats reads each of them. */
export const MAX_PROFILE_CAMPAIGNS = 200;

/** Campaign ids, comma-separated (spaces around them dropped, a repeated one kept once): `msgstat find`'s default. */
export function checkCampaigns(text: string): Checked {
  const ids = [
    ...new Set(
      text
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== ""),
    ),
  ];
  if (ids.length === 0) return { reason: "needs at least one campaign id, e.g. cmp-spring-sale,cmp-otp-alerts" };
  if (ids.length > MAX_PROFILE_CAMPAIGNS) return { reason: `holds at most ${MAX_PROFILE_CAMPAIGNS} campaign ids` };
  // The ids become path segments (encoded); a control character or a slash is a pasting mistake, never an id.
  const bad = ids.find((id) => /[\u0000-\u001f\u007f/\\]/.test(id));
  if (bad !== undefined) return { reason: `has ${JSON.stringify(bad)}, which holds a control character or a slash` };
  return { value: ids.join(",") };
}

/** A country calling code as a person gives it: 1 to 3 digits, `+44` and `0044` read as 44. */
export function checkCountryCode(text: string): Checked {
  const code = /^(?:\+|00)?\s*([1-9][0-9]{0,2})$/.exec(text.trim())?.[1];
  return code === undefined
    ? { reason: `must be a country calling code of 1 to 3 digits (44, +44), not "${text}"` }
    : { value: code };
}

const SWITCH_WORDS: Readonly<Record<string, string>> = {
  true: "true",
  yes: "true",
  on: "true",
  "1": "true",
  false: "false",
  no: "false",
  off: "false",
  "0": "false",
};

/** On or off, as people write it in a file or a variable (true, yes, on, 1; false, no, off, 0): "true" or "false". */
function checkSwitch(text: string): Checked {
  const value = SWITCH_WORDS[text.trim().toLowerCase()];
  return value === undefined ? { reason: `must be true or false (yes/no, on/off, 1/0), not "${text}"` } : { value };
}

export const SETTING_KEYS: readonly SettingKey[] = [
  {
    name: "base-url",
    about: "the service's base URL, may include a path prefix",
    env: "MSGSTAT_BASE_URL",
    flag: "baseUrl",
    check: checkBaseUrl,
  },
  {
    name: "timeout",
    about: "seconds allowed for each request, connect to last byte",
    env: "MSGSTAT_TIMEOUT",
    flag: "timeout",
    builtIn: 30,
    check: number(false, TIMEOUT_RANGE),
  },
  {
    name: "retries",
    about: "retries of a failed request (network errors, 408, 429, 5xx)",
    env: "MSGSTAT_RETRIES",
    flag: "retries",
    builtIn: 3,
    check: number(true, RETRIES_RANGE),
  },
  {
    name: "proxy",
    about: "HTTP proxy for requests to the service, after HTTPS_PROXY and HTTP_PROXY (NO_PROXY applies to it)",
    env: "MSGSTAT_PROXY",
    flag: "proxy",
    check: checkProxy,
  },
  {
    name: "ca-file",
    about: "PEM file of certificates trusted besides the default ones",
    env: "MSGSTAT_CA_FILE",
    flag: "caFile",
    check: checkCaFile,
  },
  {
    name: "tz",
    about: "time zone for times shown to people: an IANA name, UTC or local",
    env: "MSGSTAT_TZ",
    flag: "tz",
    builtIn: "local",
    check: checkTimeZone,
  },
  {
    name: "token-command",
    about: "a command that prints the token on stdout (run without a shell)",
    check: checkTokenCommand,
  },
  {
    name: "token-command-timeout",
    about: "seconds token-command may take",
    builtIn: 30,
    check: number(false, { above: 0, max: 600, unit: "seconds" }),
  },
  {
    name: "concurrency",
    about: "campaigns fetched at once when a command names several (messages a b c)",
    env: "MSGSTAT_CONCURRENCY",
    flag: "concurrency",
    builtIn: 4,
    check: number(true, CONCURRENCY_RANGE),
  },
  {
    name: "campaigns",
    about: "campaign ids, comma-separated, that find and export read when none are named",
    check: checkCampaigns,
  },
  {
    name: "country-code",
    about: "country calling code of a national number typed without one (07700 900123 with 44)",
    env: "MSGSTAT_COUNTRY_CODE",
    flag: "countryCode",
    check: checkCountryCode,
  },
  {
    name: "quiet",
    about: "true: nothing on stderr but errors (no notes, warnings or progress), as --quiet",
    env: "MSGSTAT_QUIET",
    builtIn: "false",
    check: checkSwitch,
  },
];

export function settingKey(name: string): SettingKey | undefined {
  return SETTING_KEYS.find((key) => key.name === name);
}

// Headers a profile may set are the non-secret ones. One rule for names that carry credentials: the
// README's words (token, secret, key, auth, passw) anywhere in the name, which covers Authorization,
// X-API-Key, X-Access-Key, Ocp-Apim-Subscription-Key, Private-Key, X-Session-Key, and the other words
// such headers use (cookie, credential, session, signature). A harmless name caught by it can still be
// given with -H for the session.
const SECRET_HEADER = /token|secret|key|auth|passw|cookie|credential|session|signature/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What a header value cannot hold, found here rather than refused by Node's client at the request: control
// characters (they would end the header), and characters above U+00FF (a header value is bytes,
// Latin-1 at most: `€` cannot be sent). The problem is named, never the value: it may be a credential.
export const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

export function checkHeaderName(name: string): string | undefined {
  return HEADER_NAME.test(name) ? undefined : "is not a valid header name";
}

// Headers that frame the message or steer the connection, which msgstat's HTTP client sets itself:
// one given by hand desynchronises the connection (a Content-Length on a GET makes the server read the
// next request on it as this one's body).
const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "expect",
  "te",
  "trailer",
]);

/** Why a header cannot be given by hand (-H or a profile's), if it cannot. */
export function checkHeaderRole(name: string): string | undefined {
  return FRAMING_HEADERS.has(name.toLowerCase())
    ? "frames the request or steers its connection, which msgstat does itself; it cannot be given"
    : undefined;
}

export function checkHeaderValue(value: string): string | undefined {
  if (CONTROL.test(value)) return "may not contain control characters or line breaks";
  if (BEYOND_LATIN1.test(value))
    return (
      "may hold only Latin-1 (ISO-8859-1) characters, which is all an HTTP header can carry; it has " +
      "one beyond them"
    );
  return undefined;
}

const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * What a token a program printed cannot hold: what no header can, and any character beyond ASCII. A bearer
 * token is ASCII (RFC 6750); a program prints bytes in an encoding msgstat cannot know, and a header value goes
 * out as Latin-1, so an `é` printed in UTF-8 (two bytes) would reach the service as one other byte: a
 * different token, refused with no clue why.
 */
export function checkTokenValue(value: string): string | undefined {
  return (
    checkHeaderValue(value) ??
    (NON_ASCII.test(value)
      ? "has a character beyond ASCII, which a bearer token never holds (RFC 6750) and an HTTP header " +
        "would send as another byte than the one given"
      : undefined)
  );
}

/** A header for the config file: valid, and not one that carries a credential. */
export function checkProfileHeader(name: string, value: string): Checked {
  const problem = checkHeaderName(name) ?? checkHeaderRole(name) ?? checkHeaderValue(value);
  if (problem !== undefined) return { reason: problem };
  if (SECRET_HEADER.test(name)) {
    return {
      reason: "looks like a credential, and no credential is kept in the config file",
      hint:
        "Store a token with msgstat auth login or a token-command; give other secret headers with -H " +
        "for the session.",
    };
  }
  return { value: value.trim() };
}

/** Keys of the config file that people do not set: `auth login` and `auth logout` manage where the token is. */
export const TOKEN_STORE_KEY = "token-store";
export type TokenStore = "keyring" | "file";
/**
 * token-store's value for a profile saved for a service that takes no token (`sandbox --save-profile` without
 * --token): msgstat then knows, rather than guesses from the URL, that requests rightly go without one.
 */
export const NO_TOKEN = "none";

export const ALL_KEY_NAMES = [...SETTING_KEYS.map((key) => key.name), "headers", "headers.<Name>"];
