// The one place msgstat touches the OS keyring (@napi-rs/keyring: macOS Keychain, Windows
// Credential Manager, the Secret Service of GNOME Keyring or KWallet on Linux). Every failure,
// a missing module, no keyring daemon, a locked or refusing keyring, or one that does not answer,
// comes back as a reason the caller turns into a one-line note before it uses the file instead.
import { inlineSafe } from "../core/text.js";
import type { Env } from "./paths.js";

export interface Keyring {
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  remove(account: string): Promise<boolean>;
}

export type KeyringOrReason = { keyring: Keyring } | { unavailable: string };

const SERVICE = "msgstat";
// A keyring asking to be unlocked waits for a person; past this it counts as unavailable.
const ANSWER_WITHIN_MS = 60_000;

interface EntryLike {
  getPassword(signal?: AbortSignal | null): Promise<string | null>;
  setPassword(password: string, signal?: AbortSignal | null): Promise<void>;
  deletePassword(signal?: AbortSignal | null): Promise<boolean>;
}
type EntryClass = new (
  service: string,
  account: string,
  options?: { linux?: { store?: "secret-service" | "keyutils" } },
) => EntryLike;

/** One short line from whatever the keyring library threw. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? text;
  return inlineSafe(line.length > 160 ? `${line.slice(0, 157)}...` : line);
}

export async function openKeyring(env: Env, signal?: AbortSignal): Promise<KeyringOrReason> {
  if (env.MSGSTAT_KEYRING === "off") return { unavailable: "MSGSTAT_KEYRING=off" };
  let Entry: EntryClass;
  try {
    const module = (await import("@napi-rs/keyring")) as unknown as {
      AsyncEntry?: EntryClass;
      default?: { AsyncEntry?: EntryClass };
    };
    const found = module.AsyncEntry ?? module.default?.AsyncEntry;
    if (!found) return { unavailable: "the keyring module has no AsyncEntry" };
    Entry = found;
  } catch (error) {
    return { unavailable: `no keyring module for this platform (${reasonOf(error)})` };
  }
  const within = () =>
    signal ? AbortSignal.any([signal, AbortSignal.timeout(ANSWER_WITHIN_MS)]) : AbortSignal.timeout(ANSWER_WITHIN_MS);
  // On Linux, the Secret Service only: the kernel keyring (keyutils) forgets its keys at logout.
  const entry = (account: string) => new Entry(SERVICE, account, { linux: { store: "secret-service" } });
  return {
    keyring: {
      get: async (account) => (await entry(account).getPassword(within())) ?? undefined,
      set: (account, secret) => entry(account).setPassword(secret, within()),
      remove: (account) => entry(account).deletePassword(within()),
    },
  };
}
