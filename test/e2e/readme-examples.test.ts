// The README's commands, run as shown (through bash, with the built `msgstat` on PATH) against the
// default sandbox, reached the way the README says: the profiles `sandbox --save-profile` writes on a machine
// with no default profile yet (`sandbox`, and the same as `default`), with no --profile. What
// cannot run here is left out by name: installing, starting or stopping the sandbox, man, auth login
// (a prompt) and the crontab line (which needs a profile `prod`).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { BIN } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The msgstat command lines of the README's ```sh blocks, " \" continuations joined, comments dropped. */
function readmeCommands(): string[] {
  const commands: string[] = [];
  for (const [, block] of README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const lines = block!.split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!.replace(/\s+# .*$/, "").trim();
      while (line.endsWith("\\")) line = `${line.slice(0, -1).trim()} ${lines[++i]!.trim()}`;
      if (line.startsWith("msgstat ")) commands.push(line);
    }
  }
  return commands;
}

const NOT_RUN_HERE = /^msgstat (sandbox|auth login|--help)|^msgstat auth status/;

describe("the README's commands run against the sandbox", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  it("covers the journeys", () => {
    const commands = readmeCommands();
    for (const expected of [
      'msgstat messages cmp-spring-sale --search "+44 7773 185432"',
      "msgstat messages cmp-spring-sale --status failure --since 24h --all -o failures.csv",
      "msgstat stats cmp-spring-sale --csv --by batch -o batches.csv",
      "msgstat messages cmp-spring-sale --all -o spring-sale.parquet",
      "msgstat messages cmp-spring-sale --all --csv -o spring-sale.csv.gz",
    ])
      expect(commands).toContain(expected);
    expect(commands.filter((command) => !NOT_RUN_HERE.test(command)).length).toBeGreaterThanOrEqual(18);
  });

  it("each exits 0 (the failure-rate alert: 5, the sandbox fails about 13 %)", { timeout: 120_000 }, async () => {
    const folder = scratchFolder("msgstat-readme-");
    writeFileSync(path.join(folder, "msgstat"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(folder, "msgstat"), 0o755);
    const config = path.join(folder, "config");
    mkdirSync(config, { mode: 0o700 });
    writeFileSync(
      path.join(config, "config.json"),
      // As `msgstat sandbox --save-profile` writes them: its URL and the campaigns it serves (find's default).
      JSON.stringify({
        profiles: Object.fromEntries(
          ["sandbox", "default"].map((name) => [
            name,
            { "base-url": sandbox.url, campaigns: sandbox.campaigns.map((campaign) => campaign.id).join(",") },
          ]),
        ),
      }),
    );
    const jq = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
    const failed: { command: string; code: number | null; stderr: string }[] = [];
    let ran = 0;
    for (const command of readmeCommands()) {
      if (NOT_RUN_HERE.test(command)) continue;
      if (!jq && /\| *jq\b/.test(command)) {
        console.warn(`jq is not installed (apt-get install jq): not run: ${command}`);
        continue;
      }
      const { status, stderr } = await run(command, folder, config);
      ran++;
      const expected = command.includes("--max-failure-rate") ? 5 : 0;
      if (status !== expected) failed.push({ command, code: status, stderr });
    }
    expect(failed).toEqual([]);
    expect(ran).toBeGreaterThanOrEqual(jq ? 18 : 14);
  });
});

/** One command in bash, its stdout dropped; asynchronous, since the sandbox answers from this process. */
function run(command: string, folder: string, config: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; ${command} > /dev/null`], {
      cwd: folder,
      env: {
        PATH: `${folder}:${process.env.PATH}`,
        HOME: folder,
        TZ: "UTC",
        MSGSTAT_CONFIG_DIR: config,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr }));
  });
}
