// Tier 3: the real executable, bin/msgstat.js over dist/, as a user runs it.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "../sandbox/http-helpers.js";
import { nodeOnly, runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import {
  jsonlText,
  moreHint,
  PIPED_TABLE_HEADER,
  serverPage,
  startTestSandbox,
  useTestSandbox,
} from "../support/cli-helpers.js";

const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

describe("bin/msgstat.js", () => {
  it("--help names every command, the global options and where to read more, with examples", async () => {
    const { code, stdout, stderr } = await runBin(["--help"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    for (const text of [
      "Usage: msgstat",
      "  messages ",
      "  batch ",
      "  find ",
      "  message ",
      "  stats ",
      "  sandbox ",
      "--base-url",
      "--token",
      "--no-color",
      "--verbose",
      "msgstat help options",
      "msgstat help exit-codes",
      "msgstat help environment",
      "Examples:",
      "$ msgstat sandbox --save-profile &",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it.each([
    [
      ["messages", "--help"],
      [
        "--search",
        "--status",
        "--since",
        "--until",
        "--limit",
        "--all",
        "--json",
        "--jsonl",
        "--csv",
        "--fields",
        "--output",
        "Examples:",
        "msgstat messages cmp-spring-sale",
        "msgstat help messages (every option)",
      ],
    ],
    [
      ["help", "messages"],
      ["--page-size", "--after", "--before", "--format", "--no-formula-guard", "Fields (--fields):", "Examples:"],
    ],
    [
      ["batch", "--help"],
      ["<campaignId>", "<batchId>", "--fields", "Examples:", "msgstat batch cmp-spring-sale"],
    ],
    [
      ["message", "--help"],
      ["<campaignId>", "<messageId>", "--json", "Examples:", "msgstat message cmp-spring-sale"],
    ],
    [
      ["sandbox", "--help"],
      ["--port", "--token", "--fault", "Examples:", "msgstat sandbox"],
    ],
  ])("%j explains the command with examples", async (args, texts) => {
    const { code, stdout, stderr } = await runBin(args);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    for (const text of texts) expect(stdout).toContain(text);
  });

  it("--version prints the package version", async () => {
    expect(await runBin(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("a listing: exact JSONL and the hint, exit 0", async () => {
    const page = await serverPage(sandbox, "/campaigns/cmp-spring-sale/messages", { limit: 5 });
    const result = await runBin(["messages", "cmp-spring-sale", "-n", "5", "--jsonl"], {
      env: { MSGSTAT_BASE_URL: sandbox.url },
    });
    expect(result).toEqual({
      code: 0,
      stdout: jsonlText(page.data),
      stderr: moreHint(["messages", "cmp-spring-sale", "-n", "5", "--jsonl"], 5, "after", page.pageData.endCursor!),
    });
  });

  it("a piped table has no colour even though the child's env has none of the colour switches", async () => {
    const result = await runBin(["--base-url", sandbox.url, "messages", "cmp-otp-alerts"]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(PIPED_TABLE_HEADER)).toBe(true);
    expect(result.stdout).not.toContain("\u001b[");
  });

  it("an error: exit 3 for a campaign that does not exist", async () => {
    const result = await runBin(["--base-url", sandbox.url, "messages", "cmp-nope"]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr: `msgstat: not found: GET ${sandbox.url}/campaigns/cmp-nope/messages?limit=50 answered HTTP 404: Campaign "cmp-nope" does not exist. (campaign_not_found)\n  Check the campaign id cmp-nope (ids are matched exactly, case included).\n`,
    });
  });

  it("a usage error: exit 2 and no request", async () => {
    const before = sandbox.requests.length;
    const result = await runBin([
      "--base-url",
      sandbox.url,
      "messages",
      "cmp-spring-sale",
      "--after",
      "a",
      "--before",
      "b",
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: --after and --before cannot be used together: page forward or back, not both\n",
    });
    expect(sandbox.requests.length).toBe(before);
  });

  it("SIGINT while waiting on the service: exit 130", async () => {
    const stalling = await startTestSandbox({ messages: 10, faults: [{ kind: "stall", ms: 20_000 }] });
    try {
      const result = await runBin(["--base-url", stalling.url, "messages", "cmp-otp-alerts"], {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (stalling.requests.length > 0) {
              clearInterval(poll);
              child.kill("SIGINT");
            }
          }, 10);
          child.on("close", () => clearInterval(poll));
        },
      });
      expect(result).toEqual({ code: 130, stdout: "", stderr: "msgstat: interrupted\n" });
    } finally {
      await stalling.close();
    }
  });
});

// From commands/stats/run.test.ts (--max-failure-rate), with that file's sandbox.
describe("stats", () => {
  const CAMPAIGN = "cmp-spring-sale";
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 7, messages: 3000, now: FIXED_NOW });
  });
  afterAll(() => sandbox.close());

  it("is exit 5 from the real executable too", async () => {
    const result = await runBin(["--base-url", sandbox.url, "stats", CAMPAIGN, "--max-failure-rate", "0", "--json"]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toMatchObject({
      campaignId: CAMPAIGN,
      threshold: { maxFailureRate: 0, exceeded: true },
    });
  });
});

async function loadedFiles(args: string[]): Promise<{ code: number; files: string[] }> {
  const { code, stderr } = await runBin(args, { env: { NODE_DEBUG: "module" } });
  const files = new Set<string>();
  for (const match of stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)) {
    const at = match[1]!.lastIndexOf("/dist/");
    if (at >= 0) files.add(match[1]!.slice(at + 1));
  }
  return { code, files: [...files].sort() };
}

const commandChunks = (files: string[]) => files.filter((file) => file.startsWith("dist/chunks/command"));

// What the built program loads for a run (docs/bench.md's start-up targets): the program's --help
// no command's code, a command only its own, and every file through Node's CommonJS loader, which
// names each file it loads when NODE_DEBUG=module (a file the ES module loader took would be missing).
describe.skipIf(nodeOnly)("what a run of bin/msgstat.js loads", () => {
  it("--version: none of dist/", async () => {
    expect(await loadedFiles(["--version"])).toEqual({ code: 0, files: [] });
  });

  it("--help alone: the help prepared at build time, none of the program's code", async () => {
    expect(await loadedFiles(["--help"])).toEqual({ code: 0, files: ["dist/program-help.json"] });
  });

  it("the program's help for want of a command: the program and commander, no command's code", async () => {
    const { code, files } = await loadedFiles([]);
    expect(code).toBe(2);
    expect(files).toContain("dist/cli.js");
    expect(commandChunks(files)).toEqual([]);
    expect(files.filter((file) => /ora|cli-table3|proxy-transport|source|parquet|node-/.test(file))).toEqual([]);
    // dist/cli.js and the chunks it shares with the commands (docs/bench.md's --help target).
    expect(files.length).toBeLessThanOrEqual(5);
  });

  it("the program's help: no node:child_process (commander's is loaded on demand)", () => {
    // Node's own modules are not files: process.moduleLoadList names each, as it is loaded. (node:net is
    // loaded all the same here: a piped stdout is a socket.)
    const folder = scratchFolder("msgstat-loaded-");
    const preload = path.join(folder, "report-builtins.cjs");
    writeFileSync(preload, 'process.on("exit", () => process.stderr.write(process.moduleLoadList.join("\\n")));\n');
    const bin = fileURLToPath(new URL("../../bin/msgstat.js", import.meta.url));
    const run = spawnSync(process.execPath, ["--require", preload, bin], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Usage: msgstat");
    expect(run.stderr).toContain("NativeModule fs");
    expect(run.stderr.split("\n").filter((name) => /child_process/.test(name))).toEqual([]);
  });

  it("a listing's --help loads no Parquet code (the writer is loaded only when Parquet is written)", async () => {
    const { code, files } = await loadedFiles(["messages", "--help"]);
    expect(code).toBe(0);
    expect(files.filter((file) => /parquet|node-/.test(file))).toEqual([]);
  });

  it("a usage error of the program loads no command's code either", async () => {
    const { code, files } = await loadedFiles(["--no-such-option"]);
    expect(code).toBe(2);
    expect(commandChunks(files)).toEqual([]);
  });

  it("a command named loads its own module and no other command's", async () => {
    for (const name of ["messages", "message", "stats", "sandbox", "auth", "config", "completion"]) {
      const { code, files } = await loadedFiles([name, "--help"]);
      expect({ name, code, commands: commandChunks(files) }).toEqual({
        name,
        code: 0,
        commands: [expect.stringMatching(/^dist\/chunks\/command-\w+\.js$/)],
      });
    }
  });
});

describe.skipIf(nodeOnly)("a damaged install", () => {
  // bin/, package.json and dist/ less some of its chunks: what a half-finished copy of the package leaves.
  const runDamaged = (missing: RegExp) => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const copy = scratchFolder("msgstat-damaged-");
    for (const part of ["bin", "package.json", "dist"])
      cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
    const chunks = path.join(copy, "dist", "chunks");
    const removed = readdirSync(chunks).filter((name) => missing.test(name));
    expect(removed.length).toBeGreaterThan(0);
    for (const name of removed) rmSync(path.join(chunks, name));
    // No service URL: a usage error, which is reported through the chunks that may be missing.
    return spawnSync(process.execPath, [path.join(copy, "bin", "msgstat.js"), "messages", "cmp-x"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: copy, MSGSTAT_CONFIG_DIR: copy },
    });
  };

  it.each([
    ["the commands' code", /^command-/],
    ["the code that reports an error", /^(advice|error-lines)-/],
  ])("without %s: says so in one line, exit 1", (_what, missing) => {
    const run = runDamaged(missing);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^msgstat: cannot load msgstat's own code \(.+\); reinstall msgstat\n$/);
    expect(run.status).toBe(1);
  });
});

describe.skipIf(nodeOnly)("a clone where nothing built dist/ yet", () => {
  // npm install no longer builds (issue 21: a `prepare` script made npm warn on every install of the tarball).
  it("says in one line how to build it, exit 1", () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const clone = scratchFolder("msgstat-unbuilt-");
    for (const part of ["bin", "package.json"])
      cpSync(path.join(root, part), path.join(clone, part), { recursive: true });
    const run = spawnSync(process.execPath, [path.join(clone, "bin", "msgstat.js"), "messages", "cmp-x"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: clone, MSGSTAT_CONFIG_DIR: clone },
    });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `msgstat: ${path.join(clone, "dist", "cli.js")} is not built yet: run npm run build in ${clone}\n`,
    });
  });
});
