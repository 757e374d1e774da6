// Each command's examples, run as shown (through bash, with the built `msgstat` on PATH) against the
// sandbox a person gets from `msgstat sandbox`.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { COMMANDS, helpOf } from "../support/help-texts.js";
import { BIN } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

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
