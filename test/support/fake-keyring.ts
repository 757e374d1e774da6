// A stand-in for @napi-rs/keyring, put in its place with vi.mock at the module boundary
// (src/config/keyring.ts is the only importer). CI has no keyring, so the real module fails there
// and the tests that use it exercise the file fallback; this one lets the keyring path run too.

export type KeyringState = "absent" | "available" | "locked";

export const fakeKeyring = {
  /** absent: no daemon (the constructor throws, as on a headless Linux); locked: it exists but refuses every call. */
  state: "absent" as KeyringState,
  entries: new Map<string, string>(),
  reset(state: KeyringState = "absent"): void {
    this.state = state;
    this.entries.clear();
  },
};

class AsyncEntry {
  private readonly key: string;

  constructor(service: string, account: string) {
    if (fakeKeyring.state === "absent") throw new Error("Platform failure: no secret service on the session bus");
    this.key = `${service}/${account}`;
  }

  private check(): void {
    if (fakeKeyring.state === "locked") throw new Error("Platform failure: the collection is locked");
  }

  async getPassword(): Promise<string | null> {
    this.check();
    return fakeKeyring.entries.get(this.key) ?? null;
  }

  async setPassword(password: string): Promise<void> {
    this.check();
    fakeKeyring.entries.set(this.key, password);
  }

  async deletePassword(): Promise<boolean> {
    this.check();
    return fakeKeyring.entries.delete(this.key);
  }
}

export const fakeKeyringModule = { AsyncEntry };
