// The README's commands, run as shown (through bash, with the built `msgstat` on PATH) against the
// default sandbox, reached the way the README says: the profiles `sandbox --save-profile` writes on a machine
// with no default profile yet (`sandbox`, and the same as `default`), with no --profile. What
// cannot run here is left out by name: installing, starting or stopping the sandbox, man, auth login
// (a prompt) and the crontab line (which needs a profile `prod`).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { nodeOnly, PROGRAM_IN_SHELL } from "../support/run-cli.js";
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
    const config = readmeConfig(folder, sandbox);
    const jq = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
    const failed: { command: string; code: number | null; stderr: string }[] = [];
    let ran = 0;
    for (const command of readmeCommands()) {
      if (NOT_RUN_HERE.test(command)) continue;
      if (!jq && /\| *jq\b/.test(command)) {
        console.warn(`jq is not installed (apt-get install jq): not run: ${command}`);
        continue;
      }
      const { status, stdout, stderr } = await run(command, folder, config);
      ran++;
      const expected = command.includes("--max-failure-rate") ? 5 : 0;
      if (status !== expected) failed.push({ command, code: status, stderr });
      // What jq picks out is meant to be read or piped on: a line with nothing in it means nothing.
      else if (/\| *jq\b/.test(command) && /^\s*$/m.test(stdout.replace(/\n$/, "")))
        failed.push({ command, code: status, stderr: `an empty line in its output:\n${stdout}` });
    }
    expect(failed).toEqual([]);
    expect(ran).toBeGreaterThanOrEqual(jq ? 18 : 14);
  });

  it("the batch ids example prints each batch's id and file, and no row for messages in no batch", async () => {
    const folder = scratchFolder("msgstat-readme-");
    const config = readmeConfig(folder, sandbox);
    const example = readmeCommands().find((command) => command.includes(".batches[]"));
    expect(example).toBeDefined();
    const jq = spawnSync("sh", ["-c", "command -v jq"]).status === 0;
    if (!jq) return console.warn(`jq is not installed (apt-get install jq): not run: ${example}`);
    expect(await run(example!, folder, config)).toEqual({
      status: 0,
      stdout:
        "bat-spring-w4\tspring-sale-wave-4.csv\n" +
        "bat-spring-w3\tspring-sale-wave-3.csv\n" +
        "bat-spring-w2\tspring-sale-wave-2.csv\n" +
        "bat-spring-w1\tspring-sale-wave-1.csv\n",
      stderr: "",
    });
  });
});

describe("the README's install lines", () => {
  const section = /^## Install\n([\s\S]*?)^## /m.exec(README)?.[1] ?? "";
  const lines = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .flatMap(([, block]) => block!.split("\n"))
    .map((line) => line.replace(/\s+# .*$/, "").trim());
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    name: string;
    version: string;
  };

  it.skipIf(nodeOnly)("install the tarball npm pack writes, not a name the registry does not have", () => {
    // What npm pack writes (its scripts not run: dist/ is shared with the tests running now).
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        encoding: "utf8",
      }),
    ) as { filename: string }[];
    expect(packed!.filename).toBe(`${manifest.name}-${manifest.version}.tgz`);
    // Every install of msgstat itself (a clone's own npm install of its dependencies is not one).
    const installs = lines.filter((line) => /\bnpm (install|i)\b.*(\s-g\b|\s--global\b)/.test(line));
    expect(installs).toEqual([`npm install -g ./${packed!.filename}`]);
    expect(lines).toContain("npm ci && npm pack");
  });

  it("build the executable and the .deb, and name the files npm run package writes", () => {
    expect(lines.slice(0, 2)).toEqual([
      "npm ci && npm run package",
      `sudo apt install ./release/${manifest.name}_${manifest.version}_amd64.deb`,
    ]);
    // The file named in the prose after it (scripts/package.mjs writes both names).
    expect(section).toContain(`\`release/${manifest.name}-${manifest.version}-linux-x64\` carries its own Node`);
  });
});

/**
 * `msgstat` on PATH in `folder`, and a config folder there with the profiles `sandbox --save-profile` writes
 * on a machine with no default profile yet; returns the config folder.
 */
function readmeConfig(folder: string, sandbox: Sandbox): string {
  writeFileSync(path.join(folder, "msgstat"), `#!/bin/sh\nexec ${PROGRAM_IN_SHELL} "$@"\n`);
  chmodSync(path.join(folder, "msgstat"), 0o755);
  const config = path.join(folder, "config");
  mkdirSync(config, { mode: 0o700 });
  // As `msgstat sandbox --save-profile` writes them: its URL and the campaigns it serves (find's default).
  const saved = { "base-url": sandbox.url, campaigns: sandbox.campaigns.map((campaign) => campaign.id).join(",") };
  writeFileSync(path.join(config, "config.json"), JSON.stringify({ profiles: { sandbox: saved, default: saved } }));
  return config;
}

/** One command in bash; asynchronous, since the sandbox answers from this process. */
function run(
  command: string,
  folder: string,
  config: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; ${command}`], {
      cwd: folder,
      env: {
        PATH: `${folder}:${process.env.PATH}`,
        HOME: folder,
        TZ: "UTC",
        MSGSTAT_CONFIG_DIR: config,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
