// `msgstat auth login | status | logout` with a temporary MSGSTAT_CONFIG_DIR and real HTTP to the
// sandbox. The keyring module is replaced at its boundary and starts "absent", as on CI: these
// tests exercise the credentials file; test/config/keyring.test.ts the keyring.
import { chmodSync, writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { startTestSandbox } from "../../support/cli-helpers.js";
import { fakeKeyring } from "../../support/fake-keyring.js";
import { authorizations, configFolder } from "../../support/profiles.js";

vi.mock("@napi-rs/keyring", async () => (await import("../../support/fake-keyring.js")).fakeKeyringModule);

const TOKEN = "tok-4f9a2c7e1b3d8a6f";
const started: Sandbox[] = [];
async function sandbox(token = TOKEN): Promise<Sandbox> {
  const s = await startTestSandbox({ token, messages: 20 });
  started.push(s);
  return s;
}
beforeEach(() => fakeKeyring.reset("absent"));
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const NO_KEYRING_NOTE = /^no OS keyring to use; the token is in plain text in a file only you can read$/m;

describe("auth login", () => {
  it("reads the token from stdin with --with-token; then messages sends Authorization: Bearer <token> to the sandbox", async () => {
    const s = await sandbox();
    const config = configFolder();
    const login = await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: `${TOKEN}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe("");
    expect(login.stderr).toMatch(NO_KEYRING_NOTE);
    expect(login.stderr).toContain(
      `Stored the token ****8a6f of profile "default" for ${s.url} in ${config.credentialsFile}.\n`,
    );
    expect(login.stderr).toContain("Not checked (the API cannot test a token): a wrong one is exit 4 on first use.\n");
    expect(config.read().profiles.default).toEqual({ "base-url": s.url, "token-store": "file" });
    expect(s.requests).toHaveLength(0);

    const listing = await config.run(["messages", "cmp-otp-alerts", "--all", "--jsonl"]);
    expect(listing.code).toBe(0);
    expect(listing.stderr).toBe("");
    expect(authorizations(s.requests)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("keeps the token out of the config file and writes the credentials file 0600", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--profile", "ops", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    expect(config.credentialsMode()).toBe(0o600);
    expect(JSON.stringify(config.read())).not.toContain(TOKEN);
  });

  it("needs a base URL, and a token on stdin: nothing is stored otherwise", async () => {
    const config = configFolder();
    expect(await config.run(["auth", "login", "--with-token"], { stdin: TOKEN })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: auth login needs the base URL the token belongs to: add --base-url <url>\n  The token is sent only to that URL.\n",
    });
    expect(await config.run(["auth", "login", "--base-url", "https://api.example.com", "--token", TOKEN])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: auth login does not take the token from the command line, where ps and shell history keep it\n  Pipe it in with --with-token, or leave --with-token out on a terminal to be asked for it.\n",
    });
    const notPiped = await config.run(["auth", "login", "--base-url", "https://api.example.com"]);
    expect(notPiped.code).toBe(2);
    expect(notPiped.stderr).toBe(
      "msgstat: auth login reads the token from standard input: pipe it in with --with-token\n  For example: msgstat auth login --with-token < token.txt, or pass show msgstat | msgstat auth login --with-token\n",
    );
    const empty = await config.run(["auth", "login", "--base-url", "https://api.example.com", "--with-token"], {
      stdin: "\n",
    });
    expect(empty).toMatchObject({ code: 2, stderr: "msgstat: no token was given on standard input\n" });
    const twoLines = await config.run(["auth", "login", "--base-url", "https://api.example.com", "--with-token"], {
      stdin: `${TOKEN}\nsecond line\n`,
    });
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).not.toContain(TOKEN);
    expect(config.credentialsMode()).toBeUndefined();
  });

  it("on a terminal prompts for the token without echoing it (Backspace edits, Enter ends)", async () => {
    const s = await sandbox();
    const config = configFolder();
    const terminal = Object.assign(new PassThrough(), {
      rawModes: [] as boolean[],
      setRawMode(raw: boolean) {
        this.rawModes.push(raw);
      },
    });
    const login = config.run(["auth", "login", "--base-url", s.url], { stdin: terminal, stdinTty: true });
    terminal.write(`${TOKEN}x\u007f`);
    terminal.write("\r");
    const result = await login;
    expect(result.code).toBe(0);
    expect(result.stderr.startsWith(`Paste the token of profile "default" for ${s.url} (it is not shown): \n`)).toBe(
      true,
    );
    expect(result.stderr).not.toContain(TOKEN);
    expect(terminal.rawModes).toEqual([true, false]);
    await config.run(["messages", "cmp-otp-alerts", "-n", "1", "--jsonl"]);
    expect(authorizations(s.requests)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("Ctrl-C at the prompt stops with exit 130 and stores nothing", async () => {
    const config = configFolder();
    const terminal = Object.assign(new PassThrough(), { setRawMode: () => undefined });
    const login = config.run(["auth", "login", "--base-url", "https://api.example.com"], {
      stdin: terminal,
      stdinTty: true,
    });
    terminal.write("half-a-tok\u0003");
    expect((await login).code).toBe(130);
    expect(config.credentialsMode()).toBeUndefined();
  });
});

describe("the credentials file", () => {
  it("is refused when group or others can read it (mode 0644), with the chmod 600 advice; nothing is sent", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    chmodSync(config.credentialsFile, 0o644);
    const result = await config.run(["messages", "cmp-otp-alerts"]);
    expect(result).toEqual({
      code: 4,
      stdout: "",
      stderr: `msgstat: refusing to read ${config.credentialsFile}: its mode 0644 lets others read it, and it holds tokens\n  Make it private to you: chmod 600 ${config.credentialsFile}\n`,
    });
    expect(s.requests).toHaveLength(0);
    chmodSync(config.credentialsFile, 0o600);
    expect((await config.run(["messages", "cmp-otp-alerts", "--jsonl"])).code).toBe(0);
    expect(authorizations(s.requests)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("that is not one msgstat wrote is refused without quoting it", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": "https://api.example.com", "token-store": "file" } });
    writeFileSync(config.credentialsFile, `not json ${TOKEN}`, { mode: 0o600 });
    const result = await config.run(["messages", "cmp-otp-alerts"]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `msgstat: ${config.credentialsFile} is not a credentials file msgstat can read\n  Remove it and store the tokens again with msgstat auth login.\n`,
    );
  });
});

describe("auth status", () => {
  it("shows each profile's URL and token source, the token redacted to its last 4 characters, and warns of a plain file", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    await config.run(["config", "set", "--profile", "vault", "base-url", "https://api.example.com/v2"]);
    await config.run(["config", "set", "--profile", "vault", "token-command", "pass show msgstat/vault"]);
    await config.run(["config", "set", "--profile", "bare", "timeout", "5"]);
    const result = await config.run(["auth", "status"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "bare",
        "  base-url  none",
        "  token     none",
        "default (selected)",
        `  base-url  ${s.url}  (profile)`,
        `  token     ****8a6f  (file: ${config.credentialsFile})`,
        "  warning   the token is stored in plain text in a file (mode 0600); an OS keyring, or a token-command, keeps it safer",
        "vault",
        "  base-url  https://api.example.com/v2  (profile)",
        "  token     from token-command: pass show msgstat/vault (not run here; msgstat auth status --profile vault runs it)",
        "",
      ].join("\n"),
    );
  });

  it("names the flag or variable the URL and token come from", async () => {
    const config = configFolder();
    const fromFlag = await config.run(["auth", "status", "--base-url", "https://a.example", "--token", TOKEN]);
    expect(fromFlag).toEqual({
      code: 0,
      stdout: "default\n  base-url  https://a.example  (flag: --base-url)\n  token     ****8a6f  (flag: --token)\n",
      stderr: "",
    });
    const fromEnv = await config.run(["auth", "status"], {
      env: { MSGSTAT_BASE_URL: "https://b.example", MSGSTAT_TOKEN: "short" },
    });
    expect(fromEnv).toEqual({
      code: 0,
      stdout:
        "default\n  base-url  https://b.example  (environment: MSGSTAT_BASE_URL)\n  token     ****  (environment: MSGSTAT_TOKEN)\n",
      stderr: "",
    });
  });

  it("exits 4 when the selected profile has no token, or no base URL", async () => {
    const config = configFolder();
    await config.run(["config", "set", "--profile", "staging", "base-url", "https://staging.example.com"]);
    const noToken = await config.run(["auth", "status", "--profile", "staging"]);
    expect(noToken).toEqual({
      code: 4,
      stdout:
        "staging\n  base-url  https://staging.example.com  (profile)\n  token     none: requests go without one\n",
      stderr:
        'msgstat: profile "staging" is not ready: no token\n' +
        "  To send one: msgstat auth login --profile staging (it asks for the token), MSGSTAT_TOKEN, or a token-command.\n",
    });
    const noUrl = await config.run(["auth", "status", "--token", TOKEN]);
    expect(noUrl.code).toBe(4);
    expect(noUrl.stderr).toBe('msgstat: profile "default" is not ready: no base URL\n');
    const unknown = await config.run(["auth", "status", "--profile", "prod"]);
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: unknown profile "prod" (--profile); known profiles: staging\n  Create it with: msgstat auth login --profile prod --base-url <url>, or msgstat config set --profile prod base-url <url>\n',
    });
  });

  it("after auth logout, a service on this machine that wants a token: not ready, and its 401 leads to auth login", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    expect((await config.run(["auth", "logout"])).code).toBe(0);
    expect(await config.run(["auth", "status"])).toEqual({
      code: 4,
      stdout: `default\n  base-url  ${s.url}  (profile)\n  token     none: requests go without one\n`,
      stderr:
        'msgstat: profile "default" is not ready: no token\n' +
        "  To send one: msgstat auth login --profile default (it asks for the token), MSGSTAT_TOKEN, or a token-command.\n",
    });
    expect(await config.run(["messages", "cmp-otp-alerts"])).toEqual({
      code: 4,
      stdout: "",
      stderr:
        `msgstat: not authorised: GET ${s.url}/campaigns/cmp-otp-alerts/messages?limit=50 answered HTTP 401: ` +
        "Missing Authorization: Bearer <token>. (unauthorized)\n" +
        "  No token was sent: store one with msgstat auth login (it asks for it), or set MSGSTAT_TOKEN.\n",
    });
    const named = await config.run(["--profile", "default", "messages", "cmp-otp-alerts"]);
    expect(named.stderr).toContain("  No token was sent: store one with msgstat auth login --profile default (it");
    expect(authorizations(s.requests)).toEqual([undefined, undefined]);
  });

  it("a URL on this machine is not taken to need no token: without one the profile is not ready", async () => {
    const config = configFolder();
    await config.run(["config", "set", "--profile", "local", "base-url", "http://127.0.0.1:8787"]);
    const result = await config.run(["auth", "status", "--profile", "local"]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe(
      "local\n  base-url  http://127.0.0.1:8787  (profile)\n  token     none: requests go without one\n",
    );
  });

  it("a profile the sandbox saved without --token is ready without one, for its own URL only", async () => {
    const config = configFolder();
    // As msgstat sandbox --save-profile writes it (test/e2e/profiles.test.ts runs the real one).
    config.write({ sandbox: { "base-url": "http://127.0.0.1:8787", "token-store": "none" }, other: {} });
    const saved = "  token     none: requests go without one (saved by msgstat sandbox, no --token)";
    expect(await config.run(["auth", "status", "--profile", "sandbox"])).toEqual({
      code: 0,
      stdout: `sandbox\n  base-url  http://127.0.0.1:8787  (profile)\n${saved}\n`,
      stderr: "",
    });
    // Listed as another profile's, the same words.
    expect((await config.run(["auth", "status"], { env: { MSGSTAT_PROFILE: "other" } })).stdout).toContain(
      `sandbox\n  base-url  http://127.0.0.1:8787  (profile)\n${saved}\n`,
    );
    // Another URL is another service, not known to take none.
    const elsewhere = await config.run(["auth", "status", "--profile", "sandbox", "--base-url", "http://127.0.0.1:9"]);
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stdout).toContain("  token     none: requests go without one\n");
    // auth logout has no token to remove and leaves the profile as saved; config set base-url forgets it.
    await config.run(["auth", "logout", "--profile", "sandbox"]);
    expect(config.read().profiles.sandbox).toEqual({ "base-url": "http://127.0.0.1:8787", "token-store": "none" });
    await config.run(["config", "set", "--profile", "sandbox", "base-url", "http://127.0.0.1:8788"]);
    expect(config.read().profiles.sandbox).toEqual({ "base-url": "http://127.0.0.1:8788" });
    expect((await config.run(["auth", "status", "--profile", "sandbox"])).code).toBe(4);
    config.write({ sandbox: { "base-url": "http://127.0.0.1:8787", "token-store": "none" } });
    expect(await config.run(["config", "unset", "--profile", "sandbox", "base-url"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(config.read().profiles.sandbox).toEqual({});
  });

  it("auth login on a profile saved without a token stores one, which is then sent", async () => {
    const s = await sandbox();
    const config = configFolder();
    config.write({ default: { "base-url": s.url, "token-store": "none" } });
    await config.run(["auth", "login", "--with-token"], { stdin: TOKEN });
    expect(config.read().profiles.default).toEqual({ "base-url": s.url, "token-store": "file" });
    expect((await config.run(["messages", "cmp-otp-alerts", "--jsonl"])).code).toBe(0);
    expect(authorizations(s.requests)).toEqual([`Bearer ${TOKEN}`]);
  });

  it("runs the selected profile's token-command and shows its failure, exit 4", async () => {
    const config = configFolder();
    config.write({
      ci: {
        "base-url": "https://api.example.com",
        "token-command": `'${process.execPath}' -e 'process.stdout.write("${TOKEN}\\n")'`,
      },
    });
    const ok = await config.run(["auth", "status", "--profile", "ci"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("  token     ****8a6f  (token-command: ");
    config.write({
      ci: {
        "base-url": "https://api.example.com",
        "token-command": `'${process.execPath}' -e 'console.error("vault is sealed"); process.exit(2)'`,
      },
    });
    const failing = await config.run(["auth", "status", "--profile", "ci"]);
    expect(failing.code).toBe(4);
    expect(failing.stdout).toBe(
      'ci\n  base-url  https://api.example.com  (profile)\n  token     none: token-command of profile "ci" failed with exit status 2: vault is sealed\n',
    );
  });
});

describe("auth logout", () => {
  it("removes the stored token: the profile keeps its URL and sends no token any more", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--profile", "ops", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    const logout = await config.run(["auth", "logout", "--profile", "ops"]);
    expect(logout).toEqual({
      code: 0,
      stdout: "",
      stderr: `Removed the token of profile "ops" from ${config.credentialsFile}.\n`,
    });
    expect(config.credentialsMode()).toBeUndefined();
    expect(config.read().profiles.ops).toEqual({ "base-url": s.url });
    const listing = await config.run(["--profile", "ops", "messages", "cmp-otp-alerts"]);
    expect(listing.code).toBe(4);
    expect(authorizations(s.requests)).toEqual([undefined]);
    expect(await config.run(["auth", "logout", "--profile", "ops"])).toEqual({
      code: 0,
      stdout: "",
      stderr: 'Profile "ops" had no stored token.\n',
    });
  });

  it("leaves the other profiles' tokens in the file", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--profile", "a", "--base-url", s.url, "--with-token"], { stdin: TOKEN });
    await config.run(["auth", "login", "--profile", "b", "--base-url", s.url, "--with-token"], {
      stdin: "other-token-0123456789",
    });
    await config.run(["auth", "logout", "--profile", "a"]);
    expect(config.credentialsMode()).toBe(0o600);
    expect((await config.run(["--profile", "b", "messages", "cmp-otp-alerts", "--jsonl"])).code).toBe(4);
    expect(authorizations(s.requests)).toEqual(["Bearer other-token-0123456789"]);
  });
});
