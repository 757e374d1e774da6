// Issue 25, item 5: writers of the config folder started together, each a process of its own (the
// built bin), lose nothing: every `auth login` keeps its profile and its token, every `config set`
// its setting. Before the folder's lock, each read, changed and renamed, and the last rename won.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const WRITERS = 10;

describe("concurrent writers of the config folder", () => {
  it(`${WRITERS} auth login and ${WRITERS} config set processes started at once keep every profile and token`, async () => {
    const dir = path.join(scratchFolder("msgstat-writers-"), "msgstat");
    const env = { MSGSTAT_CONFIG_DIR: dir, MSGSTAT_KEYRING: "off" };
    const logins = Array.from({ length: WRITERS }, (_, i) =>
      runBin(["auth", "login", "--profile", `p${i}`, "--base-url", `https://p${i}.example`, "--with-token"], {
        env,
        stdin: `tok-writer-${i}-0123456789\n`,
      }),
    );
    const sets = Array.from({ length: WRITERS }, (_, i) =>
      runBin(["config", "set", "--profile", `q${i}`, "timeout", String(i + 1)], { env }),
    );
    const results = await Promise.all([...logins, ...sets]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    const profiles = (JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as { profiles: object }).profiles;
    const expected: Record<string, object> = {};
    for (let i = 0; i < WRITERS; i++) {
      expected[`p${i}`] = { "base-url": `https://p${i}.example`, "token-store": "file" };
      expected[`q${i}`] = { timeout: i + 1 };
    }
    expect(profiles).toEqual(expected);
    const tokens = (JSON.parse(readFileSync(path.join(dir, "credentials"), "utf8")) as { tokens: object }).tokens;
    expect(tokens).toEqual(
      Object.fromEntries(Array.from({ length: WRITERS }, (_, i) => [`p${i}`, `tok-writer-${i}-0123456789`])),
    );
    // No lock file and no temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(["config.json", "credentials"]);
  });
});
