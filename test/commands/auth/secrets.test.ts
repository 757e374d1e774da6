// No command prints a token in full: not auth login or status, not config list, not --verbose, not
// an error, not a stack trace. At most its last four characters show; any five in a row would fail.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { startTestSandbox } from "../../support/cli-helpers.js";
import { configFolder } from "../../support/profiles.js";
import type { CliResult } from "../../support/run-cli.js";

vi.mock("@napi-rs/keyring", async () => (await import("../../support/fake-keyring.js")).fakeKeyringModule);

const TOKEN = "Qx7vZk2mWp9rTn4bLs8d";
let right: Sandbox;
let wrong: Sandbox;
beforeAll(async () => {
  right = await startTestSandbox({ token: TOKEN, messages: 10 });
  wrong = await startTestSandbox({ token: "another-token-entirely", messages: 10 });
});
afterAll(async () => {
  await Promise.all([right.close(), wrong.close()]);
});

/** Fails when five or more characters of the token in a row appear anywhere in what msgstat wrote. */
function expectNoToken(results: CliResult[]): void {
  const text = results.map((result) => result.stdout + result.stderr).join("\n");
  for (let start = 0; start + 5 <= TOKEN.length; start++) expect(text).not.toContain(TOKEN.slice(start, start + 5));
}

describe("a token is never printed in full", () => {
  it("by auth login, auth status, config list and get, whatever the token's source", async () => {
    const config = configFolder();
    const results = [
      await config.run(["auth", "login", "--base-url", right.url, "--with-token"], { stdin: TOKEN }),
      await config.run(["auth", "status"]),
      await config.run(["auth", "status", "--token", TOKEN]),
      await config.run(["auth", "status"], { env: { MSGSTAT_TOKEN: TOKEN } }),
      await config.run(["config", "list"]),
      await config.run(["config", "get", "token-store"]),
      await config.run(["config", "get", "token"]),
      await config.run(["auth", "logout"]),
    ];
    expect(results[1]!.stdout).toContain(`****${TOKEN.slice(-4)}`);
    expectNoToken(results);
  });

  it("by --verbose, on success and on a 401 with its stack trace", async () => {
    const config = configFolder();
    await config.run(["auth", "login", "--base-url", right.url, "--with-token"], { stdin: TOKEN });
    await config.run(["auth", "login", "--profile", "other", "--base-url", wrong.url, "--with-token"], {
      stdin: TOKEN,
    });
    const ok = await config.run(["-v", "messages", "cmp-otp-alerts", "--all", "--jsonl"]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`token: ****${TOKEN.slice(-4)} (file)`);
    const refused = await config.run(["-v", "--profile", "other", "messages", "cmp-otp-alerts"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("    at ");
    const fromFlag = await config.run(["-v", "--base-url", wrong.url, "--token", TOKEN, "messages", "cmp-otp-alerts"]);
    expect(fromFlag.code).toBe(4);
    expectNoToken([ok, refused, fromFlag]);
  });

  it("by a token-command that fails after printing the token, even with --verbose", async () => {
    const config = configFolder();
    config.write({
      default: {
        "base-url": right.url,
        "token-command": `'${process.execPath}' -e 'console.log("${TOKEN}"); process.exit(1)'`,
      },
    });
    const failed = await config.run(["-v", "messages", "cmp-otp-alerts"]);
    expect(failed.code).toBe(4);
    expect(failed.stderr).toContain(
      'token-command of profile "default" failed with exit status 1 (it printed nothing on stderr)',
    );
    expectNoToken([failed, await config.run(["auth", "status"])]);
  });

  it("in a token with a line break, refused at the flag", async () => {
    const config = configFolder();
    expectNoToken([
      await config.run(["--base-url", right.url, "--token", `${TOKEN}\nX`, "-v", "messages", "cmp-otp-alerts"]),
    ]);
  });
});
