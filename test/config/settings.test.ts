// Flag > environment variable > profile > built-in default, for the base URL, the token, the
// timeout and the rest; choosing a profile; and a profile's token kept to its own base URL.
// Real HTTP to sandboxes, which record what they received.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chosenProfileName } from "../../src/config/profile.js";
import { resolveSettings, RunSettings } from "../../src/config/settings.js";
import type { Profile } from "../../src/config/profile.js";
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.js";
import { startTestSandbox } from "../support/cli-helpers.js";
import { authorizations, configFolder } from "../support/profiles.js";

vi.mock("@napi-rs/keyring", async () => (await import("../support/fake-keyring.js")).fakeKeyringModule);

const started: Sandbox[] = [];
async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const s = await startTestSandbox({ messages: 10, ...options });
  started.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

const LIST = ["messages", "cmp-otp-alerts", "--all", "--jsonl"];

describe("the base URL", () => {
  it("comes from --base-url, else MSGSTAT_BASE_URL, else the profile", async () => {
    const [flag, env, profile] = [await sandbox(), await sandbox(), await sandbox()];
    const config = configFolder();
    config.write({ default: { "base-url": profile.url } });
    expect((await config.run(["--base-url", flag.url, ...LIST], { env: { MSGSTAT_BASE_URL: env.url } })).code).toBe(0);
    expect([flag.requests.length, env.requests.length, profile.requests.length]).toEqual([1, 0, 0]);
    expect((await config.run(LIST, { env: { MSGSTAT_BASE_URL: env.url } })).code).toBe(0);
    expect([flag.requests.length, env.requests.length, profile.requests.length]).toEqual([1, 1, 0]);
    expect((await config.run(LIST)).code).toBe(0);
    expect([flag.requests.length, env.requests.length, profile.requests.length]).toEqual([1, 1, 1]);
  });
});

describe("the token", () => {
  it("comes from --token, else MSGSTAT_TOKEN, else the profile's stored token", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: "profile-token-0001" });
    await config.run(["--token", "flag-token-0001", ...LIST], { env: { MSGSTAT_TOKEN: "env-token-0001" } });
    await config.run(LIST, { env: { MSGSTAT_TOKEN: "env-token-0001" } });
    await config.run(LIST);
    expect(authorizations(s.requests)).toEqual([
      "Bearer flag-token-0001",
      "Bearer env-token-0001",
      "Bearer profile-token-0001",
    ]);
  });

  it("of one profile is never sent to another profile's base URL, whatever points msgstat there", async () => {
    const [a, b] = [await sandbox(), await sandbox()];
    const config = configFolder();
    await config.run(["auth", "login", "--profile", "a", "--base-url", a.url, "--with-token"], {
      stdin: "token-of-profile-a",
    });
    await config.run(["auth", "login", "--profile", "b", "--base-url", b.url, "--with-token"], {
      stdin: "token-of-profile-b",
    });

    expect((await config.run(["--profile", "a", ...LIST])).code).toBe(0);
    expect((await config.run(["--profile", "b", ...LIST])).code).toBe(0);
    const byFlag = await config.run(["--profile", "a", "--base-url", b.url, ...LIST]);
    expect(byFlag).toMatchObject({
      code: 0,
      stderr: `not sending the token of profile "a" to ${b.url} (from --base-url): it belongs to ${a.url}\n`,
    });
    const byEnv = await config.run(LIST, { env: { MSGSTAT_PROFILE: "b", MSGSTAT_BASE_URL: a.url } });
    expect(byEnv).toMatchObject({
      code: 0,
      stderr: `not sending the token of profile "b" to ${a.url} (from MSGSTAT_BASE_URL): it belongs to ${b.url}\n`,
    });

    expect(authorizations(a.requests)).toEqual(["Bearer token-of-profile-a", undefined]);
    expect(authorizations(b.requests)).toEqual(["Bearer token-of-profile-b", undefined]);
  });

  it("of a profile without a base-url is sent nowhere", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--profile", "a", "--base-url", s.url, "--with-token"], {
      stdin: "token-of-profile-a",
    });
    await config.run(["config", "unset", "--profile", "a", "base-url"]);
    const result = await config.run(["--profile", "a", "--base-url", s.url, ...LIST]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'profile "a" has a token but no base-url, so its token is sent nowhere; set the URL it belongs to: msgstat config set --profile a base-url <url>\n',
    );
    expect(authorizations(s.requests)).toEqual([undefined]);
  });

  it("is the same profile's when the flag names its own URL in another spelling", async () => {
    const s = await sandbox();
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", s.url, "--with-token"], { stdin: "token-of-default" });
    expect((await config.run(["--base-url", `${s.url}/`, ...LIST])).stderr).toBe("");
    expect(authorizations(s.requests)).toEqual(["Bearer token-of-default"]);
  });
});

describe("the timeout", () => {
  // The sandbox holds every answer far longer than any timeout here: only which timeout applied is
  // asserted (it is named in the error), never how long anything took.
  const stalled = () => sandbox({ faults: [{ kind: "stall", ms: 60_000 }] });
  const timedOutAfter = (stderr: string) => /no complete response within ([\d.]+) s/.exec(stderr)?.[1];

  it("comes from --timeout, else MSGSTAT_TIMEOUT, else the profile, else 30 s", async () => {
    const s = await stalled();
    const config = configFolder();
    config.write({ default: { "base-url": s.url, timeout: 0.2, retries: 0 } });
    const fromFlag = await config.run(["--timeout", "0.3", ...LIST], { env: { MSGSTAT_TIMEOUT: "0.25" } });
    const fromEnv = await config.run(LIST, { env: { MSGSTAT_TIMEOUT: "0.25" } });
    const fromProfile = await config.run(LIST);
    expect([fromFlag, fromEnv, fromProfile].map((result) => result.code)).toEqual([1, 1, 1]);
    expect([fromFlag, fromEnv, fromProfile].map((result) => timedOutAfter(result.stderr))).toEqual([
      "0.3",
      "0.25",
      "0.2",
    ]);
    const defaults = resolveSettings({}, {}, emptyProfile());
    expect([defaults.timeout, defaults.retries, defaults.tz]).toEqual([
      { value: 30, from: { kind: "default", label: "built-in default" } },
      { value: 3, from: { kind: "default", label: "built-in default" } },
      { value: "local", from: { kind: "default", label: "built-in default" } },
    ]);
  });
});

describe("retries and headers", () => {
  it("take the profile's retries and headers; a -H of the same name replaces the profile's", async () => {
    const s = await sandbox({ faults: [{ kind: "status", status: 503 }] });
    const config = configFolder();
    config.write({ default: { "base-url": s.url, retries: 1, headers: { "X-Team": "support", "X-Trace": "on" } } });
    const result = await config.run(["-H", "x-trace: off", ...LIST]);
    expect(result.code).toBe(1);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[0]!.headers["x-team"]).toBe("support");
    expect(s.requests[0]!.headers["x-trace"]).toBe("off");
  });
});

describe("the time zone", () => {
  it("comes from --tz, else MSGSTAT_TZ, else the profile's tz, else local", async () => {
    const s = await sandbox();
    const config = configFolder();
    config.write({ default: { "base-url": s.url, tz: "Asia/Tokyo" } });
    const shown = async (args: string[], env: Record<string, string> = {}) => {
      const result = await config.run([...args, "message", "cmp-otp-alerts", "msg-otp-0000000"], {
        env: { TZ: "UTC", ...env },
      });
      return /^ {2}Created {4}\S+ \S+ (\S+)/m.exec(result.stdout)?.[1];
    };
    expect(await shown(["--tz", "America/New_York"], { MSGSTAT_TZ: "Europe/Paris" })).toBe("America/New_York");
    expect(await shown([], { MSGSTAT_TZ: "Europe/Paris" })).toBe("Europe/Paris");
    expect(await shown([])).toBe("Asia/Tokyo");
    config.write({ default: { "base-url": s.url, tz: "+09:00" } });
    expect(await shown([])).toBe("+09:00");
    config.write({ default: { "base-url": s.url } });
    expect(await shown([])).toBe("UTC");
  });

  it("a profile's bad tz is a usage error naming the profile, before anything is sent", async () => {
    const s = await sandbox();
    const config = configFolder();
    config.write({ default: { "base-url": s.url, tz: "Mars/Olympus" } });
    const result = await config.run(["messages", "cmp-otp-alerts"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      'msgstat: tz of profile "default" "Mars/Olympus" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"',
    );
    expect(s.requests).toHaveLength(0);
  });
});

describe("settings the HTTP layer reads (proxy, ca-file), and tz", () => {
  it("follow the same order: the flag's attribute, then the variable, then the profile", () => {
    const profile = emptyProfile({
      proxy: "http://proxy.example.com:3128",
      "ca-file": "/etc/ssl/corp.pem",
      tz: "Europe/Paris",
    });
    const fromProfile = resolveSettings({}, {}, profile);
    expect([fromProfile.proxy?.value, fromProfile.caFile?.value, fromProfile.tz.value]).toEqual([
      "http://proxy.example.com:3128",
      "/etc/ssl/corp.pem",
      "Europe/Paris",
    ]);
    const fromEnv = resolveSettings(
      {},
      { MSGSTAT_PROXY: "http://env-proxy:8080", MSGSTAT_CA_FILE: "env.pem", MSGSTAT_TZ: "UTC" },
      profile,
    );
    expect([fromEnv.proxy?.from.label, fromEnv.caFile?.from.label, fromEnv.tz.from.label]).toEqual([
      "MSGSTAT_PROXY",
      "MSGSTAT_CA_FILE",
      "MSGSTAT_TZ",
    ]);
    const fromFlags = resolveSettings(
      { proxy: "http://flag-proxy:1", caFile: "flag.pem", tz: "Asia/Tokyo" },
      { MSGSTAT_TZ: "UTC" },
      profile,
    );
    expect([fromFlags.proxy?.value, fromFlags.caFile?.value, fromFlags.tz.value]).toEqual([
      "http://flag-proxy:1",
      "flag.pem",
      "Asia/Tokyo",
    ]);
    expect(() => resolveSettings({}, { MSGSTAT_TZ: "Mars/Olympus" }, profile)).toThrow(
      'MSGSTAT_TZ "Mars/Olympus" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"',
    );
  });
});

describe("choosing a profile", () => {
  it("--profile, else MSGSTAT_PROFILE, else default", async () => {
    const [def, staging, prod] = [await sandbox(), await sandbox(), await sandbox()];
    const config = configFolder();
    config.write({
      default: { "base-url": def.url },
      staging: { "base-url": staging.url },
      prod: { "base-url": prod.url },
    });
    await config.run(LIST);
    await config.run(LIST, { env: { MSGSTAT_PROFILE: "staging" } });
    await config.run(["--profile", "prod", ...LIST], { env: { MSGSTAT_PROFILE: "staging" } });
    await config.run([...LIST, "--profile", "prod"]);
    expect([def.requests.length, staging.requests.length, prod.requests.length]).toEqual([1, 1, 2]);
    expect(chosenProfileName(undefined, { MSGSTAT_PROFILE: "" })).toEqual({
      name: "default",
      chosenBy: { kind: "default", label: "the default" },
    });
  });

  it("an unknown profile is a usage error listing the known ones, the one meant first; nothing is sent", async () => {
    const s = await sandbox();
    const config = configFolder();
    config.write({ staging: { "base-url": s.url }, prod: { "base-url": s.url } });
    const hint = (name: string) =>
      `  Create it with: msgstat auth login --profile ${name} --base-url <url>, or msgstat config set --profile ${name} base-url <url>\n`;
    expect(await config.run(["--profile", "stagign", ...LIST])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: unknown profile "stagign" (--profile); known profiles: prod, staging\n' +
        `  Did you mean --profile staging?\n${hint("stagign")}`,
    });
    expect(await config.run(LIST, { env: { MSGSTAT_PROFILE: "prd" } })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: unknown profile "prd" (MSGSTAT_PROFILE); known profiles: prod, staging\n' +
        `  Did you mean MSGSTAT_PROFILE=prod?\n${hint("prd")}`,
    });
    expect(await config.run(LIST, { env: { MSGSTAT_PROFILE: "qa" } })).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: unknown profile "qa" (MSGSTAT_PROFILE); known profiles: prod, staging\n${hint("qa")}`,
    });
    const none = configFolder();
    expect((await none.run(["--profile", "qa", ...LIST])).stderr).toBe(
      `msgstat: unknown profile "qa" (--profile); no profile is saved yet (config file: ${none.configFile})\n${hint("qa")}`,
    );
    expect(s.requests).toHaveLength(0);
  });

  it("the default profile may be absent: flags and variables alone still work", async () => {
    const s = await sandbox();
    const config = configFolder();
    expect(await config.run(["--base-url", s.url, ...LIST])).toMatchObject({ code: 0, stderr: "" });
  });
});

describe("one run's settings", () => {
  it("read the config file once: a change after the first read is not seen by the same run", () => {
    const config = configFolder();
    config.write({ default: { timeout: 12, tz: "Asia/Tokyo" } });
    const run = new RunSettings({}, { MSGSTAT_CONFIG_DIR: config.dir });
    expect(run.setting("timeout")).toEqual({
      value: 12,
      from: { kind: "profile", label: 'timeout of profile "default"' },
    });
    config.write({ default: { timeout: 99 }, other: {} });
    expect(run.setting("timeout")?.value).toBe(12);
    expect(run.profile().values).toEqual({ timeout: 12, tz: "Asia/Tokyo" });
    expect(Object.keys(run.configFile().profiles)).toEqual(["default"]);
    expect(new RunSettings({}, { MSGSTAT_CONFIG_DIR: config.dir }).setting("timeout")?.value).toBe(99);
  });

  it("resolve each setting flag > environment > profile > default, a command's own flag beside the global ones", () => {
    const config = configFolder();
    config.write({ default: { concurrency: 3, tz: "Asia/Tokyo", "country-code": "33" }, staging: { concurrency: 2 } });
    const env = { MSGSTAT_CONFIG_DIR: config.dir, MSGSTAT_CONCURRENCY: "5", MSGSTAT_TZ: "UTC" };
    const run = new RunSettings({ tz: "Europe/Paris" }, env);
    expect(run.setting("concurrency", { concurrency: 7 })).toEqual({
      value: 7,
      from: { kind: "flag", label: "--concurrency" },
    });
    expect(run.setting("concurrency")).toEqual({
      value: 5,
      from: { kind: "environment", label: "MSGSTAT_CONCURRENCY" },
    });
    expect(run.setting("tz")).toEqual({ value: "Europe/Paris", from: { kind: "flag", label: "--tz" } });
    expect(run.setting("country-code")?.from.kind).toBe("profile");
    expect(run.setting("retries")).toEqual({ value: 3, from: { kind: "default", label: "built-in default" } });
    expect(run.setting("proxy")).toBeUndefined();
    const staging = new RunSettings({ profile: "staging" }, { MSGSTAT_CONFIG_DIR: config.dir });
    expect(staging.setting("concurrency")).toEqual({
      value: 2,
      from: { kind: "profile", label: 'concurrency of profile "staging"' },
    });
    expect(staging.profile().chosenBy).toEqual({ kind: "flag", label: "--profile" });
  });

  it("count a profile that cannot be read as empty for a setting, and throw its problem for the profile", () => {
    const config = configFolder();
    config.write({ default: { tz: "Asia/Tokyo", timeout: "soon" } });
    const run = new RunSettings({}, { MSGSTAT_CONFIG_DIR: config.dir });
    expect(run.setting("tz")).toEqual({ value: "local", from: { kind: "default", label: "built-in default" } });
    expect(() => run.profile()).toThrow('timeout of profile "default" must be a number of seconds above 0');
    expect(run.profile({ unchecked: true }).config.profiles.default).toEqual({ tz: "Asia/Tokyo", timeout: "soon" });
    const unknown = new RunSettings({ profile: "prod" }, { MSGSTAT_CONFIG_DIR: config.dir });
    expect(unknown.setting("timeout")?.from.kind).toBe("default");
    expect(() => unknown.profile()).toThrow('unknown profile "prod" (--profile); known profiles: default');
    expect(unknown.profile({ create: true }).exists).toBe(false);
  });

  it("keep a config file that cannot be read as the problem it was, for the whole run", () => {
    const config = configFolder();
    config.write({});
    writeFileSync(config.configFile, "{ not json");
    const run = new RunSettings({}, { MSGSTAT_CONFIG_DIR: config.dir });
    expect(run.setting("timeout")?.value).toBe(30);
    expect(() => run.configFile()).toThrow(`the config file ${config.configFile} is not valid JSON`);
    config.write({ default: {} });
    expect(() => run.profile()).toThrow(`the config file ${config.configFile} is not valid JSON`);
  });
});

function emptyProfile(values: Profile["values"] = {}): Profile {
  return {
    name: "default",
    chosenBy: { kind: "default", label: "the default" },
    exists: true,
    paths: { dir: "/nowhere", configFile: "/nowhere/config.json", credentialsFile: "/nowhere/credentials" },
    config: { path: "/nowhere/config.json", exists: false, profiles: {} },
    values,
    headers: [],
  };
}
