// The built executable says what the source says: each command and output format, run through
// bin/msgstat.js (dist/: its lazily loaded chunks, bundled dependencies and the version read from
// package.json) and in-process from src/, gives the same exit code, stdout and stderr. The behaviour
// itself is tested on the source (test/commands/**); this is what lets those tests run once.
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { useTestSandbox } from "../support/cli-helpers.js";
import { runBin, runCli, type CliResult } from "../support/run-cli.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

/** The report's generatedAt is the moment it was made: the one thing two runs cannot share. */
function withoutGeneratedAt(result: CliResult): CliResult {
  return { ...result, stdout: result.stdout.replace(/"generatedAt":"[^"]*"/g, '"generatedAt":"…"') };
}

describe("the built bin and the source agree", () => {
  it.each([
    ["the listing as JSONL, every page", ["messages", "cmp-spring-sale", "--all", "--page-size", "70", "--jsonl"]],
    ["the listing as JSON, with the continuation hint", ["messages", "cmp-spring-sale", "-n", "30", "--json"]],
    ["the listing as CSV, with --fields", ["messages", "cmp-spring-sale", "--csv", "--fields", "id,recipient,batchId"]],
    ["the piped table", ["messages", "cmp-spring-sale", "-n", "40"]],
    ["filters", ["messages", "cmp-spring-sale", "--status", "failure", "--since", "30d", "-n", "10", "--jsonl"]],
    ["a search", ["messages", "cmp-spring-sale", "--search", "+1 (555)", "--jsonl"]],
    ["a batch listing", ["batch", "cmp-spring-sale", "bat-spring-w1", "-n", "5", "--csv"]],
    ["the message view", ["message", "cmp-spring-sale", "msg-spring-0000005"]],
    ["one message as JSON", ["message", "cmp-spring-sale", "msg-spring-0000005", "--json"]],
    ["the stats report as JSON", ["stats", "cmp-spring-sale", "--json"]],
    ["the stats tables as CSV", ["stats", "cmp-spring-sale", "--csv", "--by", "error"]],
    ["a campaign that does not exist (exit 3)", ["messages", "cmp-nope"]],
    ["a usage error (exit 2)", ["messages", "cmp-spring-sale", "--page-size", "0"]],
    ["auth status without a token (exit 4)", ["auth", "status"]],
    ["config list of no profile", ["config", "list"]],
  ])("%s", async (_name, args) => {
    const withUrl = ["--base-url", sandbox.url, ...args];
    const [bin, source] = await Promise.all([runBin(withUrl), runCli(withUrl, { env: { TZ: "UTC" } })]);
    expect(withoutGeneratedAt(bin)).toEqual(withoutGeneratedAt(source));
    expect(bin.stdout + bin.stderr).not.toBe("");
  });

  it.each([
    ["completion scripts", ["completion", "bash"]],
    ["the help of a command", ["stats", "--help"]],
    ["the version", ["--version"]],
  ])("%s", async (_name, args) => {
    const [bin, source] = await Promise.all([runBin(args), runCli(args)]);
    expect(bin).toEqual(source);
    expect(bin.code).toBe(0);
  });
});
