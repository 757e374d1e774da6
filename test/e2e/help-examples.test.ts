// Every example of every --help, run in the order shown, as a new user types them on a fresh machine:
// a HOME and config folder of their own (no profile, no MSGSTAT_* variable, no --base-url), the built
// `msgstat` on PATH, bash. Each help text is read on a machine of its own, after the sandbox is
// started as the program's --help shows it (`msgstat sandbox --save-profile &`), unless its own first
// example starts one. Each example must end with exit 0, or the code its "# ... (exit N)" line gives.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, helpOf } from "../support/help-texts.js";
import { PROGRAM_IN_SHELL } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

interface Example {
  command: string;
  exitCode: number;
}

/**
 * The examples of a help text as a person would copy them: "$ " lines, " \" continuations joined,
 * with the exit code the "# ..." lines above give ("(exit N)" at their end, wrapped or not).
 */
export function examplesIn(help: string): Example[] {
  const section = help.split("\nExamples:\n")[1]?.split("\n\n")[0];
  if (section === undefined) return [];
  const examples: Example[] = [];
  const lines = section.split("\n");
  let comment = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith("# ")) {
      comment += ` ${line.slice(2)}`;
    } else if (line.startsWith("$ ")) {
      let command = line.slice(2);
      while (command.endsWith(" \\")) command = `${command.slice(0, -2)} ${lines[++i]!.trim()}`;
      examples.push({ command, exitCode: Number(/\(exit (\d+)\)$/.exec(comment.trim())?.[1] ?? 0) });
      comment = "";
    }
  }
  return examples;
}

/** A port nothing listens on just now: the sandbox's own (12180) may be held by another run of the suite. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A fresh machine: its own HOME and config folder, `msgstat` on PATH, the sandbox's port. */
interface Machine {
  folder: string;
  env: Record<string, string>;
  /** Where a sandbox started without --port listens here, as 12180 would on a real fresh machine. */
  port: number;
  background: ChildProcess[];
}

async function freshMachine(): Promise<Machine> {
  const folder = scratchFolder("msgstat-new-user-");
  const bin = path.join(folder, "bin");
  mkdirSync(bin);
  writeFileSync(path.join(bin, "msgstat"), `#!/bin/sh\nexec ${PROGRAM_IN_SHELL} "$@"\n`);
  chmodSync(path.join(bin, "msgstat"), 0o755);
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: folder,
    XDG_CONFIG_HOME: path.join(folder, ".config"),
    TZ: "UTC",
  };
  return { folder, env, port: await freePort(), background: [] };
}

const startsSandbox = (command: string) => /^msgstat sandbox\b/.test(command);

/** The command as run: a sandbox without --port gets the machine's port, which stands for its default. */
function asRun(command: string, machine: Machine): string {
  const shown = command.replace(/ &$/, "");
  return startsSandbox(shown) && !/ --port\b/.test(shown) ? `${shown} --port ${machine.port}` : shown;
}

/**
 * Runs one example in bash. A sandbox runs until it printed its URL: one in the background (" &") is
 * left running, as the shell leaves it; one in the foreground is then stopped with Ctrl-C.
 */
function runExample(command: string, machine: Machine): Promise<{ code: number; stderr: string }> {
  const serves = startsSandbox(command);
  const background = command.endsWith(" &");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; ${serves ? "exec " : ""}${asRun(command, machine)}`], {
      cwd: machine.folder,
      env: machine.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const settle = (result: { code: number; stderr: string }) => {
      if (!settled) resolve(result);
      settled = true;
    };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!serves || !stdout.includes("\n")) return;
      if (background) {
        machine.background.push(child);
        settle({ code: 0, stderr });
      } else child.kill("SIGINT");
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => settle({ code: code ?? (signal ? 128 : -1), stderr }));
  });
}

/** `kill %1`: each sandbox left in the background is stopped, and has stopped, before the machine goes. */
async function stopBackground(machine: Machine): Promise<void> {
  await Promise.all(
    machine.background.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("close", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

const jq = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
const helpName = (command: string[]) => `msgstat ${[...command, "--help"].join(" ")}`;

describe("every example of every --help, in order, as a new user on a fresh machine", () => {
  it("each help text has examples; each example runs msgstat; the program's first starts the sandbox", async () => {
    for (const command of COMMANDS) expect(examplesIn(await helpOf(command, 80)), helpName(command)).not.toEqual([]);
    for (const command of COMMANDS)
      for (const example of examplesIn(await helpOf(command, 80)))
        expect(example.command).toMatch(/^msgstat |^source <\(msgstat /);
    expect(examplesIn(await helpOf([], 80))[0]).toEqual({ command: "msgstat sandbox --save-profile &", exitCode: 0 });
  });

  it("the examples are read as shown: continuations joined, an exit code from a wrapped comment", () => {
    const help = [
      "Examples:",
      "  # each profile's URL and token source; exit 4 while the selected one has no",
      "  # token (exit 4)",
      "  $ msgstat auth status",
      "  $ msgstat messages cmp-spring-sale --status failure --since 24h --all -o \\",
      "      failures.csv",
      "",
      "More:",
      "  $ not an example",
    ].join("\n");
    expect(examplesIn(`Usage: msgstat\n\n${help}\n`)).toEqual([
      { command: "msgstat auth status", exitCode: 4 },
      { command: "msgstat messages cmp-spring-sale --status failure --since 24h --all -o failures.csv", exitCode: 0 },
    ]);
  });

  for (const command of COMMANDS) {
    it(`${helpName(command)}: each example, in order, exit 0 or the code it shows`, { timeout: 120_000 }, async () => {
      const examples = examplesIn(await helpOf(command, 80));
      const startSandbox = examplesIn(await helpOf([], 80))[0]!;
      // The sandbox first, as the program's --help starts it, unless this help's first example starts one.
      const typed = examples[0] && startsSandbox(examples[0].command) ? examples : [startSandbox, ...examples];
      const machine = await freshMachine();
      const results: { command: string; expected: number; code: number; stderr: string }[] = [];
      try {
        for (const example of typed) {
          if (!jq && /\| *jq\b/.test(example.command)) {
            console.warn(`jq is not installed (apt-get install jq): not run: ${example.command}`);
            continue;
          }
          const { code, stderr } = await runExample(example.command, machine);
          results.push({ command: example.command, expected: example.exitCode, code, stderr });
        }
      } finally {
        await stopBackground(machine);
      }
      expect(results.filter((result) => result.code !== result.expected)).toEqual([]);
      expect(results.length).toBeGreaterThan(1);
    });
  }
});
