// What a command's run function is given instead of reaching for process globals, so tests can
// inject streams, a terminal or not, a clock, and an abort signal.
import type { LookupFunction } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { ApiClient } from "../http/client.js";
import type { TimeZone } from "../core/time.js";
import type { Timer } from "../core/timer.js";

export interface Io {
  stdout: Writable;
  stderr: Writable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** Terminal height, when stdout is a terminal that says (a screen redrawn in place must fit it). */
  rows?: number;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Aborted, with an InterruptedError as its reason, on SIGINT or SIGTERM. */
  signal: AbortSignal;
  /** How the live modes wait between polls; real timers unless a test runs a virtual clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How host names are resolved: Node's own lookup unless a test gives one. */
  lookup?: LookupFunction;
  /**
   * Read only by `auth login` (a piped token, or a prompt on a terminal). A function: Node makes
   * process.stdin's stream when it is first asked for, which `--help` then never pays for (a command
   * that loads the config code has it made all the same: docs/bench.md, start-up).
   */
  stdin?: () => Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
}

export interface Context extends Io {
  /** The arguments msgstat was run with (without node and the script), for hints that repeat the command. */
  argv: readonly string[];
  /** Colour on stdout: a terminal, and neither --no-color nor NO_COLOR (FORCE_COLOR overrides both ways). */
  color: boolean;
  /** Colour on stderr (the spinner), by the same rules for stderr's terminal. */
  stderrColor: boolean;
  /** --tz: every time shown to a person is in this zone, and --since/--until without an offset are read in it. */
  timeZone: TimeZone;
  verbose: boolean;
  /** `now` and how to wait, for the live modes (waiting, following, watching). */
  timer: Timer;
  /** Built on first use, so usage errors are found before any connection and --help never loads the HTTP client. */
  client: () => Promise<ApiClient>;
  /** A warning line on stderr (server text in it is made inert). */
  warn: (line: string) => void;
  /** A note for a person on stderr. */
  note: (line: string) => void;
}

export function colorWanted(io: Pick<Io, "env" | "stdoutIsTTY">, noColorFlag: boolean): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (noColorFlag) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  return io.stdoutIsTTY && io.env.TERM !== "dumb";
}
