// -q, --quiet (issue 21): nothing on stderr but errors, so a cron job that went well prints nothing at
// all. Notes, warnings and progress go; an error keeps its line and hints, and every exit code stays.
// The one line it keeps: the table's default --limit cut the listing short, which the user did not ask.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { cli, useTestSandbox } from "../../support/cli-helpers.js";
import { configFolder } from "../../support/profiles.js";
import { scratchFolder } from "../../support/scratch.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

const EXPORT = ["messages", "cmp-spring-sale", "--status", "failure"];
const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe("a successful export with --quiet prints nothing at all", () => {
  it("without --quiet it says what it wrote (what --quiet leaves out)", async () => {
    const file = path.join(scratchFolder("msgstat-quiet-"), "failures.csv");
    const result = await cli(sandbox, [...EXPORT, "-o", file]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote 17 messages to ${file}\n` });
  });

  it.each<[string, string[], Record<string, string>]>([
    ["-q before the command", ["-q", ...EXPORT], {}],
    ["--quiet after it", [...EXPORT, "--quiet"], {}],
    ["MSGSTAT_QUIET=1", EXPORT, { MSGSTAT_QUIET: "1" }],
    ["MSGSTAT_QUIET=yes", EXPORT, { MSGSTAT_QUIET: "yes" }],
  ])("%s: empty stdout and stderr, exit 0, the file written", async (_name, args, env) => {
    const file = path.join(scratchFolder("msgstat-quiet-"), "failures.csv");
    const result = await cli(sandbox, [...args, "-o", file], { env });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(lines(readFileSync(file, "utf8"))).toHaveLength(18);
  });

  it("the profile's quiet, and MSGSTAT_QUIET=0 over it", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": sandbox.url, quiet: "true" } });
    const file = path.join(scratchFolder("msgstat-quiet-"), "failures.csv");
    expect(await config.run([...EXPORT, "-o", file])).toEqual({ code: 0, stdout: "", stderr: "" });
    const loud = await config.run([...EXPORT, "-o", file], { env: { MSGSTAT_QUIET: "0" } });
    expect(loud).toEqual({ code: 0, stdout: "", stderr: `wrote 17 messages to ${file}\n` });
  });

  it("config set quiet yes stores true, which the next run reads", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": sandbox.url } });
    expect(await config.run(["config", "set", "quiet", "yes"])).toMatchObject({ code: 0, stdout: "" });
    expect(config.read().profiles.default).toEqual({ "base-url": sandbox.url, quiet: "true" });
    const file = path.join(scratchFolder("msgstat-quiet-"), "failures.csv");
    expect(await config.run([...EXPORT, "-o", file])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("stats -o, and with a spinner's terminal on stderr: nothing", async () => {
    const file = path.join(scratchFolder("msgstat-quiet-"), "report.json");
    const result = await cli(sandbox, ["-q", "stats", "cmp-spring-sale", "-o", file], { stderrTty: true });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty("totals");
  });

  it("warnings and the empty-result note go too; stdout is the same", async () => {
    const args = ["messages", "cmp-spring-sale", "--status", "bounced", "--json"];
    const loud = await cli(sandbox, args);
    expect(lines(loud.stderr)).toHaveLength(2);
    expect(await cli(sandbox, ["-q", ...args])).toEqual({ code: 0, stdout: loud.stdout, stderr: "" });
  });

  it("-n that leaves messages behind: the user asked for n, and for quiet", async () => {
    const result = await cli(sandbox, ["-q", "messages", "cmp-spring-sale", "-n", "5", "--jsonl"]);
    expect({ code: result.code, stderr: result.stderr, rows: lines(result.stdout).length }).toEqual({
      code: 0,
      stderr: "",
      rows: 5,
    });
  });
});

describe("what --quiet keeps", () => {
  it.each([80, 160])(
    "the table's default --limit cutting it short: one line (terminal, %i columns)",
    async (columns) => {
      const loud = await cli(sandbox, ["messages", "cmp-spring-sale", "--no-color"], { tty: true, columns });
      const quiet = await cli(sandbox, ["-q", "messages", "cmp-spring-sale", "--no-color"], { tty: true, columns });
      expect(quiet).toEqual({
        code: 0,
        stdout: loud.stdout,
        stderr: "Showing 50 messages, the default --limit; more may follow: add --all for every message.\n",
      });
    },
  );

  it("the same for the piped table of several campaigns", async () => {
    const result = await cli(sandbox, ["-q", "messages", "cmp-spring-sale", "cmp-otp-alerts"]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(51);
    expect(result.stderr).toBe(
      "Showing 50 messages, the default --limit; more may follow: add --all for every message.\n",
    );
  });

  it("an error: its line and hints, as without --quiet, and its exit code", async () => {
    const args = ["messages", "cmp-nope", "--csv"];
    const loud = await cli(sandbox, args);
    const quiet = await cli(sandbox, ["-q", ...args]);
    expect(loud.code).toBe(3);
    expect(quiet).toEqual(loud);
    expect(quiet.stderr).toMatch(/^msgstat: not found: GET /);
  });

  it.each<[string, (dir: string) => string[]]>([
    ["messages to stdout", () => ["messages", "cmp-spring-sale", "cmp-nope", "--jsonl"]],
    ["messages -o", (dir) => ["messages", "cmp-spring-sale", "cmp-nope", "-o", path.join(dir, "all.csv")]],
    ["stats -o", (dir) => ["stats", "cmp-spring-sale", "cmp-nope", "-o", path.join(dir, "report.json")]],
  ])(
    "several campaigns, one missing (%s): the failed campaign's line and the error, as without --quiet",
    async (_name, args) => {
      const dir = scratchFolder("msgstat-quiet-");
      const loud = await cli(sandbox, args(dir));
      const quiet = await cli(sandbox, ["-q", ...args(dir)]);
      expect(loud.code).toBe(3);
      expect(quiet).toEqual(loud);
      expect(quiet.stderr).toMatch(/^warning: campaign cmp-nope: not found: /);
    },
  );

  it("a usage error: its line, exit 2", async () => {
    const file = path.join(scratchFolder("msgstat-quiet-"), "m.xlsx");
    const result = await cli(sandbox, ["-q", "messages", "cmp-spring-sale", "-o", file]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `msgstat: -o ${file}: no format for .xlsx files; known: .csv, .json, .jsonl, .ndjson, .tsv and .parquet`,
    );
  });

  it("--verbose wins: a request line each", async () => {
    const result = await cli(sandbox, ["-q", "-v", "messages", "cmp-spring-sale", "-n", "1", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-spring-sale\/messages\?limit=1 /m);
  });

  it("MSGSTAT_QUIET that is neither on nor off is a usage error naming it", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--json"], { env: { MSGSTAT_QUIET: "maybe" } });
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: 'msgstat: MSGSTAT_QUIET must be true or false (yes/no, on/off, 1/0), not "maybe"\n',
    });
  });
});
