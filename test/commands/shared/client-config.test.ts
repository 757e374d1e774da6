// Issue 21, defect 1: "no service URL" notices the profiles that have one, and otherwise says how to try the
// sandbox with the command that works after `msgstat sandbox --save-profile` on this machine's config.
import { describe, expect, it } from "vitest";
import { configFolder } from "../../support/profiles.js";

const NO_URL =
  "msgstat: no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat " +
  "config set base-url <url>)\n";

describe("no service URL: what the hint says, by what the config file holds", () => {
  it.each<[string, Record<string, Record<string, unknown>> | undefined, Record<string, string>, string]>([
    [
      "no config file: the sandbox saved becomes the default, so no --profile",
      undefined,
      {},
      "  To try msgstat against its built-in sandbox: msgstat sandbox --save-profile, then msgstat messages cmp-spring-sale\n",
    ],
    [
      "an empty default profile: the same",
      { default: {} },
      {},
      "  To try msgstat against its built-in sandbox: msgstat sandbox --save-profile, then msgstat messages cmp-spring-sale\n",
    ],
    [
      "a default profile without a URL: the sandbox is saved beside it, so --profile sandbox",
      { default: { timeout: 45 } },
      {},
      "  To try msgstat against its built-in sandbox: msgstat sandbox --save-profile, then msgstat --profile sandbox messages cmp-spring-sale\n",
    ],
    [
      "one other profile with a URL: named",
      { default: { timeout: 45 }, sandbox: { "base-url": "http://127.0.0.1:12180" } },
      {},
      '  Profile "sandbox" has one: add --profile sandbox (or export MSGSTAT_PROFILE=sandbox).\n',
    ],
    [
      "several: all named",
      { prod: { "base-url": "https://api.example.com" }, sandbox: { "base-url": "http://127.0.0.1:12180" } },
      {},
      '  Profiles "prod", "sandbox" have one: add --profile <name>, e.g. --profile prod.\n',
    ],
    [
      "the profile chosen by MSGSTAT_PROFILE has none, the default has one",
      { default: { "base-url": "https://api.example.com" }, ops: { timeout: 5 } },
      { MSGSTAT_PROFILE: "ops" },
      '  Profile "default" has one: add --profile default (or export MSGSTAT_PROFILE=default).\n',
    ],
  ])("%s", async (_name, profiles, env, hint) => {
    const config = configFolder();
    if (profiles !== undefined) config.write(profiles);
    for (const columns of [80, 160]) {
      expect(await config.run(["messages", "cmp-spring-sale"], { columns, env })).toEqual({
        code: 2,
        stdout: "",
        stderr: NO_URL + hint,
      });
    }
  });
});
