// Help a person reads at 80 columns: every line fits, the command's own options come before the
// global ones, the exit codes line up, and every example runs as shown against the default sandbox.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli.js";
import { displayWidth } from "../../src/core/text.js";
import { isGlobalOption } from "../../src/commands/shared/global-options.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { BIN, runCli } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { PassThrough } from "node:stream";

const nullIo = () => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  columns: 80,
  env: {},
  now: () => 0,
  signal: new AbortController().signal,
});
const SUBCOMMANDS = (await buildProgram(nullIo())).commands.filter((command) => command.name() !== "help");
const COMMANDS: string[][] = [[], ...SUBCOMMANDS.map((command) => [command.name()])];
const SERVICE_COMMANDS = SUBCOMMANDS.filter((command) => command.options.some(isGlobalOption)).map((command) =>
  command.name(),
);
const OTHER_COMMANDS = SUBCOMMANDS.map((command) => command.name()).filter((name) => !SERVICE_COMMANDS.includes(name));

async function helpOf(command: string[], columns: number): Promise<string> {
  const result = await runCli([...command, "--help"], { columns });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result.stdout;
}

/** The examples of a help text as a person would copy them: "$ " lines, " \" continuations joined, with the exit code a "# ... (exit N)" line above gives. */
function examplesIn(help: string): { command: string; exitCode: number }[] {
  const section = help.split("\nExamples:\n")[1];
  if (section === undefined) return [];
  const examples: { command: string; exitCode: number }[] = [];
  const lines = section.split("\n");
  let exitCode = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith("# ")) {
      exitCode = Number(/\(exit (\d+)\)$/.exec(line)?.[1] ?? exitCode);
    } else if (line.startsWith("$ ")) {
      let command = line.slice(2);
      while (command.endsWith(" \\")) command = `${command.slice(0, -2)} ${lines[++i]!.trim()}`;
      examples.push({ command, exitCode });
      exitCode = 0;
    }
  }
  return examples;
}

describe.each([80, 160])("help at %i columns", (columns) => {
  it.each(COMMANDS.map((command) => [`msgstat ${command.join(" ")} --help`, command] as const))(
    "%s: no line wider than the terminal",
    async (_name, command) => {
      const help = await helpOf(command, columns);
      const wide = help.split("\n").filter((line) => displayWidth(line) > columns);
      expect(wide).toEqual([]);
    },
  );
});

describe("help layout", () => {
  it.each(SERVICE_COMMANDS)("%s: its own options first, then the global ones under their own heading", async (name) => {
    const help = await helpOf([name], 80);
    const own = help.indexOf("\nOptions:\n");
    const global = help.indexOf("\nGlobal options:\n");
    expect(own).toBeGreaterThan(0);
    expect(global).toBeGreaterThan(own);
    expect(help.slice(own, global)).not.toContain("--base-url");
    expect(help.slice(global)).toContain("--base-url <url>");
  });

  it.each(OTHER_COMMANDS)("%s talks to no service and lists no global options", async (name) => {
    expect(await helpOf([name], 80)).not.toContain("Global options:");
  });

  it.each([
    ["help messages", ["help", "messages"], ["messages"]],
    ["help config", ["help", "config"], ["config"]],
    ["auth help login", ["auth", "help", "login"], ["auth", "login"]],
  ])("msgstat %s shows the same help as --help (the command is defined when named)", async (_name, asked, command) => {
    const viaHelp = await runCli(asked, { columns: 80 });
    expect({ code: viaHelp.code, stderr: viaHelp.stderr, stdout: viaHelp.stdout }).toEqual({
      code: 0,
      stderr: "",
      stdout: await helpOf(command, 80),
    });
  });

  it("the commands that talk to the service take the global options", () => {
    expect(SERVICE_COMMANDS).toEqual(["messages", "batch", "message", "stats"]);
  });

  it("the network options and their variables are listed: --proxy, --ca-file, the proxy variables, NODE_EXTRA_CA_CERTS", async () => {
    const help = await helpOf([], 80);
    expect(help).toContain(
      '  --proxy <url>          HTTP proxy for every request, "" for none (default:\n                         HTTPS_PROXY, HTTP_PROXY; NO_PROXY applies)\n',
    );
    expect(help).toContain(
      "  --ca-file <pem>        certificates to trust besides the default ones, a PEM\n                         file (NODE_EXTRA_CA_CERTS too)\n",
    );
    const environment = help.split("\nEnvironment:\n")[1]!.split("\n\n")[0]!;
    expect(environment.match(/^ {2}\S.*?(?= {2})/gm)).toEqual([
      "  MSGSTAT_BASE_URL",
      "  MSGSTAT_TOKEN",
      "  MSGSTAT_PROFILE",
      "  MSGSTAT_CONFIG_DIR",
      "  MSGSTAT_TIMEOUT, MSGSTAT_RETRIES, MSGSTAT_TZ",
      "  MSGSTAT_PROXY, MSGSTAT_CA_FILE",
      "  HTTPS_PROXY, HTTP_PROXY, NO_PROXY",
      "  NODE_EXTRA_CA_CERTS",
      "  NO_COLOR, FORCE_COLOR",
      "  COLUMNS",
    ]);
    for (const name of ["messages", "stats"])
      expect((await helpOf([name], 80)).split("\nGlobal options:\n")[1]).toMatch(/--proxy <url>[\s\S]*--ca-file <pem>/);
  });

  it("the exit codes are a table: every description starts in the same column", async () => {
    const help = await helpOf([], 80);
    const table = help.split("\nExit codes:\n")[1]!.split("\n\n")[0]!.split("\n");
    const rows = table.filter((line) => /^ {2}\d+ +\S/.test(line));
    expect(rows.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "130",
      "143",
    ]);
    const columns = new Set(rows.map((line) => /^ {2}\d+ +/.exec(line)![0].length));
    expect([...columns]).toHaveLength(1);
    // A wrapped description continues under its own first word.
    const continued = table.filter((line) => /^ +\S/.test(line) && !/^ {2}\d/.test(line));
    for (const line of continued) expect(/^ +/.exec(line)![0].length).toBe([...columns][0]);
  });
});

// Each command's examples, run as shown (through bash, with `msgstat` on PATH) against the sandbox a
// person gets from `msgstat sandbox`.
describe("every example in every --help runs against the default sandbox", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  const cases = async () => {
    const all: { command: string; exitCode: number; from: string }[] = [];
    for (const command of COMMANDS)
      for (const example of examplesIn(await helpOf(command, 80)))
        all.push({ ...example, from: `msgstat ${command.join(" ")} --help` });
    return all;
  };

  it("each help text has examples, and each example runs msgstat", async () => {
    const all = await cases();
    for (const command of COMMANDS)
      expect(all.some((example) => example.from === `msgstat ${command.join(" ")} --help`)).toBe(true);
    for (const example of all) expect(example.command).toMatch(/^msgstat |<\(msgstat /);
  });

  it("runs them all: exit 0, or the code the help documents", { timeout: 120_000 }, async () => {
    const folder = scratchFolder("msgstat-examples-");
    // `msgstat` as a person has it: the built executable on PATH.
    writeFileSync(path.join(folder, "msgstat"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(folder, "msgstat"), 0o755);
    const results: { from: string; command: string; expected: number; code: number; stderr: string }[] = [];
    const jq = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
    for (const example of await cases()) {
      if (!jq && /\| *jq\b/.test(example.command)) {
        console.warn(`jq is not installed (apt-get install jq): not run: ${example.command}`);
        continue;
      }
      const { code, stderr } = await runExample(example.command, folder, sandbox.url);
      results.push({ from: example.from, command: example.command, expected: example.exitCode, code, stderr });
    }
    expect(results.filter((result) => result.code !== result.expected)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(15);
  });
});

/** Runs one example in bash; a sandbox example is stopped with Ctrl-C once it printed its URL. */
function runExample(command: string, folder: string, baseUrl: string): Promise<{ code: number; stderr: string }> {
  const serves = /^msgstat sandbox\b/.test(command);
  return new Promise((resolve, reject) => {
    // A sandbox example runs as shown but on a free port: its default one (12180) may be held by another
    // run of this suite on the same machine (CI's, or a second checkout's).
    const shown = serves ? `exec ${command} --port 0` : command;
    const child = spawn("bash", ["-c", `set -o pipefail; ${shown}`], {
      cwd: folder,
      env: { PATH: `${folder}:${process.env.PATH}`, HOME: folder, TZ: "UTC", MSGSTAT_BASE_URL: baseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (serves && stdout.includes("\n")) child.kill("SIGINT");
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stderr }));
  });
}
