// Runs msgstat in-process with injected streams (the run-function tier), or as a child process
// from bin/msgstat.js (the end-to-end tier), and collects exactly what it wrote.
// In the vitest project "bundle" (MSGSTAT_TEST_BUNDLE=1), the in-process runs use the built
// dist/cli.js instead of src/cli.ts: the same tests then check what users run.
import { spawn } from "node:child_process";
import type { LookupFunction } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";

import { InterruptedError as SourceInterruptedError } from "../../src/core/errors.js";

type Cli = typeof import("../../src/cli.js");
const bundled = process.env.MSGSTAT_TEST_BUNDLE === "1";
const { main, InterruptedError } = (await import(
  bundled ? new URL("../../dist/cli.js", import.meta.url).href : "../../src/cli.js"
)) as Cli;

/**
 * The abort signal msgstat is given. A test aborts with the source's InterruptedError; the bundle
 * knows only its own class (as bin/msgstat.js makes it), so there the reason is made again from it.
 */
function signalFor(signal: AbortSignal | undefined): AbortSignal {
  if (signal === undefined || !bundled) return signal ?? new AbortController().signal;
  const controller = new AbortController();
  const pass = () =>
    controller.abort(
      signal.reason instanceof SourceInterruptedError ? new InterruptedError(signal.reason.signal) : signal.reason,
    );
  if (signal.aborted) pass();
  else signal.addEventListener("abort", pass, { once: true });
  return controller.signal;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** stdout and stderr are terminals. */
  tty?: boolean;
  stderrTty?: boolean;
  columns?: number;
  rows?: number;
  env?: Record<string, string | undefined>;
  now?: number;
  /** A clock that moves (each call may return a later time), where `now` is a fixed one. */
  clock?: () => number;
  /** Sees stdout as msgstat writes it (the result still holds all of it). */
  onStdout?: (text: string) => void;
  /** How the live modes wait: with a virtual clock, a sleep that moves it at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How host names are resolved (Node's own lookup unless given). */
  lookup?: LookupFunction;
  signal?: AbortSignal;
  /** What msgstat reads on stdin (a piped token); a stream for a terminal of the test's own making. */
  stdin?: string | (Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown });
  stdinTty?: boolean;
}

/**
 * A config folder that does not exist: msgstat run by a test sees no profile unless the test sets
 * MSGSTAT_CONFIG_DIR itself, so a developer's own profiles and tokens never leak into a test.
 */
export const NO_CONFIG_DIR = path.join(tmpdir(), "msgstat-tests-no-config");

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  if (options.onStdout) stdout.stream.on("data", (chunk: Buffer) => options.onStdout!(chunk.toString("utf8")));
  const code = await main(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.stderrTty ?? false,
    columns: options.columns ?? 80,
    rows: options.rows,
    env: { MSGSTAT_CONFIG_DIR: NO_CONFIG_DIR, ...options.env },
    now: options.clock ?? (() => options.now ?? Date.now()),
    signal: signalFor(options.signal),
    sleep: options.sleep,
    lookup: options.lookup,
    // Retries wait milliseconds, not the half second people get.
    retryBaseMs: 5,
    stdin: () =>
      Object.assign(
        typeof options.stdin === "string"
          ? Readable.from([Buffer.from(options.stdin)])
          : (options.stdin ?? Readable.from([])),
        { isTTY: options.stdinTty ?? (typeof options.stdin === "object" && options.stdin.isTTY === true) },
      ),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export const BIN = fileURLToPath(new URL("../../bin/msgstat.js", import.meta.url));

/**
 * The program the end-to-end tests run: bin/msgstat.js under this Node, or, when MSGSTAT_E2E_BIN names
 * it, the single executable of `npm run package`, run on its own (.ci/run does so where no node can be
 * found). A test that needs this Node or dist/ itself (a --require probe, held-bin.cjs, copies of
 * dist/, npm) is marked nodeOnly and skipped against the executable.
 */
export const E2E_EXECUTABLE = process.env.MSGSTAT_E2E_BIN ? path.resolve(process.env.MSGSTAT_E2E_BIN) : undefined;
export const nodeOnly = E2E_EXECUTABLE !== undefined;

/** The file to spawn and its arguments, to run the program with these arguments. */
export function programCommand(args: readonly string[]): [string, string[]] {
  return E2E_EXECUTABLE === undefined ? [process.execPath, [BIN, ...args]] : [E2E_EXECUTABLE, [...args]];
}

/** The program as the start of a shell command line, quoted. */
export const PROGRAM_IN_SHELL = E2E_EXECUTABLE === undefined ? `"${process.execPath}" "${BIN}"` : `"${E2E_EXECUTABLE}"`;

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Called with the child once it started, e.g. to send it a signal. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  timeoutMs?: number;
  /** Written to the child's stdin, which is then closed. */
  stdin?: string;
  /** Another script to run in place of bin/msgstat.js (one that loads the same built program). */
  script?: string;
}

/** The real executable as a user runs it; the environment is minimal so a developer's own settings do not leak in. */
export function runBin(args: string[], options: SpawnOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [file, fileArgs] =
      options.script === undefined ? programCommand(args) : [process.execPath, [options.script, ...args]];
    const child = spawn(file, fileArgs, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: "UTC",
        MSGSTAT_CONFIG_DIR: NO_CONFIG_DIR,
        ...options.env,
      },
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
    options.onSpawn?.(child);
  });
}
