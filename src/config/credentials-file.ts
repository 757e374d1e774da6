// The `credentials` file: tokens of profiles for which no OS keyring was available, as JSON
// ({ "tokens": { "<profile>": "<token>" } }). Written 0600 from its first byte (config-folder.ts);
// read only when nobody but its owner can read it, and its owner is the person running msgstat (or
// root), as ssh treats a private key.
import { promises as fs } from "node:fs";
import path from "node:path";
import { CredentialsError } from "../core/errors.js";
import { ownRecord, withoutBom } from "./config-file.js";
import { withConfigLock, writeFileAtomic } from "./config-folder.js";
import { untrusted } from "./file-safety.js";

export type Tokens = Record<string, string>;

export async function readCredentials(file: string): Promise<Tokens> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ownRecord();
    throw new CredentialsError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    // The mode of the file that is open, not of a name that could be swapped after a check.
    const stats = await handle.stat();
    const { mode } = stats;
    const problem =
      untrusted("the credentials file", file, stats) ??
      untrusted("the config folder", path.dirname(file), await fs.stat(path.dirname(file)));
    if (problem !== undefined) throw new CredentialsError(problem.reason).withHint(problem.hint);
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      throw new CredentialsError(
        `refusing to read ${file}: its mode ${(mode & 0o777).toString(8).padStart(4, "0")} lets others ` +
          `read it, and it holds tokens`,
      ).withHint(`Make it private to you: chmod 600 ${file}`);
    }
    const text = await handle.readFile("utf8");
    return parseTokens(text, file);
  } finally {
    await handle.close();
  }
}

function parseTokens(text: string, file: string): Tokens {
  // The text itself is never quoted in an error: it holds tokens.
  const broken = () =>
    new CredentialsError(`${file} is not a credentials file msgstat can read`).withHint(
      "Remove it and store the tokens again with msgstat auth login.",
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutBom(text));
  } catch {
    throw broken();
  }
  const tokens = (parsed as { tokens?: unknown } | null)?.tokens;
  if (typeof tokens !== "object" || tokens === null || Array.isArray(tokens)) throw broken();
  for (const value of Object.values(tokens)) if (typeof value !== "string") throw broken();
  return ownRecord(tokens as Tokens);
}

/** Replaces the file with these tokens (0600), or removes it when none is left. */
async function writeCredentials(file: string, tokens: Tokens): Promise<void> {
  if (Object.keys(tokens).length === 0) return fs.rm(file, { force: true });
  await writeFileAtomic(file, `${JSON.stringify({ tokens }, null, 2)}\n`, 0o600);
}

/**
 * Changes the stored tokens without losing another writer's change: under the config folder's lock the file is read
 * afresh, `change` applied, and the result written; `change` returns false when it changed nothing.
 */
export async function updateCredentials(file: string, change: (tokens: Tokens) => boolean | void): Promise<void> {
  await withConfigLock(path.dirname(file), async () => {
    const tokens = await readCredentials(file);
    if (change(tokens) !== false) await writeCredentials(file, tokens);
  });
}
