// The config file is read once a run: the built program under strace, against a sandbox its profile
// names, opens it exactly once for a listing of two campaigns to a file and for an export. CI installs
// strace (.ci/run) and sets MSGSTAT_CI: there a missing strace fails the test; elsewhere it is skipped.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "../sandbox/http-helpers.js";
import { programCommand, type CliResult } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const installed = spawnSync("sh", ["-c", "command -v strace"]).status === 0;

function needStrace(context: { skip: (note: string) => void }): void {
  if (installed) return;
  if (process.env.MSGSTAT_CI)
    throw new Error("strace is not installed, and CI (MSGSTAT_CI) installs it: .ci/run's apt-get line failed");
  context.skip("strace is not installed (apt-get install strace); the config file's reads were not counted");
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, messages: 200, now: FIXED_NOW });
});
afterAll(() => sandbox.close());

/** msgstat run under strace in `cwd`, with a profile holding the sandbox's URL; what it did, and its opens of the config file. */
async function traced(args: string[], cwd: string): Promise<CliResult & { configOpens: string[] }> {
  const configDir = path.join(cwd, "config");
  mkdirSync(configDir, { mode: 0o700 });
  const configFile = path.join(configDir, "config.json");
  writeFileSync(configFile, JSON.stringify({ profiles: { default: { "base-url": sandbox.url } } }), { mode: 0o600 });
  const trace = path.join(cwd, "strace.txt");
  const env = { PATH: process.env.PATH, HOME: cwd, TZ: "UTC", MSGSTAT_CONFIG_DIR: configDir };
  const result = await new Promise<CliResult>((resolve) => {
    execFile(
      "strace",
      ["-f", "-e", "trace=openat,open", "-o", trace, ...programCommand(args).flat()],
      { cwd, env, encoding: "utf8" },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
  const configOpens = readFileSync(trace, "utf8")
    .split("\n")
    .filter((line) => /\bopen(at)?\(/.test(line) && line.includes(JSON.stringify(configFile)));
  return { ...result, configOpens };
}

describe("the config file is opened once a run", () => {
  it("messages a b --csv -o x.csv", async (context) => {
    needStrace(context);
    const cwd = scratchFolder("msgstat-config-reads-");
    const result = await traced(["messages", "cmp-loyalty-es", "cmp-otp-alerts", "--csv", "-o", "x.csv"], cwd);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(readFileSync(path.join(cwd, "x.csv"), "utf8")).toMatch(/^campaignId,id,recipient,/);
    expect(result.configOpens).toHaveLength(1);
  });

  it("export a b --to DIR", async (context) => {
    needStrace(context);
    const cwd = scratchFolder("msgstat-config-reads-");
    const result = await traced(["export", "cmp-loyalty-es", "cmp-otp-alerts", "--to", "dataset"], cwd);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(JSON.parse(readFileSync(path.join(cwd, "dataset", "msgstat-export.json"), "utf8"))).toBeTypeOf("object");
    expect(result.configOpens).toHaveLength(1);
  });
});
