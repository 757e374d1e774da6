// Interrupts and early-closing readers, on the real executable.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { PROGRAM_IN_SHELL, programCommand, runBin } from "../support/run-cli.js";
import { waitFor } from "../support/wait-for.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ messages: 20_000, latencyMs: 150 });
});
afterAll(() => sandbox.close());

// Every kind of file -o writes: plain text, gzipped text (the gzip stream in between must not outlive the
// run nor leave its temporary file), Parquet (row groups written as they fill).
const TARGETS = ["failures.csv", "failures.csv.gz", "failures.parquet"] as const;

/** The export into `target`, with `signal` sent once its third page has been asked for. */
async function interruptedExport(target: string, signal: NodeJS.Signals) {
  const before = sandbox.requests.length;
  let atSignal = 0;
  const result = await runBin(
    ["--base-url", sandbox.url, "messages", "cmp-spring-sale", "--all", "--page-size", "50", "-o", target],
    {
      onSpawn: (child) => {
        void waitFor(() => sandbox.requests.length >= before + 3).then(() => {
          atSignal = sandbox.requests.length;
          child.kill(signal);
        });
      },
    },
  );
  // Promptly, counted in requests rather than milliseconds: at most the one already on its way arrives
  // after the signal (the export has 400 pages to go).
  expect(sandbox.requests.length - atSignal).toBeLessThanOrEqual(1);
  return result;
}

describe.each([
  ["SIGINT", 130, "msgstat: interrupted"],
  ["SIGTERM", 143, "msgstat: terminated"],
] as const)("%s during an export to -o", (signal, code, said) => {
  it.each(TARGETS)(
    `stops promptly with exit ${code}, the target (%s) untouched and said so, no temporary file left`,
    async (name) => {
      const folder = scratchFolder("msgstat-signal-");
      const target = path.join(folder, name);
      writeFileSync(target, "previous export\n");
      const result = await interruptedExport(target, signal);
      expect(result.code).toBe(code);
      expect(result.stderr).toBe(`${said}\n  ${target} was left as it was\n`);
      expect(readFileSync(target, "utf8")).toBe("previous export\n");
      expect(readdirSync(folder)).toEqual([name]);
    },
  );

  it(`a target that did not exist: exit ${code}, says it was not written, and none is made`, async () => {
    const folder = scratchFolder("msgstat-signal-");
    const target = path.join(folder, "down.csv");
    const result = await interruptedExport(target, signal);
    expect(result.code).toBe(code);
    expect(result.stderr).toBe(`${said}\n  ${target} was not written\n`);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("a crash (SIGKILL) during an export to -o", () => {
  it.each(TARGETS)(
    "leaves the target (%s) untouched; only the temporary file beside it, named as every atomic write names it",
    async (name) => {
      const folder = scratchFolder("msgstat-crash-");
      const target = path.join(folder, name);
      writeFileSync(target, "previous export\n");
      const before = sandbox.requests.length;
      let pid: number | undefined;
      const result = await runBin(
        ["--base-url", sandbox.url, "messages", "cmp-spring-sale", "--all", "--page-size", "50", "-o", target],
        {
          onSpawn: (child) => {
            pid = child.pid;
            void waitFor(() => sandbox.requests.length >= before + 3).then(() => child.kill("SIGKILL"));
          },
        },
      );
      expect(result).toMatchObject({ code: 128, stderr: "" });
      expect(readFileSync(target, "utf8")).toBe("previous export\n");
      // Nothing ran after the kill to remove it: the temporary file stays, named after its target and the process.
      const left = readdirSync(folder).filter((file) => file !== name);
      expect(left).toHaveLength(1);
      const escaped = name.replace(/\./g, "\\.");
      expect(left[0]).toMatch(new RegExp(`^\\.${escaped}\\.msgstat-${pid}-[0-9a-z]+-[0-9a-z]+\\.tmp$`));
    },
  );
});

describe.each([
  ["SIGTERM", 143, "msgstat: terminated\n"],
  ["SIGINT", 130, "msgstat: interrupted\n"],
] as const)("%s while stdout is blocked by a reader that never reads", (signal, code, stderr) => {
  it(`ends the wait for the reader: exit ${code}`, async () => {
    const before = sandbox.requests.length;
    const child = spawn(
      ...programCommand([
        "--base-url",
        sandbox.url,
        "messages",
        "cmp-spring-sale",
        "--all",
        "--page-size",
        "1000",
        "--jsonl",
      ]),
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    // stdout is never read. A page of 1000 messages is over a megabyte of JSONL, far more than the pipe
    // and the stream buffers hold, so once the second page has been asked for, msgstat is writing the
    // first one and will wait for the reader.
    let errors = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("close", (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
    );
    // The cut-off of a run that never ends: the test then fails on the exit code.
    const cutOff = setTimeout(() => child.kill("SIGKILL"), 20_000);
    try {
      await waitFor(() => sandbox.requests.length >= before + 2);
      child.kill(signal);
      expect(await ended).toEqual({ code, signal: null });
      expect(errors).toBe(stderr);
    } finally {
      clearTimeout(cutOff);
      child.stdout.destroy();
    }
  });
});

describe("a reader that closes early", () => {
  it("ends the run quietly: no EPIPE trace, exit 0", async () => {
    const command = `${PROGRAM_IN_SHELL} --base-url ${sandbox.url} messages cmp-spring-sale --all --jsonl`;
    // Asynchronous: the sandbox answering msgstat lives in this process.
    const child = spawn(
      "bash",
      ["--norc", "--noprofile", "-c", `${command} | head -c 100 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`],
      { env: { PATH: process.env.PATH } },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("exit=0\n");
  });
});
