// `msgstat config list | get | set | unset | profiles`: the config file's profiles, each key checked
// by the same rule that checks the flag or variable overriding it.
import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../../core/errors.js";
import { inlineSafe } from "../../core/text.js";
import { profileNames, updateConfigFile, type ProfileEntries } from "../../config/config-file.js";
import {
  ALL_KEY_NAMES,
  checkProfileHeader,
  NO_TOKEN,
  SETTING_KEYS,
  settingKey,
  TOKEN_STORE_KEY,
  type Checked,
} from "../../config/keys.js";
import { entryProblems, type Profile } from "../../config/profile.js";
import type { Given } from "../../config/settings.js";
import type { Context } from "../context.js";

export interface ConfigOptions {
  given: Given;
}

/** The key named on the command line: a setting, `headers` or `headers.<Name>`; never the token. */
function namedKey(
  key: string,
  profile: Profile,
  action: "get" | "set" | "unset",
): { setting?: string; header?: string; allHeaders?: boolean; tokenStore?: boolean } {
  if (key === "token") {
    throw new UsageError("the token is never kept in the config file").withHint(
      action === "get"
        ? `msgstat auth status --profile ${profile.name} shows where it comes from, redacted.`
        : `Store it with: msgstat auth login --profile ${profile.name} (it prompts, or reads stdin with ` +
            `--with-token); or set a token-command.`,
    );
  }
  if (key === TOKEN_STORE_KEY) {
    if (action === "get") return { tokenStore: true };
    throw new UsageError(
      `${TOKEN_STORE_KEY} says where auth login put the token; msgstat auth login and msgstat auth logout change it`,
    );
  }
  if (key === "headers") return { allHeaders: true };
  if (key.startsWith("headers.")) {
    const header = key.slice("headers.".length);
    if (header === "") throw new UsageError("name the header: headers.<Name>, e.g. headers.X-Team");
    return { header };
  }
  if (settingKey(key)) return { setting: key };
  throw new UsageError(`unknown key "${key}"; valid keys: ${ALL_KEY_NAMES.join(", ")}`).withHint(keyHelp());
}

export function keyHelp(): string {
  const lines = SETTING_KEYS.map(
    (key) => `  ${key.name.padEnd(22)} ${key.about}${key.builtIn !== undefined ? ` (default ${key.builtIn})` : ""}`,
  );
  lines.push(`  ${"headers.<Name>".padEnd(22)} a request header that is not a secret, e.g. headers.X-Team`);
  return `Keys:\n${lines.join("\n")}`;
}

/** A value of the file as it holds it: JSON leaves strings, numbers, booleans and objects. */
function settingText(value: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a string, a number or a boolean here
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** key=value lines of the profile, as the file holds them. */
function entryLines(entries: ProfileEntries): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(entries)) {
    if (key === "headers" && typeof value === "object" && value !== null) {
      for (const [name, text] of Object.entries(value)) lines.push(`headers.${name}=${String(text)}`);
    } else if (key !== "token") {
      lines.push(`${key}=${settingText(value)}`);
    }
  }
  return lines.map(inlineSafe);
}

export async function runList(options: ConfigOptions, ctx: Context): Promise<void> {
  const profile = ctx.settings.profile({ unchecked: true });
  const entries = profile.config.profiles[profile.name] ?? {};
  const lines = entryLines(entries);
  if (lines.length === 0) ctx.note(`profile "${profile.name}" has no settings (${profile.paths.configFile})`);
  else ctx.stdout.write(`${lines.join("\n")}\n`);
  // Every line is shown, so a bad one can be seen and mended; then what msgstat cannot use is named, and the exit
  // code says so (every command using the profile would refuse it).
  const problems = entryProblems(profile);
  if (problems.length === 0) return;
  for (const problem of problems) ctx.warn(problem.message);
  throw new UsageError(
    `profile "${profile.name}" has ${problems.length === 1 ? "a setting" : `${problems.length} settings`} ` +
      `msgstat cannot use (above): every command using it would refuse it`,
  ).withHint(`It is in ${profile.paths.configFile}; change it with msgstat config set or unset, or an editor.`);
}

export async function runGet(key: string, options: ConfigOptions, ctx: Context): Promise<void> {
  const profile = ctx.settings.profile({ unchecked: true });
  const named = namedKey(key, profile, "get");
  const entries = profile.config.profiles[profile.name] ?? {};
  let value: unknown;
  if (named.tokenStore) value = entries[TOKEN_STORE_KEY];
  else if (named.allHeaders) value = entries.headers;
  else if (named.header !== undefined) value = headerValue(entries, named.header);
  else value = entries[named.setting!];
  if (value === undefined) {
    const builtIn = named.setting !== undefined ? settingKey(named.setting)?.builtIn : undefined;
    ctx.note(
      `${key} is not set in profile ` +
        `"${profile.name}"${builtIn !== undefined ? `; the built-in default is ${builtIn}` : ""}`,
    );
    return;
  }
  const lines = named.allHeaders ? entryLines({ headers: value }) : [inlineSafe(settingText(value))];
  ctx.stdout.write(`${lines.join("\n")}\n`);
}

function headerValue(entries: ProfileEntries, name: string): unknown {
  const headers = (entries.headers ?? {}) as Record<string, unknown>;
  const found = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return found === undefined ? undefined : headers[found];
}

export async function runSet(key: string, value: string, options: ConfigOptions, ctx: Context): Promise<void> {
  const profile = ctx.settings.profile({ create: true, unchecked: true });
  const named = namedKey(key, profile, "set");
  if (named.allHeaders)
    throw new UsageError(
      "set one header at a time: msgstat config set headers.<Name> <value>, e.g. headers.X-Team support",
    );
  let change: (entries: ProfileEntries) => void;
  if (named.header !== undefined) {
    const header = named.header;
    const stored = valueOf(checkProfileHeader(header, value), `headers.${header}`);
    change = (entries) => {
      const headers = { ...((entries.headers ?? {}) as Record<string, unknown>) };
      for (const existing of Object.keys(headers))
        if (existing.toLowerCase() === header.toLowerCase()) delete headers[existing];
      entries.headers = { ...headers, [header]: stored };
    };
  } else {
    const spec = settingKey(named.setting!)!;
    const text = spec.name === "ca-file" ? await existingFile(value) : value;
    const stored = valueOf(spec.check(text, "profile"), spec.name);
    change = (entries) => {
      if (spec.name === "base-url" && entries["base-url"] !== stored) forgetTakesNoToken(entries);
      if (spec.name === "base-url" && entries[TOKEN_STORE_KEY] !== undefined && entries["base-url"] !== stored) {
        ctx.note(`profile "${profile.name}" has a stored token: from now on it is sent to ${stored}`);
      }
      entries[spec.name] = stored;
    };
  }
  // Applied to the file as it is when written, so a change another msgstat made meanwhile stays.
  await updateConfigFile(profile.paths.configFile, (config) => change((config.profiles[profile.name] ??= {})));
}

/** "Takes no token" was said of the service at the profile's base-url: another URL is not known to take none. */
function forgetTakesNoToken(entries: ProfileEntries): void {
  if (entries[TOKEN_STORE_KEY] === NO_TOKEN) delete entries[TOKEN_STORE_KEY];
}

function valueOf(checked: Checked, key: string): string | number {
  if ("value" in checked) return checked.value;
  const error = new UsageError(`${key} ${checked.reason}`);
  throw checked.hint ? error.withHint(checked.hint) : error;
}

/** A CA file is kept as an absolute path, and must exist when it is set. */
async function existingFile(text: string): Promise<string> {
  if (text.trim() === "") return text;
  const absolute = path.resolve(text);
  const stat = await fs.stat(absolute).catch(() => undefined);
  if (!stat?.isFile()) throw new UsageError(`ca-file ${absolute} is not a file`);
  return absolute;
}

export async function runUnset(key: string, options: ConfigOptions, ctx: Context): Promise<void> {
  const profile = ctx.settings.profile({ unchecked: true });
  const entries = profile.config.profiles[profile.name];
  // A key written by hand that msgstat refuses (a typo, a token) can be removed by its name.
  const handWritten =
    entries !== undefined &&
    Object.hasOwn(entries, key) &&
    key !== TOKEN_STORE_KEY &&
    key !== "headers" &&
    settingKey(key) === undefined;
  const named = handWritten ? {} : namedKey(key, profile, "unset");
  if (entries === undefined) return;
  let keepsToken = false;
  await updateConfigFile(profile.paths.configFile, (config) => {
    const fresh = config.profiles[profile.name];
    if (fresh === undefined) return false;
    if (handWritten) delete fresh[key];
    else if (named.allHeaders) delete fresh.headers;
    else if (named.header !== undefined) {
      const headers = (fresh.headers ?? {}) as Record<string, unknown>;
      for (const existing of Object.keys(headers))
        if (existing.toLowerCase() === named.header.toLowerCase()) delete headers[existing];
      if (Object.keys(headers).length === 0) delete fresh.headers;
    } else delete fresh[named.setting!];
    if (named.setting === "base-url") forgetTakesNoToken(fresh);
    keepsToken = named.setting === "base-url" && fresh[TOKEN_STORE_KEY] !== undefined;
  });
  if (keepsToken)
    ctx.note(`profile "${profile.name}" keeps its stored token, but sends it nowhere until it has a base-url again`);
}

export async function runProfiles(_options: ConfigOptions, ctx: Context): Promise<void> {
  const config = ctx.settings.configFile();
  const names = profileNames(config);
  if (names.length === 0) ctx.note(`no profile is saved yet (${config.path})`);
  else ctx.stdout.write(`${names.join("\n")}\n`);
}
