// The token from the first place that has it: --token, MSGSTAT_TOKEN, then the profile's
// token-command or stored token, with one more rule: a profile's token is sent only to that
// profile's own base URL, never to one a flag or a variable put in its place.
import { CredentialsError, UsageError } from "../core/errors.js";
import { baseUrlIdentity, checkHeaderValue } from "./keys.js";
import type { Env } from "./paths.js";
import type { Profile } from "./profile.js";
import { resolveSetting, type Given, type Resolved, type Settings } from "./settings.js";
import { runTokenCommand } from "./token-command.js";
import { readStoredToken, type StoreIo } from "./token-store.js";

export type TokenSourceKind = "flag" | "environment" | "keyring" | "file" | "token-command";

export interface TokenChoice {
  token?: string;
  source?: TokenSourceKind;
  /** "--token", "MSGSTAT_TOKEN", "the OS keyring", the credentials file, or the command. */
  where?: string;
  /** Why the profile's token is not used for this base URL. */
  withheld?: string;
  /** No token, as the profile was saved: for a service that takes none (token-store "none"), and this is its URL. */
  takesNone?: boolean;
}

/** Whether the profile has a token of its own (a token-command or a stored one). */
export function profileHasToken(profile: Profile): boolean {
  return profile.values["token-command"] !== undefined || profile.tokenStore !== undefined;
}

export async function resolveToken(given: Given, env: Env, settings: Settings, io: StoreIo): Promise<TokenChoice> {
  const checkedToken = (token: string, source: TokenSourceKind, where: string): TokenChoice => {
    const problem = checkHeaderValue(token);
    if (problem !== undefined) throw new UsageError(`the token ${problem} (check ${where})`);
    return { token, source, where };
  };
  if (typeof given.token === "string") return checkedToken(given.token, "flag", "--token");
  if (env.MSGSTAT_TOKEN !== undefined && env.MSGSTAT_TOKEN !== "")
    return checkedToken(env.MSGSTAT_TOKEN, "environment", "MSGSTAT_TOKEN");
  const { profile } = settings;
  if (!profileHasToken(profile)) return takesNoToken(profile, settings.baseUrl) ? { takesNone: true } : {};
  const withheld = withheldFrom(profile, settings.baseUrl);
  if (withheld !== undefined) return { withheld };
  const command = profile.values["token-command"];
  if (typeof command === "string") {
    const timeoutSeconds = Number(resolveSetting("token-command-timeout", given, env, profile)!.value);
    const token = await runTokenCommand({ profile: profile.name, text: command, timeoutSeconds }, env, io.signal);
    return { token, source: "token-command", where: command };
  }
  const stored = await readStoredToken(profile, io);
  if (stored === undefined) return {};
  const problem = checkHeaderValue(stored.token);
  if (problem !== undefined)
    throw new CredentialsError(`the stored token of profile "${profile.name}" ${problem}`).withHint(
      `Store it again: msgstat auth login --profile ${profile.name}`,
    );
  return { token: stored.token, source: stored.store, where: stored.where };
}

/** The profile was saved for a service that takes no token, and the base URL in use is that service's. */
function takesNoToken(profile: Profile, baseUrl: Resolved<string> | undefined): boolean {
  const own = profile.values["base-url"];
  return (
    profile.takesNoToken === true &&
    typeof own === "string" &&
    baseUrl !== undefined &&
    baseUrlIdentity(baseUrl.value) === baseUrlIdentity(own)
  );
}

/** Why the profile's own token must not go to this base URL, if it must not. */
export function withheldFrom(profile: Profile, baseUrl: Resolved<string> | undefined): string | undefined {
  const own = profile.values["base-url"];
  if (typeof own !== "string") {
    return (
      `profile "${profile.name}" has a token but no base-url, so its token is sent nowhere; set the ` +
      `URL it belongs to: msgstat config set --profile ${profile.name} base-url <url>`
    );
  }
  if (baseUrl === undefined || baseUrl.from.kind === "profile") return undefined;
  if (baseUrlIdentity(baseUrl.value) === baseUrlIdentity(own)) return undefined;
  return (
    `not sending the token of profile "${profile.name}" to ${baseUrl.value} (from ` +
    `${baseUrl.from.label}): it belongs to ${own}`
  );
}
