// Every setting from the first place that has it: a flag, else its environment variable, else the
// chosen profile, else the built-in default (the token: token.ts). Kept free of child processes and
// the keyring, since every command's context reads its time zone through here.
import { UsageError } from "../core/errors.js";
import { SETTING_KEYS, type SettingName, type Source } from "./keys.js";
import type { Env } from "./paths.js";
import type { Profile } from "./profile.js";

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
