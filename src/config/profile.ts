// Choosing a profile (--profile, else MSGSTAT_PROFILE, else "default") and reading its settings
// from the config file (read once a run: settings.ts), each checked by the same rule as the flag or
// variable that overrides it.
import { closest, didYouMean } from "../core/edit-distance.js";
import { UsageError } from "../core/errors.js";
import { DEFAULT_PROFILE, profileNames, type ConfigFile, type ProfileEntries } from "./config-file.js";
import {
  ALL_KEY_NAMES,
  checkProfileHeader,
  NO_TOKEN,
  settingKey,
  TOKEN_STORE_KEY,
  type SettingName,
  type Source,
  type TokenStore,
} from "./keys.js";
import type { ConfigPaths, Env } from "./paths.js";

export interface Profile {
  name: string;
  /** How it was chosen: --profile, MSGSTAT_PROFILE, or the default. */
  chosenBy: Source;
  /** It is in the config file ("default" may not be, and is then empty). */
  exists: boolean;
  paths: ConfigPaths;
  config: ConfigFile;
  values: Partial<Record<SettingName, string | number>>;
  headers: Array<[string, string]>;
  /** Where `auth login` put its token, if it did. */
  tokenStore?: TokenStore;
  /** Saved for a service that takes no token (token-store "none"): requests to its base-url go without one. */
  takesNoToken?: boolean;
}

export function chosenProfileName(flag: string | undefined, env: Env): { name: string; chosenBy: Source } {
  if (flag !== undefined) return { name: flag, chosenBy: { kind: "flag", label: "--profile" } };
  const fromEnv = env.MSGSTAT_PROFILE;
  if (fromEnv !== undefined && fromEnv !== "")
    return { name: fromEnv, chosenBy: { kind: "environment", label: "MSGSTAT_PROFILE" } };
  return { name: DEFAULT_PROFILE, chosenBy: { kind: "default", label: "the default" } };
}

export interface LoadOptions {
  /**
   * A profile that is not in the file is a usage error (the default one aside), unless the command is about to create
   * it.
   */
  create?: boolean;
  /** Its entries are not checked: `msgstat config` must be able to show and mend a bad one. */
  unchecked?: boolean;
}

export function profileFrom(
  config: ConfigFile,
  paths: ConfigPaths,
  name: string,
  chosenBy: Source,
  options: LoadOptions = {},
): Profile {
  const entries = config.profiles[name];
  if (entries === undefined && name !== DEFAULT_PROFILE && !options.create)
    throw unknownProfile(config, name, chosenBy);
  const profile: Profile = { name, chosenBy, exists: entries !== undefined, paths, config, values: {}, headers: [] };
  if (!options.unchecked) for (const [key, value] of Object.entries(entries ?? {})) readEntry(profile, key, value);
  return profile;
}

/** What is wrong with each entry of the profile as the file holds it (`config list` shows them all, then says so). */
export function entryProblems(profile: Profile): UsageError[] {
  const problems: UsageError[] = [];
  const scratch: Profile = { ...profile, values: {}, headers: [] };
  for (const [key, value] of Object.entries(profile.config.profiles[profile.name] ?? {})) {
    try {
      readEntry(scratch, key, value);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error);
    }
  }
  return problems;
}

/** No default profile is set: none in the file, or an empty one. `sandbox --save-profile` then makes one. */
export function defaultProfileUnset(config: ConfigFile): boolean {
  const entries = config.profiles[DEFAULT_PROFILE];
  return entries === undefined || Object.keys(entries).length === 0;
}

/** The profiles of the file that hold a base-url, by name. */
export function profilesWithBaseUrl(config: ConfigFile): string[] {
  return profileNames(config).filter((name) => typeof config.profiles[name]?.["base-url"] === "string");
}

function unknownProfile(config: ConfigFile, name: string, chosenBy: Source): UsageError {
  const known = profileNames(config);
  const listed =
    known.length > 0 ? `known profiles: ${known.join(", ")}` : `no profile is saved yet (config file: ${config.path})`;
  const error = new UsageError(`unknown profile "${name}" (${chosenBy.label}); ${listed}`);
  // Offered as it would be given: --profile prod, MSGSTAT_PROFILE=prod.
  const given = (near: string) =>
    chosenBy.kind === "flag"
      ? `${chosenBy.label} ${near}`
      : chosenBy.kind === "environment"
        ? `${chosenBy.label}=${near}`
        : near;
  const guess = didYouMean(closest(name, known).map(given));
  if (guess !== undefined) error.withHint(guess);
  return error.withHint(
    `Create it with: msgstat auth login --profile ${name} --base-url <url>, or msgstat config set ` +
      `--profile ${name} base-url <url>`,
  );
}

function readEntry(profile: Profile, key: string, value: unknown): void {
  const where = `${key} of profile "${profile.name}"`;
  const fail = (reason: string, hint?: string) => {
    const error = new UsageError(`${where} ${reason}`);
    if (hint) error.withHint(hint);
    return error.withHint(`It is in ${profile.paths.configFile}; change it with msgstat config set or an editor.`);
  };
  if (key === "token")
    throw fail(
      "is a credential, and the config file never holds one",
      `Remove it from the file and store the token with: msgstat auth login --profile ${profile.name}`,
    );
  if (key === TOKEN_STORE_KEY) {
    if (value === NO_TOKEN) profile.takesNoToken = true;
    else if (value === "keyring" || value === "file") profile.tokenStore = value;
    else throw fail('must be "keyring", "file" or "none" (msgstat auth login or sandbox --save-profile sets it)');
    return;
  }
  if (key === "headers") {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw fail('must be an object of header names and values, e.g. { "X-Team": "support" }');
    for (const [name, text] of Object.entries(value as ProfileEntries)) {
      const checked = typeof text === "string" ? checkProfileHeader(name, text) : { reason: "must be a string" };
      if ("reason" in checked) throw fail(`${name}: ${checked.reason}`, checked.hint);
      profile.headers.push([name, String(checked.value)]);
    }
    return;
  }
  const spec = settingKey(key);
  if (!spec) throw fail(`is not a setting msgstat knows; valid keys: ${ALL_KEY_NAMES.join(", ")}`);
  if (typeof value !== "string" && typeof value !== "number") throw fail("must be a string or a number");
  const checked = spec.check(String(value), "profile");
  if ("reason" in checked) throw fail(checked.reason, checked.hint);
  profile.values[spec.name] = checked.value;
}
