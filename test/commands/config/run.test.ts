// `msgstat config list | get | set | unset | profiles`: every key checked as its flag would be,
// the token refused, the file kept human-editable and replaced atomically.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeFileAtomic } from "../../../src/config/config-folder.js";
import { configFolder } from "../../support/profiles.js";
import { scratchFolder } from "../../support/scratch.js";

vi.mock("@napi-rs/keyring", async () => (await import("../../support/fake-keyring.js")).fakeKeyringModule);

const VALID_KEYS =
  "valid keys: base-url, timeout, retries, proxy, ca-file, tz, token-command, token-command-timeout, concurrency, campaigns, country-code, quiet, headers, headers.<Name>";

describe("config set, get, unset, list", () => {
  it("set writes the key to the profile, get prints it, list prints key=value, unset removes it", async () => {
    const config = configFolder();
    for (const [key, value] of [
      ["base-url", "https://api.example.com/v2"],
      ["timeout", "12.5"],
      ["retries", "0"],
      ["tz", "Europe/Paris"],
      ["proxy", "http://proxy.example.com:3128"],
      ["headers.X-Team", "support"],
      ["token-command", "pass show msgstat/prod"],
      ["token-command-timeout", "5"],
    ]) {
      expect(await config.run(["config", "set", "--profile", "prod", key!, value!])).toEqual({
        code: 0,
        stdout: "",
        stderr: "",
      });
    }
    expect(config.read()).toEqual({
      profiles: {
        prod: {
          "base-url": "https://api.example.com/v2",
          timeout: 12.5,
          retries: 0,
          tz: "Europe/Paris",
          proxy: "http://proxy.example.com:3128",
          headers: { "X-Team": "support" },
          "token-command": "pass show msgstat/prod",
          "token-command-timeout": 5,
        },
      },
    });
    expect(await config.run(["config", "get", "timeout", "--profile", "prod"])).toEqual({
      code: 0,
      stdout: "12.5\n",
      stderr: "",
    });
    expect(await config.run(["config", "get", "headers.x-team", "--profile", "prod"])).toEqual({
      code: 0,
      stdout: "support\n",
      stderr: "",
    });
    expect(await config.run(["--profile", "prod", "config", "list"])).toEqual({
      code: 0,
      stdout:
        "base-url=https://api.example.com/v2\ntimeout=12.5\nretries=0\ntz=Europe/Paris\nproxy=http://proxy.example.com:3128\nheaders.X-Team=support\ntoken-command=pass show msgstat/prod\ntoken-command-timeout=5\n",
      stderr: "",
    });
    await config.run(["config", "unset", "--profile", "prod", "timeout"]);
    await config.run(["config", "unset", "--profile", "prod", "headers.X-TEAM"]);
    expect(config.read().profiles.prod).not.toHaveProperty("timeout");
    expect(config.read().profiles.prod).not.toHaveProperty("headers");
    expect(await config.run(["config", "get", "timeout", "--profile", "prod"])).toEqual({
      code: 0,
      stdout: "",
      stderr: 'timeout is not set in profile "prod"; the built-in default is 30\n',
    });
  });

  it("MSGSTAT_PROFILE chooses the profile too; without either it is default", async () => {
    const config = configFolder();
    await config.run(["config", "set", "base-url", "https://default.example.com"]);
    await config.run(["config", "set", "base-url", "https://staging.example.com"], {
      env: { MSGSTAT_PROFILE: "staging" },
    });
    expect(config.read().profiles).toEqual({
      default: { "base-url": "https://default.example.com" },
      staging: { "base-url": "https://staging.example.com" },
    });
  });

  it("profiles lists the saved profiles, one a line", async () => {
    const config = configFolder();
    expect(await config.run(["config", "profiles"])).toEqual({
      code: 0,
      stdout: "",
      stderr: `no profile is saved yet (${config.configFile})\n`,
    });
    await config.run(["config", "set", "--profile", "staging", "timeout", "5"]);
    await config.run(["config", "set", "base-url", "https://api.example.com"]);
    expect(await config.run(["config", "profiles"])).toEqual({ code: 0, stdout: "default\nstaging\n", stderr: "" });
  });

  it("get, list and unset of an unknown profile are usage errors; set creates it", async () => {
    const config = configFolder();
    await config.run(["config", "set", "--profile", "prod", "timeout", "5"]);
    for (const args of [
      ["config", "list", "--profile", "qa"],
      ["config", "get", "timeout", "--profile", "qa"],
      ["config", "unset", "timeout", "--profile", "qa"],
    ]) {
      const result = await config.run(args);
      expect(result.code).toBe(2);
      expect(result.stderr.split("\n")[0]).toBe('msgstat: unknown profile "qa" (--profile); known profiles: prod');
    }
    expect((await config.run(["config", "set", "--profile", "bad name", "timeout", "5"])).stderr).toBe(
      `msgstat: "bad name" is not a profile name: use letters, digits, '.', '_' and '-', starting with a letter or digit (at most 64)\n`,
    );
  });
});

describe("config validation", () => {
  it("tz takes a fixed offset, on every Node line (msgstat reads offsets itself)", async () => {
    const config = configFolder();
    expect(await config.run(["config", "set", "tz", "+01:00"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(config.read()).toEqual({ profiles: { default: { tz: "+01:00" } } });
    // A value starting with "-" follows "--", as for any command's argument.
    expect(await config.run(["config", "set", "tz", "--", "-05:30"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(config.read()).toEqual({ profiles: { default: { tz: "-05:30" } } });
  });

  it.each([
    [["nope", "1"], `msgstat: unknown key "nope"; ${VALID_KEYS}`],
    [["timeout", "soon"], 'msgstat: timeout must be a number of seconds above 0 (at most 3600), not "soon"'],
    [["timeout", "0"], 'msgstat: timeout must be a number of seconds above 0 (at most 3600), not "0"'],
    [["retries", "2.5"], 'msgstat: retries must be a whole number from 0 to 20, not "2.5"'],
    [["base-url", "ftp://x.example"], "msgstat: base-url must be http:// or https://, not ftp://"],
    [["base-url", "https://me:pw@x.example"], "msgstat: base-url may not carry a user name or password"],
    [
      ["proxy", "http://me:pw@proxy:3128"],
      "msgstat: proxy may not carry a user name or password: no credential is kept in the config file",
    ],
    [
      ["tz", "Mars/Olympus"],
      'msgstat: tz "Mars/Olympus" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"',
    ],
    [
      ["headers.Authorization", "Bearer x"],
      "msgstat: headers.Authorization looks like a credential, and no credential is kept in the config file",
    ],
    [
      ["headers.X-Api-Key", "k"],
      "msgstat: headers.X-Api-Key looks like a credential, and no credential is kept in the config file",
    ],
    // Issue 25, item 10: one rule for every name that looks like a credential (the README's words, API-key headers).
    ...[
      "X-Access-Key",
      "Ocp-Apim-Subscription-Key",
      "X-Session-Key",
      "Private-Key",
      "X-Key",
      "X-API-KEY",
      "apikey",
      "X-Auth-Token",
      "Proxy-Authorization",
      "Cookie",
      "X-Client-Secret",
      "X-Password",
      "X-Amz-Security-Token",
      "X-Session-Id",
      "X-Signature",
    ].map((name): [string[], string] => [
      [`headers.${name}`, "v"],
      `msgstat: headers.${name} looks like a credential, and no credential is kept in the config file`,
    ]),
    [["headers.Bad Name", "v"], "msgstat: headers.Bad Name is not a valid header name"],
    [
      ["headers.Content-Length", "5"],
      "msgstat: headers.Content-Length frames the request or steers its connection, which msgstat does itself; it cannot be given",
    ],
    [
      ["headers.connection", "close"],
      "msgstat: headers.connection frames the request or steers its connection, which msgstat does itself; it cannot be given",
    ],
    [
      ["headers", "X-Team: support"],
      "msgstat: set one header at a time: msgstat config set headers.<Name> <value>, e.g. headers.X-Team support",
    ],
    [["token-command", "pass show x | head -1"], "msgstat: token-command uses |, which only a shell understands"],
    [
      ["token-store", "file"],
      "msgstat: token-store says where auth login put the token; msgstat auth login and msgstat auth logout change it",
    ],
    [["campaigns", " , "], "msgstat: campaigns needs at least one campaign id, e.g. cmp-spring-sale,cmp-otp-alerts"],
    [["campaigns", "a,b/c"], 'msgstat: campaigns has "b/c", which holds a control character or a slash'],
    [
      ["country-code", "0044x"],
      'msgstat: country-code must be a country calling code of 1 to 3 digits (44, +44), not "0044x"',
    ],
  ])("config set %j is a usage error naming what is valid", async (args, firstLine) => {
    const config = configFolder();
    const result = await config.run(["config", "set", ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[0]).toBe(firstLine);
    expect(() => statSync(config.configFile)).toThrow();
  });

  it("campaigns is kept as a list without spaces or repeats; country-code as its digits", async () => {
    const config = configFolder();
    expect(await config.run(["config", "set", "campaigns", " cmp-a, cmp-b,,cmp-a "])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(await config.run(["config", "set", "country-code", "+44"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(config.read()).toEqual({ profiles: { default: { campaigns: "cmp-a,cmp-b", "country-code": "44" } } });
    expect((await config.run(["config", "get", "campaigns"])).stdout).toBe("cmp-a,cmp-b\n");
  });

  it("an unknown key lists every key with what it is for", async () => {
    const result = await configFolder().run(["config", "get", "base_url"]);
    expect(result.stderr).toContain(
      `  Keys:\n    base-url               the service's base URL, may include a path prefix\n`,
    );
    expect(result.stderr).toContain(
      "    headers.<Name>         a request header that is not a secret, e.g. headers.X-Team\n",
    );
  });

  it("config set token is refused, pointing to auth login; get token to auth status", async () => {
    const config = configFolder();
    expect(await config.run(["config", "set", "token", "secret-value-1234"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: the token is never kept in the config file\n  Store it with: msgstat auth login --profile default (it prompts, or reads stdin with --with-token); or set a token-command.\n",
    });
    expect((await config.run(["config", "get", "token"])).stderr).toBe(
      "msgstat: the token is never kept in the config file\n  msgstat auth status --profile default shows where it comes from, redacted.\n",
    );
  });

  it("ca-file must exist when set, and is kept as an absolute path", async () => {
    const config = configFolder();
    const folder = scratchFolder("msgstat-ca-");
    writeFileSync(path.join(folder, "corp.pem"), "-----BEGIN CERTIFICATE-----\n");
    expect((await config.run(["config", "set", "ca-file", path.join(folder, "missing.pem")])).stderr).toBe(
      `msgstat: ca-file ${path.join(folder, "missing.pem")} is not a file\n`,
    );
    expect((await config.run(["config", "set", "ca-file", path.join(folder, "corp.pem")])).code).toBe(0);
    expect(config.read().profiles.default!["ca-file"]).toBe(path.join(folder, "corp.pem"));
  });
});

describe("the config file", () => {
  it("is JSON a person can write: every key, read back and used", async () => {
    const config = configFolder();
    config.write({
      default: { "base-url": "https://api.example.com", timeout: "20", headers: { "X-Team": "ops" }, tz: "UTC" },
    });
    expect((await config.run(["config", "list"])).stdout).toBe(
      "base-url=https://api.example.com\ntimeout=20\nheaders.X-Team=ops\ntz=UTC\n",
    );
  });

  it.each([
    ["not JSON", "{ profiles: ", /^msgstat: the config file .*config\.json is not valid JSON \(/],
    ["a list", "[]", /^msgstat: the config file .*config\.json: expected an object at the top$/m],
    [
      "another top-level key",
      '{ "profile": {} }',
      /^msgstat: the config file .*config\.json: unknown top-level key "profile" \(only "profiles"\)$/m,
    ],
    [
      "a bad value",
      '{ "profiles": { "default": { "timeout": -1 } } }',
      /^msgstat: timeout of profile "default" must be a number of seconds above 0 \(at most 3600\), not "-1"$/m,
    ],
    [
      "an unknown key",
      '{ "profiles": { "default": { "base_url": "https://a.example" } } }',
      /^msgstat: base_url of profile "default" is not a setting msgstat knows; valid keys: base-url, /m,
    ],
    [
      "a token in it",
      '{ "profiles": { "default": { "token": "abc" } } }',
      /^msgstat: token of profile "default" is a credential, and the config file never holds one\n {2}Remove it from the file and store the token with: msgstat auth login --profile default$/m,
    ],
  ])("that is broken (%s) is a usage error saying where", async (_what, text, message) => {
    const config = configFolder();
    config.write({});
    writeFileSync(config.configFile, text);
    const result = await config.run(["--base-url", "https://a.example", "messages", "cmp-x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("abc");
  });

  it("with a bad value can still be shown and mended with msgstat config", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": "https://api.example.com", timeout: -1, colour: "blue", token: "abc" } });
    // Issue 25: config list checks what it prints: every line is shown, each bad one named, and the exit code says so.
    expect(await config.run(["config", "list"])).toEqual({
      code: 2,
      stdout: "base-url=https://api.example.com\ntimeout=-1\ncolour=blue\n",
      stderr:
        'warning: timeout of profile "default" must be a number of seconds above 0 (at most 3600), not "-1"\n' +
        `warning: colour of profile "default" is not a setting msgstat knows; ${VALID_KEYS}\n` +
        'warning: token of profile "default" is a credential, and the config file never holds one\n' +
        'msgstat: profile "default" has 3 settings msgstat cannot use (above): every command using it would refuse it\n' +
        `  It is in ${config.configFile}; change it with msgstat config set or unset, or an editor.\n`,
    });
    writeFileSync(config.configFile, JSON.stringify({ profiles: { default: { timeout: "abc", retries: 1 } } }));
    expect(await config.run(["config", "list"])).toEqual({
      code: 2,
      stdout: "timeout=abc\nretries=1\n",
      stderr:
        'warning: timeout of profile "default" must be a number of seconds above 0 (at most 3600), not "abc"\n' +
        'msgstat: profile "default" has a setting msgstat cannot use (above): every command using it would refuse it\n' +
        `  It is in ${config.configFile}; change it with msgstat config set or unset, or an editor.\n`,
    });
    config.write({ default: { "base-url": "https://api.example.com", timeout: -1, colour: "blue", token: "abc" } });
    expect((await config.run(["config", "unset", "colour"])).code).toBe(0);
    expect((await config.run(["config", "unset", "token"])).code).toBe(0);
    expect((await config.run(["config", "set", "timeout", "20"])).code).toBe(0);
    expect(config.read().profiles.default).toEqual({ "base-url": "https://api.example.com", timeout: 20 });
  });

  it("is replaced atomically: a new file renamed into place, no temporary file left, its mode kept", async () => {
    const config = configFolder();
    await config.run(["config", "set", "timeout", "5"]);
    chmodSync(config.configFile, 0o640);
    const before = statSync(config.configFile).ino;
    await config.run(["config", "set", "retries", "1"]);
    const after = statSync(config.configFile);
    expect(after.ino).not.toBe(before);
    expect(after.mode & 0o777).toBe(0o640);
    expect(readdirSync(config.dir)).toEqual(["config.json"]);
    expect(JSON.parse(readFileSync(config.configFile, "utf8"))).toEqual({
      profiles: { default: { timeout: 5, retries: 1 } },
    });
    expect(statSync(config.dir).mode & 0o777).toBe(0o700);
  });

  it("a write that fails at the rename leaves what was there, and no temporary file", async () => {
    const folder = scratchFolder("msgstat-atomic-");
    const target = path.join(folder, "config.json");
    // A folder where the file should go: the temporary file is written, the rename cannot replace it.
    mkdirSync(target);
    writeFileSync(path.join(target, "kept"), "x");
    await expect(writeFileAtomic(target, "{}", 0o600)).rejects.toThrow(
      new RegExp(`^cannot write ${target} \\((EISDIR|ENOTEMPTY|EEXIST)\\)$`),
    );
    expect(readdirSync(folder)).toEqual(["config.json"]);
    expect(readdirSync(target)).toEqual(["kept"]);
  });
});
