// A profile's token-command: a program whose standard output is the token (pass, op read, vault
// kv get), as the AWS CLI's credential_process and git's credential helpers. It runs without a
// shell (command-line.ts), with a time limit. Its stdout is a secret and is never shown; when it
// fails, msgstat shows its exit status and the last line of its stderr.
import type { ChildProcess } from "node:child_process";
import { durationText } from "../core/duration.js";
import { CredentialsError } from "../core/errors.js";
import { splitCommand } from "./command-line.js";
import { checkTokenValue, CONTROL } from "./keys.js";
import type { Env } from "./paths.js";

export interface TokenCommand {
  profile: string;
  text: string;
  timeoutSeconds: number;
}

// A token is short; a command that prints more than this is not printing a token.
const MAX_OUTPUT = 64 * 1024;
// Once the command has exited, what it wrote is in the pipes; this long is left for Node to read it, then the
// outcome is taken even if the pipes stay open: a child it left in the background (`sleep 100 & echo tok`)
// holds them, and is not the command. A bound, not a measured time: reading a pipe's buffer takes microseconds.
const DRAIN_AFTER_EXIT_MS = 100;

export async function runTokenCommand(command: TokenCommand, env: Env, signal?: AbortSignal): Promise<string> {
  const subject = `token-command of profile "${command.profile}"`;
  const split = splitCommand(command.text);
  if (!("words" in split)) throw new CredentialsError(`${subject} ${split.reason}`).withHint(split.hint);
  const [program, ...args] = split.words as [string, ...string[]];
  const outcome = await run(program, args, env, command.timeoutSeconds * 1000, signal);
  if ("interrupted" in outcome) throw outcome.interrupted;
  if ("spawnError" in outcome)
    throw new CredentialsError(`${subject} could not start ${program} (${outcome.spawnError})`);
  const said = lastLine(outcome.stderr);
  const saying = said ? `: ${said}` : " (it printed nothing on stderr)";
  const limit = durationText(command.timeoutSeconds * 1000, { exact: true });
  if (outcome.timedOut)
    throw new CredentialsError(`${subject} did not finish within ${limit} and was stopped`).withHint(
      "Raise token-command-timeout in the profile if it needs longer, e.g. to unlock a password manager.",
    );
  if (outcome.tooLong)
    throw new CredentialsError(`${subject} printed more than ${MAX_OUTPUT / 1024} KiB, which is not a token`);
  if (outcome.signal !== null) throw new CredentialsError(`${subject} was ended by ${outcome.signal}${saying}`);
  if (outcome.code !== 0) throw new CredentialsError(`${subject} failed with exit status ${outcome.code}${saying}`);
  const token = outcome.stdout.replace(/\r?\n$/, "").trim();
  if (token === "") throw new CredentialsError(`${subject} printed no token on stdout${saying}`);
  if (CONTROL.test(token))
    throw new CredentialsError(
      `${subject} printed more than one line, or control characters; it should print the token alone`,
    );
  const problem = checkTokenValue(token);
  if (problem !== undefined) throw new CredentialsError(`${subject} printed a token that ${problem}`);
  return token;
}

function lastLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .at(-1)
    ?.slice(0, 300);
}

type Outcome =
  | { interrupted: unknown }
  | { spawnError: string }
  | {
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: string;
      stderr: string;
      timedOut: boolean;
      tooLong: boolean;
    };

function run(
  program: string,
  args: string[],
  env: Env,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  return new Promise((resolve) => {
    // Its own process group, so that on a time-out its children (sh -c '...') stop with it.
    const ownGroup = process.platform !== "win32";
    // node:child_process loads only for a profile with a token-command: a share of every other run's
    // start otherwise (docs/bench.md, "The executable's start-up").
    const child = process.getBuiltinModule("node:child_process").spawn(program, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: env,
      detached: ownGroup,
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stdoutSize = 0;
    let stderr = "";
    let tooLong = false;
    let timedOut = false;
    let settled = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      signal?.removeEventListener("abort", onAbort);
      // A background child may still hold the pipes: they are let go, so msgstat does not wait for it.
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      resolve(outcome);
    };
    const result = (code: number | null, exitSignal: NodeJS.Signals | null): Outcome => ({
      code,
      signal: exitSignal,
      stdout: Buffer.concat(stdout).toString("utf8"),
      stderr,
      timedOut,
      tooLong,
    });
    const onAbort = () => {
      stop(child, ownGroup);
      finish({ interrupted: signal?.reason });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child, ownGroup);
      // Not waiting for the pipes to close: a grandchild that left the group may hold them open.
      finish(result(null, null));
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutSize += chunk.length;
      if (stdoutSize > MAX_OUTPUT) {
        tooLong = true;
        stop(child, ownGroup);
      } else stdout.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_OUTPUT)));
    child.on("error", (error: NodeJS.ErrnoException) =>
      finish({ spawnError: error.code === "ENOENT" ? "ENOENT: no such program" : (error.code ?? error.message) }),
    );
    child.on("exit", (code, exitSignal) => {
      drain = setTimeout(() => finish(result(code, exitSignal)), DRAIN_AFTER_EXIT_MS);
    });
    child.on("close", (code, exitSignal) => finish(result(code, exitSignal)));
    if (signal?.aborted) onAbort();
  });
}

function stop(child: ChildProcess, ownGroup: boolean): void {
  try {
    if (ownGroup && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    // Already gone.
  }
}
