// The config file: JSON, one object of profiles by name, each holding its settings by key. It is
// meant to be read and edited by people (docs/config.md, msgstat help config), and holds no credential.
//
//   { "profiles": { "default": { "base-url": "https://api.example.com/v2", "timeout": 60 } } }
//
// Profiles are kept in an object without a prototype, so that a profile named `constructor` or
// `toString` is a profile like any other, not a member every JavaScript object has.
import { closeSync, fstatSync, openSync, promises as fs, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { withConfigLock, writeFileAtomic } from "./config-folder.js";
import { untrusted, type Owned } from "./file-safety.js";

export type ProfileEntries = Record<string, unknown>;

/** An empty object that has no members but those put in it (no `constructor`, `toString`, ...). */
export function ownRecord<T>(from: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

/** Text without the byte-order mark an editor (Notepad) may put before it. */
export function withoutBom(text: string): string {
  return text.startsWith("\ufeff") ? text.slice(1) : text;
}

export interface ConfigFile {
  path: string;
  exists: boolean;
  profiles: Record<string, ProfileEntries>;
}

export const DEFAULT_PROFILE = "default";
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkProfileName(name: string): void {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `"${name}" is not a profile name: use letters, digits, '.', '_' and '-', starting with a letter ` +
        `or digit (at most 64)`,
    );
}

/**
 * The config file, read synchronously: a command's context needs the profile's time zone before anything
 * async runs, and a run reads the file once (config/settings.ts), so there is one reader.
 */
export function readConfigFile(file: string): ConfigFile {
  let descriptor: number;
  try {
    descriptor = openSync(file, "r");
  } catch (error) {
    return missingOrUnreadable(file, error);
  }
  let text: string;
  try {
    const folder = (() => {
      try {
        return statSync(path.dirname(file));
      } catch {
        return undefined;
      }
    })();
    // The file that is open is checked, not a name that could be swapped after a check.
    trusted(file, fstatSync(descriptor), folder);
    text = readFileSync(descriptor, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return missingOrUnreadable(file, error);
  } finally {
    closeSync(descriptor);
  }
  return parseConfigText(text, file);
}

/** The config file and its folder, refused when another user owns them or could change them. */
function trusted(file: string, stats: Owned, folder: Owned | undefined): void {
  const problem =
    (folder === undefined ? undefined : untrusted("the config folder", path.dirname(file), folder)) ??
    untrusted("the config file", file, stats);
  if (problem !== undefined) throw new UsageError(problem.reason).withHint(problem.hint);
}

function missingOrUnreadable(file: string, error: unknown): ConfigFile {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path: file, exists: false, profiles: ownRecord() };
  throw new UsageError(
    `cannot read the config file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
  );
}

function parseConfigText(text: string, file: string): ConfigFile {
  let parsed: unknown;
  try {
    const json = withoutBom(text);
    parsed = json.trim() === "" ? {} : JSON.parse(json);
  } catch (error) {
    throw new UsageError(
      `the config file ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    ).withHint("Fix it in an editor; msgstat help config shows its shape.");
  }
  const shapeError = (what: string) =>
    new UsageError(`the config file ${file}: ${what}`).withHint(
      'Its shape: { "profiles": { "<name>": { "<key>": <value>, ... } } } (msgstat help config).',
    );
  if (!isObject(parsed)) throw shapeError("expected an object at the top");
  for (const key of Object.keys(parsed))
    if (key !== "profiles") throw shapeError(`unknown top-level key "${key}" (only "profiles")`);
  const profiles = parsed.profiles ?? {};
  if (!isObject(profiles)) throw shapeError('"profiles" must be an object of profiles by name');
  for (const [name, entries] of Object.entries(profiles)) {
    if (!PROFILE_NAME.test(name)) throw shapeError(`"${name}" is not a valid profile name`);
    if (!isObject(entries)) throw shapeError(`profile "${name}" must be an object of settings`);
  }
  return { path: file, exists: true, profiles: ownRecord(profiles as Record<string, ProfileEntries>) };
}

/**
 * Changes the config file without losing another writer's change: under the folder's lock
 * (config-folder.ts) the file is read afresh, `change` applied to it, and the result written; `change`
 * returns false when it changed nothing. A new file is 0600: no credential is kept in it, but headers, proxies
 * and token-commands are nobody else's business; a replacement keeps the mode a person gave the file.
 */
export async function updateConfigFile(
  file: string,
  change: (config: ConfigFile) => boolean | void,
): Promise<ConfigFile> {
  return withConfigLock(path.dirname(file), async () => {
    const config = readConfigFile(file);
    if (change(config) === false) return config;
    const existing = await fs.stat(config.path).catch(() => undefined);
    const mode = existing ? existing.mode & 0o777 : 0o600;
    await writeFileAtomic(config.path, `${JSON.stringify({ profiles: config.profiles }, null, 2)}\n`, mode);
    config.exists = true;
    return config;
  });
}

export function profileNames(config: ConfigFile): string[] {
  return Object.keys(config.profiles).sort();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
