// Global flags, environment variables and the chosen profile, resolved (flag > environment >
// profile > built-in default) and checked into what the HTTP client needs. Every problem here is
// found before any request is sent.
import type { ClientOptions } from "../../http/client.js";
import { UsageError } from "../../core/errors.js";
import { checkHeaderName, checkHeaderRole, checkHeaderValue, isLoopback, type Source } from "../../config/keys.js";
import { resolveProxy, resolveTrust } from "../../config/network.js";
import { DEFAULT_PROFILE } from "../../config/config-file.js";
import { defaultProfileUnset, profilesWithBaseUrl, type Profile } from "../../config/profile.js";
import { proxyFor } from "../../http/proxy.js";
import { redact } from "../../config/redact.js";
import type { RunSettings, Settings } from "../../config/settings.js";
import { resolveToken, type TokenChoice, type TokenSourceKind } from "../../config/token.js";
import type { GlobalOptions } from "./global-options.js";

export type ClientSettings = Omit<ClientOptions, "signal" | "log" | "warn">;

/** What a run's requests carry, for the advice on a 401 or 403 (advice.ts). */
export interface Credentials {
  /** Where the token sent comes from; none is sent without one. */
  token?: TokenSourceKind;
  /** -H headers were given (they may carry a credential of another scheme). */
  headers: boolean;
  /** The options that chose this profile and URL, for a command to repeat: " --profile P", " --base-url U". */
  again: string;
}

export interface SettingsIo {
  signal?: AbortSignal;
  /** A one-line note for a person on stderr (a token withheld, a keyring that did not answer). */
  note: (line: string) => void;
  /** With --verbose: where each setting came from. */
  log?: (line: string) => void;
  /** The most the first retry waits, in ms (full jitter, doubling): 500 unless a test shortens it. */
  retryBaseMs?: number;
}

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon > 0 ? text.slice(0, colon).trim() : "";
  // Only the name is ever echoed back: the value may be a credential.
  if (checkHeaderName(name) !== undefined)
    throw new UsageError(`-H expects "Name: value"; got a header without a valid name`);
  const role = checkHeaderRole(name);
  if (role !== undefined) throw new UsageError(`-H ${name}: ${role}`);
  const value = text.slice(colon + 1).trim();
  const problem = checkHeaderValue(value);
  if (problem !== undefined) throw new UsageError(`-H ${name}: the value ${problem}`);
  return [name, value];
}

/** The profile's headers, each replaced by a -H of the same name. */
function mergeHeaders(
  fromProfile: Array<[string, string]>,
  fromFlags: Array<[string, string]>,
): Array<[string, string]> {
  const named = new Set(fromFlags.map(([name]) => name.toLowerCase()));
  return [...fromProfile.filter(([name]) => !named.has(name.toLowerCase())), ...fromFlags];
}

export async function clientSettings(
  run: RunSettings<Partial<GlobalOptions>>,
  io: SettingsIo,
): Promise<ClientSettings & { credentials: Credentials }> {
  const { given: raw, env } = run;
  const settings = run.resolved();
  if (settings.baseUrl === undefined) {
    throw new UsageError(
      "no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat " +
        "config set base-url <url>)",
    ).withHint(noServiceUrlHint(settings.profile));
  }
  const baseUrl = new URL(settings.baseUrl.value.trim());
  const flagHeaders = (raw.header ?? []).map(parseHeader);
  const choice = await resolveToken({ ...raw }, env, settings, { ...io, env });
  if (choice.withheld !== undefined) io.note(choice.withheld);
  const proxy = resolveProxy(settings, env);
  // The profile's headers are not secret (the config file refuses those that look it); -H ones may be.
  // Over plain http, a proxy sees them as anyone on the path would; this machine's addresses reach
  // no proxy but one on this machine (http/proxy.ts).
  const sendsCredentials = choice.token !== undefined || flagHeaders.length > 0;
  if (sendsCredentials && baseUrl.protocol === "http:" && !isLoopback(baseUrl.hostname) && !raw.allowInsecureHttp) {
    throw new UsageError(
      `refusing to send credentials over plain http:// to ${baseUrl.hostname}: anyone on the network ` +
        `path could read them`,
    ).withHint("Use https://, or pass --allow-insecure-http if this network is trusted.");
  }
  if (
    proxyFor(baseUrl.origin, proxy) !== undefined &&
    flagHeaders.some(([name]) => name.toLowerCase() === "proxy-authorization")
  ) {
    throw new UsageError(
      "-H Proxy-Authorization: give the proxy's user name and password in its URL instead " +
        "(http://user:password@proxy:port)",
    );
  }
  if (settings.profile.exists) io.log?.(describeSettings(settings, choice));
  const again =
    (settings.profile.chosenBy.kind === "flag" ? ` --profile ${settings.profile.name}` : "") +
    (settings.baseUrl.from.kind === "flag" ? ` --base-url ${settings.baseUrl.value.trim()}` : "");
  return {
    credentials: { token: choice.source, headers: flagHeaders.length > 0, again },
    baseUrl,
    token: choice.token,
    headers: mergeHeaders(settings.profile.headers, flagHeaders),
    timeoutMs: settings.timeout.value * 1000,
    retries: settings.retries.value,
    retryBaseMs: io.retryBaseMs ?? 500,
    network: { proxy, ca: await resolveTrust(settings, env) },
  };
}

/**
 * What to do without a URL: a profile that has one is named (after `sandbox --save-profile` with a default
 * profile already set, the sandbox's is the one); with none anywhere, how to start the sandbox and use it.
 */
function noServiceUrlHint(profile: Profile): string {
  const others = profilesWithBaseUrl(profile.config).filter((name) => name !== profile.name);
  const [first] = others;
  if (first !== undefined && others.length === 1)
    return `Profile "${first}" has one: add --profile ${first} (or export MSGSTAT_PROFILE=${first}).`;
  const named = others.map((name) => `"${name}"`).join(", ");
  if (first !== undefined) return `Profiles ${named} have one: add --profile <name>, e.g. --profile ${first}.`;
  const madeDefault = profile.name === DEFAULT_PROFILE && defaultProfileUnset(profile.config);
  return (
    "To try msgstat against its built-in sandbox: msgstat sandbox --save-profile, then msgstat " +
    `${madeDefault ? "" : "--profile sandbox "}messages cmp-spring-sale`
  );
}

/** One line for --verbose: the profile, and where the URL, the token (redacted) and the timeout came from. */
function describeSettings(settings: Settings, choice: TokenChoice): string {
  const { profile } = settings;
  const from = (source: Source | undefined) =>
    source === undefined ? "none" : source.kind === "profile" ? "profile" : source.label;
  const token =
    choice.token !== undefined
      ? `${redact(choice.token)} ` +
        `(${choice.source === "flag" || choice.source === "environment" ? choice.where : choice.source})`
      : "none";
  const chosen = profile.chosenBy.kind === "default" ? "" : ` (${profile.chosenBy.label})`;
  return (
    `settings: profile ${profile.name}${chosen} of ${profile.paths.configFile}; base URL: ` +
    `${from(settings.baseUrl?.from)}; token: ${token}; timeout: ${settings.timeout.value} s ` +
    `(${from(settings.timeout.from)})`
  );
}
