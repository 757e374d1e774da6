// Issue 25, items 6, 11, 12 and 16: the config folder's files as people and other users leave them: a
// byte-order mark from an editor, files another user owns or can write (refused, as ssh refuses them),
// profile names that every JavaScript object has as members, and a config.json that is a symbolic link.
// The machine runs the tests as root; files are given to `nobody` with chown.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeKeyring } from "../../support/fake-keyring.js";
import { configFolder } from "../../support/profiles.js";
import { scratchFolder } from "../../support/scratch.js";
import { startTestSandbox } from "../../support/cli-helpers.js";

vi.mock("@napi-rs/keyring", async () => (await import("../../support/fake-keyring.js")).fakeKeyringModule);
beforeEach(() => fakeKeyring.reset("absent"));

const NOBODY = 65534;
const BOM = "\ufeff";

describe("a byte-order mark where an editor puts one (item 6)", () => {
  it("config.json saved with a BOM is read, and written back without it", async () => {
    const config = configFolder();
    mkdirSync(config.dir, { recursive: true, mode: 0o700 });
    writeFileSync(config.configFile, `${BOM}{ "profiles": { "ops": { "timeout": 12 } } }\n`);
    expect(await config.run(["config", "get", "timeout", "--profile", "ops"])).toEqual({
      code: 0,
      stdout: "12\n",
      stderr: "",
    });
    expect(await config.run(["config", "set", "retries", "2", "--profile", "ops"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(readFileSync(config.configFile, "utf8").startsWith("{")).toBe(true);
    expect(config.read()).toEqual({ profiles: { ops: { timeout: 12, retries: 2 } } });
  });

  it("a credentials file saved with a BOM gives its token", async () => {
    const sandbox = await startTestSandbox({ token: "tok-with-a-bom-0001", messages: 3 });
    try {
      const config = configFolder();
      config.write({ ops: { "base-url": sandbox.url, "token-store": "file" } });
      writeFileSync(config.credentialsFile, `${BOM}{ "tokens": { "ops": "tok-with-a-bom-0001" } }`, { mode: 0o600 });
      const result = await config.run(["--profile", "ops", "messages", "cmp-otp-alerts", "--jsonl", "-n", "1"]);
      expect(result.stderr).not.toContain("msgstat:");
      expect(result.code).toBe(0);
      expect(sandbox.requests.map((request) => request.headers.authorization)).toEqual(["Bearer tok-with-a-bom-0001"]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("files another user owns or can write are refused, as ssh refuses them (item 11)", () => {
  /** A config.json naming a token-command that would leave a mark if it ran. */
  function plantedConfig() {
    const config = configFolder();
    const mark = path.join(path.dirname(config.dir), "ran");
    config.write({ default: { "base-url": "http://127.0.0.1:9", "token-command": `touch ${mark}` } });
    return { config, mark };
  }

  it("a config.json others can write (0666) is refused with advice, its token-command never run", async () => {
    const { config, mark } = plantedConfig();
    chmodSync(config.configFile, 0o666);
    expect(await config.run(["auth", "status"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: refusing to use the config file ${config.configFile}: its mode 0666 lets others change it\n` +
        `  Let only its owner write it, as ssh asks: chmod go-w ${config.configFile}\n`,
    });
    expect(existsSync(mark)).toBe(false);
  });

  it("a config.json its group can write is refused too", async () => {
    const { config } = plantedConfig();
    chmodSync(config.configFile, 0o620);
    const result = await config.run(["config", "list"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `msgstat: refusing to use the config file ${config.configFile}: its mode 0620 lets its group change it`,
    );
  });

  it("a config folder of mode 0777 owned by nobody is refused, with what to do; nothing is run or written", async () => {
    const { config, mark } = plantedConfig();
    chownSync(config.dir, NOBODY, NOBODY);
    chmodSync(config.dir, 0o777);
    chownSync(config.configFile, NOBODY, NOBODY);
    const status = await config.run(["auth", "status"]);
    expect(status).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: refusing to use the config folder ${config.dir}: it belongs to another user (uid ${NOBODY})\n` +
        `  Only your own files are trusted there, as ssh does; if it is yours: chown root ${config.dir}\n`,
    });
    expect(existsSync(mark)).toBe(false);
    const before = readFileSync(config.configFile, "utf8");
    expect((await config.run(["config", "set", "timeout", "5"])).code).toBe(2);
    expect(readFileSync(config.configFile, "utf8")).toBe(before);
  });

  it("a config folder others can write is refused even before config.json exists", async () => {
    const config = configFolder();
    mkdirSync(config.dir, { recursive: true });
    chmodSync(config.dir, 0o757);
    const result = await config.run(["config", "set", "timeout", "5"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: refusing to use the config folder ${config.dir}: its mode 0757 lets others change it\n` +
        `  Let only its owner write it, as ssh asks: chmod go-w ${config.dir}\n`,
    });
    expect(existsSync(config.configFile)).toBe(false);
  });

  it("a config.json owned by another user is refused, even at mode 0644", async () => {
    const { config, mark } = plantedConfig();
    chownSync(config.configFile, NOBODY, NOBODY);
    const result = await config.run(["messages", "cmp-otp-alerts"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `msgstat: refusing to use the config file ${config.configFile}: it belongs to another user (uid ${NOBODY})`,
    );
    expect(existsSync(mark)).toBe(false);
  });

  it("a credentials file owned by another user (0600) is refused and its token never sent", async () => {
    const sandbox = await startTestSandbox({ token: "tok-of-someone-else", messages: 3 });
    try {
      const config = configFolder();
      config.write({ default: { "base-url": sandbox.url, "token-store": "file" } });
      writeFileSync(config.credentialsFile, '{ "tokens": { "default": "tok-of-someone-else" } }', { mode: 0o600 });
      chownSync(config.credentialsFile, NOBODY, NOBODY);
      const result = await config.run(["messages", "cmp-otp-alerts", "--jsonl"]);
      expect(result).toEqual({
        code: 4,
        stdout: "",
        stderr:
          `msgstat: refusing to use the credentials file ${config.credentialsFile}: it belongs to another user (uid ${NOBODY})\n` +
          `  Only your own files are trusted there, as ssh does; if it is yours: chown root ${config.credentialsFile}\n`,
      });
      expect(sandbox.requests).toHaveLength(0);
    } finally {
      await sandbox.close();
    }
  });

  it("files of root in the folder of the user running msgstat are trusted (root may own them)", async () => {
    const { config } = plantedConfig();
    chmodSync(config.configFile, 0o644);
    chmodSync(config.dir, 0o755);
    expect((await config.run(["config", "get", "base-url"])).stdout).toBe("http://127.0.0.1:9\n");
  });
});

describe("profile names that are members of every JavaScript object (item 12)", () => {
  it.each(["constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"])(
    "%s is a profile like any other: config set saves it, an unknown one is unknown, login keeps it",
    async (name) => {
      const config = configFolder();
      expect(await config.run(["--profile", name, "config", "get", "base-url"])).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `msgstat: unknown profile "${name}" (--profile); no profile is saved yet (config file: ${config.configFile})\n` +
          `  Create it with: msgstat auth login --profile ${name} --base-url <url>, or msgstat config set --profile ${name} base-url <url>\n`,
      });
      expect(await config.run(["config", "set", "--profile", name, "base-url", "https://a.example"])).toEqual({
        code: 0,
        stdout: "",
        stderr: "",
      });
      expect(config.read().profiles[name]).toEqual({ "base-url": "https://a.example" });
      const login = await config.run(
        ["auth", "login", "--profile", "other", "--base-url", "https://b.example", "--with-token"],
        {
          stdin: "tok-for-other-0001",
        },
      );
      expect(login.code).toBe(0);
      const login2 = await config.run(["auth", "login", "--profile", name, "--with-token"], {
        stdin: "tok-for-member-0001",
      });
      expect(login2.code).toBe(0);
      expect(config.read().profiles).toEqual({
        [name]: { "base-url": "https://a.example", "token-store": "file" },
        other: { "base-url": "https://b.example", "token-store": "file" },
      });
      expect(JSON.parse(readFileSync(config.credentialsFile, "utf8"))).toEqual({
        tokens: { other: "tok-for-other-0001", [name]: "tok-for-member-0001" },
      });
      expect((await config.run(["config", "profiles"])).stdout).toBe([name, "other"].sort().join("\n") + "\n");
    },
  );

  it("--profile valueOf without such a profile says unknown profile, not 'no service URL'", async () => {
    const config = configFolder();
    config.write({ prod: { "base-url": "https://a.example" } });
    const result = await config.run(["--profile", "valueOf", "messages", "cmp-otp-alerts"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe('msgstat: unknown profile "valueOf" (--profile); known profiles: prod');
  });

  it("__proto__ is refused by the name rule", async () => {
    const result = await configFolder().run(["config", "set", "--profile", "__proto__", "timeout", "5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^msgstat: "__proto__" is not a profile name/);
  });
});

describe("a symbolically linked config.json is written through (item 16)", () => {
  it("config set replaces the link's target and keeps the link, as -o does", async () => {
    const config = configFolder();
    const dotfiles = scratchFolder("msgstat-dotfiles-");
    const target = path.join(dotfiles, "msgstat.json");
    writeFileSync(target, JSON.stringify({ profiles: { ops: { timeout: 5 } } }), { mode: 0o644 });
    mkdirSync(config.dir, { recursive: true, mode: 0o700 });
    symlinkSync(path.relative(config.dir, target), config.configFile);
    expect((await config.run(["config", "set", "--profile", "ops", "retries", "1"])).code).toBe(0);
    expect(lstatSync(config.configFile).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ profiles: { ops: { timeout: 5, retries: 1 } } });
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });
});

describe("config.json's mode", () => {
  it("a new config.json is 0600", async () => {
    const config = configFolder();
    await config.run(["config", "set", "headers.X-Team", "support"]);
    expect(statSync(config.configFile).mode & 0o777).toBe(0o600);
  });
});
