// `msgstat completion bash|zsh|fish`: scripts written from the program itself. Each is sourced in its
// shell and asked what it completes (zsh under a stand-in for the completion system's compadd and
// compset, which work only inside zle), and zsh and fish check the syntax of theirs. CI installs zsh and
// fish (.ci/run) and sets MSGSTAT_CI: there a missing shell fails the test; on a developer's machine it
// is skipped, saying so.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { Option } from "@commander-js/extra-typings";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli.js";
import { completionScript, type Shell } from "../../../src/commands/completion/scripts.js";
import { compileFields, fieldPaths } from "../../../src/formats/fields.js";
import { BIN, runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const io = () => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  columns: 80,
  env: {},
  now: () => 0,
  signal: new AbortController().signal,
});
const installed = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

/** Skips the test without the shell, except on CI (MSGSTAT_CI, set by .ci/run), which installs it: there it fails. */
function needShell(shell: string, context: { skip: (note: string) => void }): void {
  if (installed(shell)) return;
  if (process.env.MSGSTAT_CI)
    throw new Error(`${shell} is not installed, and CI (MSGSTAT_CI) installs it: .ci/run's apt-get line failed`);
  context.skip(`${shell} is not installed (apt-get install ${shell}); its script was not checked`);
}

async function script(shell: Shell): Promise<string> {
  const result = await runCli(["completion", shell]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result.stdout;
}

/** What the bash script offers for a command line whose last word is being typed. */
function bashComplete(file: string, words: string[]): string[] {
  const line = words.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source "$1"; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _msgstat; printf '%s\\n' "\${COMPREPLY[@]}"`,
      "bash",
      file,
    ],
    { encoding: "utf8" },
  );
  return out.split("\n").filter((word) => word !== "");
}

describe("bash", () => {
  it("completes commands, options and option values", async () => {
    const file = path.join(scratchFolder("msgstat-completion-"), "msgstat.bash");
    writeFileSync(file, await script("bash"));
    expect(bashComplete(file, ["msgstat", "mes"])).toEqual(["messages", "message"]);
    expect(bashComplete(file, ["msgstat", "messages", "cmp-spring-sale", "--sta"])).toEqual(["--status"]);
    expect(bashComplete(file, ["msgstat", "sandbox", "--to"])).toEqual(["--token"]);
    expect(bashComplete(file, ["msgstat", "--ba"])).toEqual(["--base-url"]);
    expect(bashComplete(file, ["msgstat", "messages", "c", "--status", "fai"])).toEqual(["failure"]);
    expect(bashComplete(file, ["msgstat", "stats", "c", "--status", "success,c"])).toEqual(["success,created"]);
    expect(bashComplete(file, ["msgstat", "batch", "c", "b", "--format", "j"])).toEqual(["json", "jsonl"]);
    expect(bashComplete(file, ["msgstat", "stats", "c", "--by", "e"])).toEqual(["error"]);
    expect(bashComplete(file, ["msgstat", "messages", "c", "--fields", "id,lastError"])).toEqual([
      "id,lastErrorType",
      "id,lastErrorCode",
    ]);
    expect(bashComplete(file, ["msgstat", "completion", "f"])).toEqual(["fish"]);
    expect(bashComplete(file, ["msgstat", "export", "c", "--format", ""])).toEqual(["parquet", "jsonl.gz"]);
    expect(bashComplete(file, ["msgstat", "export", "c", "--t"])).toEqual(["--to", "--token", "--timeout", "--tz"]);
    // A flag that takes a value with nothing to offer offers nothing (not the command's flags).
    expect(bashComplete(file, ["msgstat", "messages", "c", "--limit", ""])).toEqual([]);
  });

  it("completes --tz with the time zones Intl knows, wherever the program has that option", async () => {
    const program = await buildProgram(io());
    const hasTz = program.options.some((option) => option.long === "--tz");
    // --tz arrives with the time zone work; until then, a stand-in command shows the script completes it.
    if (!hasTz) program.command("zones").option("--tz <zone>", "time zone");
    const file = path.join(scratchFolder("msgstat-completion-"), "msgstat.bash");
    writeFileSync(file, completionScript(program, "bash"));
    const name = hasTz ? [] : ["zones"];
    expect(bashComplete(file, ["msgstat", ...name, "--tz", "Europe/Par"])).toEqual(["Europe/Paris"]);
    expect(bashComplete(file, ["msgstat", ...name, "--tz", "UT"])).toEqual(["UTC"]);
    expect(Intl.supportedValuesOf("timeZone").length).toBeGreaterThan(300);
  });

  it("is written from the program: a new option and its choices complete without touching the script", async () => {
    const program = await buildProgram(io());
    const messages = program.commands.find((command) => command.name() === "messages")!;
    messages
      .option("--brand-new <colour>", "a new option")
      .addOption(new Option("--shade <shade>", "a new choice").choices(["light", "dark"]));
    const file = path.join(scratchFolder("msgstat-completion-"), "msgstat.bash");
    writeFileSync(file, completionScript(program, "bash"));
    expect(bashComplete(file, ["msgstat", "messages", "c", "--bran"])).toEqual(["--brand-new"]);
    expect(bashComplete(file, ["msgstat", "messages", "c", "--shade", "d"])).toEqual(["dark"]);
  });

  it("offers the --fields names of the catalogue, each one --fields accepts", async () => {
    const file = path.join(scratchFolder("msgstat-completion-"), "msgstat.bash");
    writeFileSync(file, await script("bash"));
    const offered = bashComplete(file, ["msgstat", "messages", "c", "--fields", ""]);
    expect(offered).toEqual(fieldPaths());
    expect(offered).toEqual(
      expect.arrayContaining(["recipient", "templateBody.body", "batches.0.originalFileName", "lastErrorCode"]),
    );
    expect(compileFields(offered).map((field) => field.name)).toEqual(offered);
  });
});

describe.each(["zsh", "fish"] as const)("%s", (shell) => {
  it(`the script parses (${shell} -n)`, async (context) => {
    needShell(shell, context);
    const file = path.join(scratchFolder("msgstat-completion-"), `msgstat.${shell}`);
    writeFileSync(file, await script(shell));
    const check = spawnSync(shell, ["-n", file], { encoding: "utf8" });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: "" });
  });
});

describe("fish, completing a line", () => {
  it("offers a command, an option and a value", async (context) => {
    needShell("fish", context);
    const file = path.join(scratchFolder("msgstat-completion-"), "msgstat.fish");
    writeFileSync(file, await script("fish"));
    const complete = (line: string) =>
      execFileSync("fish", ["--no-config", "-c", `source $argv[1]; complete -C ${JSON.stringify(line)}`, file], {
        encoding: "utf8",
        env: { ...process.env, HOME: path.dirname(file) },
      })
        .split("\n")
        .filter((row) => row !== "")
        .map((row) => row.split("\t")[0]);
    expect(complete("msgstat mess")).toEqual(["message", "messages"]);
    expect(complete("msgstat stats c --max-")).toEqual(["--max-failure-rate", "--max-time-to-final"]);
    expect(complete("msgstat messages c --format js")).toEqual(["json", "jsonl"]);
    expect(complete("msgstat messages c --status success,fa")).toEqual(["success,failure"]);
    expect(complete("msgstat --tz Europe/Par")).toEqual(["Europe/Paris"]);
    expect(complete("msgstat completion z")).toEqual(["zsh"]);
  });
});

// The zsh script, sourced in zsh and asked what it completes. compadd and compset exist only while zle
// completes a line, so they are stood in for: compadd prints the words that start with the word being
// completed (after what compset -P moved aside, as zsh's own do), _files prints <files>.
const ZSH_HARNESS = `
script=$1; shift
words=("$@"); CURRENT=$#words
PREFIX=\${words[CURRENT]}; IPREFIX=""
compdef() { : }
_files() { print -r -- "<files>" }
compset() {
  [[ $1 == -P ]] || return 1
  local match=\${(M)PREFIX##$~2}
  [[ -n $match ]] || return 1
  IPREFIX+=$match; PREFIX=\${PREFIX#$match}
}
compadd() {
  while [[ $1 == -* && $1 != -- ]]; do [[ $1 == -S ]] && shift; shift; done
  [[ $1 == -- ]] && shift
  local word
  for word in "$@"; do [[ $word == \${PREFIX}* ]] && print -r -- "$IPREFIX$word"; done
  return 0
}
source $script
_msgstat
`;

describe("zsh, completing a line", () => {
  it("offers commands, options and option values", async (context) => {
    needShell("zsh", context);
    const folder = scratchFolder("msgstat-completion-");
    const file = path.join(folder, "_msgstat");
    const harness = path.join(folder, "harness.zsh");
    writeFileSync(file, await script("zsh"));
    writeFileSync(harness, ZSH_HARNESS);
    const complete = (...words: string[]) => {
      const run = spawnSync("zsh", ["-f", harness, file, ...words], { encoding: "utf8" });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
      return run.stdout.split("\n").filter((row) => row !== "");
    };
    expect(complete("msgstat", "mes")).toEqual(["messages", "message"]);
    expect(complete("msgstat", "completion", "")).toEqual(["bash", "zsh", "fish"]);
    expect(complete("msgstat", "stats", "c", "--max-")).toEqual(["--max-failure-rate", "--max-time-to-final"]);
    expect(complete("msgstat", "messages", "c", "--format", "js")).toEqual(["json", "jsonl"]);
    expect(complete("msgstat", "messages", "c", "--status", "success,fa")).toEqual(["success,failure"]);
    expect(complete("msgstat", "messages", "c", "--fields", "id,lastError")).toEqual([
      "id,lastErrorType",
      "id,lastErrorCode",
    ]);
    expect(complete("msgstat", "--tz", "Europe/Par")).toEqual(["Europe/Paris"]);
    expect(complete("msgstat", "stats", "c", "-o", "")).toEqual(["<files>"]);
    expect(complete("msgstat", "export", "c", "--to", "")).toEqual(["<files>"]);
    // A flag that takes a value with nothing to offer offers nothing (not the command's flags).
    expect(complete("msgstat", "messages", "c", "--limit", "")).toEqual([]);
  });
});

// --profile: the names `msgstat config profiles` prints when the completion runs (profiles come and go),
// checked by sourcing the bash script with the built msgstat on PATH.
describe("completion of --profile", () => {
  it("offers the saved profiles' names, in bash", async () => {
    const folder = scratchFolder("msgstat-completion-profiles-");
    const configDir = path.join(folder, "config");
    mkdirSync(configDir);
    writeFileSync(
      path.join(configDir, "config.json"),
      JSON.stringify({ profiles: { staging: {}, prod: {}, sandbox: {} } }),
    );
    writeFileSync(path.join(folder, "msgstat"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(folder, "msgstat"), 0o755);
    const script = path.join(folder, "msgstat.bash");
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
    const complete = (words: string[]) =>
      execFileSync(
        "bash",
        [
          "-c",
          `source "$1"; COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _msgstat; printf '%s\\n' "\${COMPREPLY[@]}"`,
          "bash",
          script,
        ],
        {
          encoding: "utf8",
          env: { PATH: `${folder}:${process.env.PATH}`, MSGSTAT_CONFIG_DIR: configDir },
        },
      )
        .split("\n")
        .filter((word) => word !== "");
    expect(complete(["msgstat", "--profile", ""])).toEqual(["prod", "sandbox", "staging"]);
    expect(complete(["msgstat", "messages", "c", "--profile", "st"])).toEqual(["staging"]);
  });
});
