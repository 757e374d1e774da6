// The config file: JSON, one object of profiles by name, each holding its settings by key. It is
// meant to be read and edited by people (docs/config.md, msgstat help config), and holds no credential.
//
//   { "profiles": { "default": { "base-url": "https://api.example.com/v2", "timeout": 60 } } }
import { promises as fs, readFileSync } from "node:fs";
import { UsageError } from "../core/errors.js";
import { writeFileAtomic } from "./atomic-write.js";

export type ProfileEntries = Record<string, unknown>;

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

export async function readConfigFile(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    return missingOrUnreadable(file, error);
  }
  return parseConfigText(text, file);
}

/**
 * The same, for the one place that must know a setting before anything async runs (the time zone of a command's
 * context).
 */
export function readConfigFileSync(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return missingOrUnreadable(file, error);
  }
  return parseConfigText(text, file);
}

function missingOrUnreadable(file: string, error: unknown): ConfigFile {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path: file, exists: false, profiles: {} };
  throw new UsageError(
    `cannot read the config file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
  );
}

function parseConfigText(text: string, file: string): ConfigFile {
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
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
  return { path: file, exists: true, profiles: profiles as Record<string, ProfileEntries> };
}

export async function writeConfigFile(config: ConfigFile): Promise<void> {
  // The replacement keeps a mode the person gave the file; a new one is 0644 (it holds no secret).
  const existing = await fs.stat(config.path).catch(() => undefined);
  await writeFileAtomic(
    config.path,
    `${JSON.stringify({ profiles: config.profiles }, null, 2)}\n`,
    existing ? existing.mode & 0o777 : 0o644,
  );
  config.exists = true;
}

export function profileNames(config: ConfigFile): string[] {
  return Object.keys(config.profiles).sort();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
