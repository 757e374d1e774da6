// Every setting from the first place that has it: a flag, else its environment variable, else the
// chosen profile, else the built-in default (the token: token.ts); and one run's settings, with the
// config file read once. Kept free of child processes and the keyring, since every command's context
// reads its time zone through here.
import { UsageError } from "../core/errors.js";
import { checkProfileName, readConfigFile, type ConfigFile } from "./config-file.js";
import { SETTING_KEYS, type SettingName, type Source } from "./keys.js";
import { configPaths, type Env } from "./paths.js";
import { chosenProfileName, profileFrom, type LoadOptions, type Profile } from "./profile.js";

/** Global flags given on the command line (commander's defaults left out), by attribute name. */
export type Given = Record<string, unknown>;

export interface Resolved<T> {
  value: T;
  from: Source;
}

export interface Settings {
  profile: Profile;
  baseUrl?: Resolved<string>;
  timeout: Resolved<number>;
  retries: Resolved<number>;
  /** Stored and checked here; the HTTP layer's proxy support reads it. */
  proxy?: Resolved<string>;
  /** Stored and checked here; the HTTP layer's TLS support reads it. */
  caFile?: Resolved<string>;
  tz: Resolved<string>;
}

export function resolveSetting(
  name: SettingName,
  given: Given,
  env: Env,
  profile: Pick<Profile, "name" | "values">,
): Resolved<string | number> | undefined {
  const key = SETTING_KEYS.find((candidate) => candidate.name === name)!;
  const checked = (text: string, from: Source): Resolved<string | number> => {
    const result = key.check(text, from.kind);
    if ("value" in result) return { value: result.value, from };
    const error = new UsageError(`${from.label} ${result.reason}`);
    throw result.hint ? error.withHint(result.hint) : error;
  };
  const flag = key.flag === undefined ? undefined : given[key.flag];
  // A flag's value may already be a number (commander parsed it); it is checked as its text would be.
  if (typeof flag === "string" || typeof flag === "number")
    return checked(String(flag), { kind: "flag", label: `--${name}` });
  const fromEnv = key.env === undefined ? undefined : env[key.env];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return checked(fromEnv, { kind: "environment", label: key.env! });
  const stored = profile.values[name];
  if (stored !== undefined)
    return { value: stored, from: { kind: "profile", label: `${name} of profile "${profile.name}"` } };
  if (key.builtIn !== undefined) return { value: key.builtIn, from: { kind: "default", label: "built-in default" } };
  return undefined;
}

export function resolveSettings(given: Given, env: Env, profile: Profile): Settings {
  const text = (name: SettingName) => resolveSetting(name, given, env, profile) as Resolved<string> | undefined;
  const number = (name: SettingName) => resolveSetting(name, given, env, profile) as Resolved<number>;
  return {
    profile,
    baseUrl: text("base-url"),
    timeout: number("timeout"),
    retries: number("retries"),
    proxy: text("proxy"),
    caFile: text("ca-file"),
    tz: text("tz")!,
  };
}

/**
 * One run's settings: the global flags given and the environment, with the config file read on first
 * use and never again. `profile()` throws what is wrong with the file or the chosen profile; `setting()`
 * counts a profile that cannot be read as empty, for what is chosen before the command runs (the time
 * zone, --quiet): the command that uses the profile says why, before anything is sent.
 */
export class RunSettings<G extends Given = Given> {
  #read?: { config: ConfigFile } | { error: unknown };
  #checked?: Pick<Profile, "name" | "values">;

  constructor(
    readonly given: G,
    readonly env: Env,
  ) {}

  /** The config file as the run found it. */
  configFile(): ConfigFile {
    if (this.#read === undefined) {
      try {
        this.#read = { config: readConfigFile(configPaths(this.env).configFile) };
      } catch (error) {
        this.#read = { error };
      }
    }
    if ("error" in this.#read) throw this.#read.error;
    return this.#read.config;
  }

  /** The chosen profile (--profile, else MSGSTAT_PROFILE, else "default"), checked unless told otherwise. */
  profile(options: LoadOptions = {}): Profile {
    const { name, chosenBy } = chosenProfileName(this.given.profile as string | undefined, this.env);
    checkProfileName(name);
    return profileFrom(this.configFile(), configPaths(this.env), name, chosenBy, options);
  }

  /** A setting by the one order: `flags` (a command's own, such as --concurrency) beside the global ones. */
  setting(name: SettingName, flags: Given = {}): Resolved<string | number> | undefined {
    if (this.#checked === undefined) {
      try {
        this.#checked = this.profile();
      } catch {
        this.#checked = { name: "default", values: {} };
      }
    }
    return resolveSetting(name, { ...this.given, ...flags }, this.env, this.#checked);
  }

  /** What the HTTP client needs, from the checked profile. */
  resolved(): Settings {
    return resolveSettings(this.given, this.env, this.profile());
  }
}
