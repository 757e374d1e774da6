// Where `auth login` (and `sandbox --save-profile --token`) keep a profile's token: the OS keyring
// when one answers, else the 0600 credentials file. The profile records which (token-store), so a
// command reads only there, and a profile without a stored token never touches the keyring.
import { updateConfigFile } from "./config-file.js";
import { readCredentials, updateCredentials } from "./credentials-file.js";
import { openKeyring, reasonOf } from "./keyring.js";
import { NO_TOKEN, TOKEN_STORE_KEY, type TokenStore } from "./keys.js";
import type { Env } from "./paths.js";
import type { Profile } from "./profile.js";

export interface StoreIo {
  env: Env;
  signal?: AbortSignal;
  /** A one-line note for a person on stderr. */
  note: (line: string) => void;
  /** With --verbose: the detail behind a note (what the keyring library said, which file). */
  log?: (line: string) => void;
}

export interface StoredToken {
  token: string;
  store: TokenStore;
  /** "the OS keyring" or the credentials file's path. */
  where: string;
}

const IN_KEYRING = "the OS keyring";

/** The keyring entry of a profile: named with its config folder too, so two folders never share one. */
function account(profile: Profile): string {
  return `${profile.name}:${profile.paths.dir}`;
}

/** Stores the token, then records the base URL it belongs to and where it went in the profile. */
export async function saveToken(profile: Profile, baseUrl: string, token: string, io: StoreIo): Promise<StoredToken> {
  const opened = await openKeyring(io.env, io.signal);
  let unavailable = "unavailable" in opened ? opened.unavailable : undefined;
  if ("keyring" in opened) {
    try {
      await opened.keyring.set(account(profile), token);
    } catch (error) {
      unavailable = reasonOf(error);
    }
  }
  const file = profile.paths.credentialsFile;
  let stored: StoredToken;
  if (unavailable === undefined) {
    stored = { token, store: "keyring", where: IN_KEYRING };
    // An older copy in the file would outlive the one in the keyring.
    await updateCredentials(file, (tokens) => profile.name in tokens && delete tokens[profile.name]);
  } else {
    // The keyring library's reason is often a paragraph about D-Bus: it is for -v, and the note fits 80 columns.
    io.note("no OS keyring to use; the token is in plain text in a file only you can read");
    io.log?.(`keyring: ${unavailable}; the token is in ${file} (mode 0600)`);
    await updateCredentials(file, (tokens) => {
      tokens[profile.name] = token;
    });
    stored = { token, store: "file", where: file };
  }
  // The file as it is now, with this profile's change: another writer's profiles stay.
  profile.config = await updateConfigFile(profile.paths.configFile, (config) => {
    const entries = (config.profiles[profile.name] ??= {});
    entries["base-url"] = baseUrl;
    entries[TOKEN_STORE_KEY] = stored.store;
  });
  profile.exists = true;
  profile.tokenStore = stored.store;
  profile.takesNoToken = false;
  profile.values["base-url"] = baseUrl;
  return stored;
}

/** The token `auth login` stored for the profile; a keyring that cannot give it is a note, and the file is tried. */
export async function readStoredToken(profile: Profile, io: StoreIo): Promise<StoredToken | undefined> {
  if (profile.tokenStore === undefined) return undefined;
  if (profile.tokenStore === "keyring") {
    const opened = await openKeyring(io.env, io.signal);
    let reason: string;
    if ("keyring" in opened) {
      try {
        const token = await opened.keyring.get(account(profile));
        if (token !== undefined && token !== "") return { token, store: "keyring", where: IN_KEYRING };
        reason = "it holds no token for this profile";
      } catch (error) {
        reason = reasonOf(error);
      }
    } else {
      reason = opened.unavailable;
    }
    io.note(`no token from the OS keyring for profile "${profile.name}"; trying the credentials file`);
    io.log?.(`keyring: ${reason}; trying ${profile.paths.credentialsFile}`);
  }
  const token = (await readCredentials(profile.paths.credentialsFile))[profile.name];
  return token !== undefined && token !== ""
    ? { token, store: "file", where: profile.paths.credentialsFile }
    : undefined;
}

/** Removes the profile's token from the keyring and from the file; says where it was. */
export async function removeStoredToken(profile: Profile, io: StoreIo): Promise<string[]> {
  const removed: string[] = [];
  const opened = await openKeyring(io.env, io.signal);
  if ("keyring" in opened) {
    try {
      if (await opened.keyring.remove(account(profile))) removed.push(IN_KEYRING);
    } catch (error) {
      if (profile.tokenStore === "keyring")
        io.note(
          `could not remove the token of profile "${profile.name}" from the OS keyring ` +
            `(${reasonOf(error)}); remove the "msgstat" entry there by hand`,
        );
    }
  } else if (profile.tokenStore === "keyring") {
    io.note(`could not reach the OS keyring to remove the token of profile "${profile.name}" (${opened.unavailable})`);
  }
  const file = profile.paths.credentialsFile;
  await updateCredentials(file, (tokens) => {
    if (!(profile.name in tokens)) return false;
    delete tokens[profile.name];
    removed.push(file);
  });
  profile.config = await updateConfigFile(profile.paths.configFile, (config) => {
    const entries = config.profiles[profile.name];
    // "none" is not a token: the profile was saved for a service that takes none, and still is.
    if (!entries || !(TOKEN_STORE_KEY in entries) || entries[TOKEN_STORE_KEY] === NO_TOKEN) return false;
    delete entries["token-store"];
  });
  profile.tokenStore = undefined;
  return removed;
}
