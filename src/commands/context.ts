// What a command's run function is given instead of reaching for process globals, so tests can
// inject streams, a terminal or not, a clock, and an abort signal; and how a command's action builds
// it from what cli.ts hands the command (Run) and the global options in force.
import type { LookupFunction } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { Command, CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import { ApiClient } from "../http/client.js";
import type { TimeZone } from "../core/time.js";
import { sleep, type Timer } from "../core/timer.js";
import { RunSettings } from "../config/settings.js";
import { clientSettings, type Credentials } from "./shared/client-config.js";
import { globalOptionsOf, type GlobalOptions } from "./shared/global-options.js";
import { chosenQuiet } from "./shared/quiet.js";
import { chosenTimeZone } from "./shared/time-zone.js";
import { stderrLine } from "./stderr-line.js";

export interface Io {
  stdout: Writable;
  stderr: Writable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** stderr's terminal width, when stderr is a terminal that says (errors are wrapped to it; else `columns`). */
  stderrColumns?: number;
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
  /** The most the first retry of a request waits, in ms: 500 unless a test shortens it. */
  retryBaseMs?: number;
  /**
   * Read only by `auth login` (a piped token, or a prompt on a terminal). A function: Node makes
   * process.stdin's stream when it is first asked for, which `--help` then never pays for (a command
   * that loads the config code has it made all the same).
   */
  stdin?: () => Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /**
   * Only a test gives it: awaited at each named step of a run (export's phases), so a test can hold the
   * run there and kill it, with no timing involved. The program users run never sets it.
   */
  atStep?: (step: string) => Promise<void>;
}

export interface Context extends Io {
  /** The arguments msgstat was run with (without node and the script), for hints that repeat the command. */
  argv: readonly string[];
  /** msgstat's version, as the program states it (`--version`): said in a report to share. */
  version: string;
  /** Colour on stdout: a terminal, and neither --no-color nor NO_COLOR (FORCE_COLOR overrides both ways). */
  color: boolean;
  /** Colour on stderr (the spinner), by the same rules for stderr's terminal. */
  stderrColor: boolean;
  /** --tz: every time shown to a person is in this zone, and --since/--until without an offset are read in it. */
  timeZone: TimeZone;
  /** The global flags given, the profile (its config file read once a run) and every setting by one order. */
  settings: RunSettings<Partial<GlobalOptions>>;
  verbose: boolean;
  /** --quiet: `warn`, `note` and the spinner say nothing; errors still do (cli.ts), and so does `always`. */
  quiet: boolean;
  /** `now` and how to wait, for the live modes (waiting, following, watching). */
  timer: Timer;
  /** Built on first use, so usage errors are found before any connection and --help never loads the HTTP client. */
  client: () => Promise<ApiClient>;
  /** A warning line on stderr (server text in it is made inert). */
  warn: (line: string) => void;
  /** A note for a person on stderr. */
  note: (line: string) => void;
  /** With --verbose: a line of detail on stderr (where a setting came from, what the keyring said). */
  log?: (line: string) => void;
  /**
   * Lines even --quiet keeps: about a failure the exit code reports (a campaign that could not be read,
   * what became of -o), and output cut short by a default the user did not choose.
   */
  always: { warn: (line: string) => void; note: (line: string) => void };
}

export function colorWanted(io: Pick<Io, "env" | "stdoutIsTTY">, noColorFlag: boolean): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (noColorFlag) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  return io.stdoutIsTTY && io.env.TERM !== "dumb";
}

/** What cli.ts hands every command it defines: one run of msgstat. */
export interface Run {
  readonly io: Io;
  readonly argv: readonly string[];
  /** msgstat's version (package.json's, read by cli.ts alone: a second import of it would cost --help a chunk). */
  readonly version: string;
  /** --verbose, as the command's context found it (cli.ts reports an error with its stack then). */
  verbose: boolean;
  /** The client, once a command asked for it: cli.ts closes it when the run ends. */
  client?: ApiClient;
  /** What the client's requests carry: cli.ts advises on a 401 or 403 by it. */
  credentials?: Credentials;
  /** The command whose command line commander found wrong, for cli.ts to say what was wrong with it. */
  parserFailedIn?: AnyCommand;
  /** The command's help with every option (msgstat help <command>), where --help shows the most used. */
  fullHelp(command: AnyCommand): string;
  /** The program with every command defined in full, as completion describes it. */
  wholeProgram(): Promise<AnyCommand>;
}

/** Defines a command's arguments, options, help and action on the command the program lists by name. */
export type CommandDefinition = (command: Command, run: Run) => void;

/** The context of a command's run, from the global options in force for `command`. */
export function contextFor(command: AnyCommand, run: Run): Context {
  const { io } = run;
  const globals = globalOptionsOf(command);
  run.verbose = globals.verbose === true;
  const settings = new RunSettings<Partial<GlobalOptions>>(globalOptionsOf(command, { defaults: false }), io.env);
  // --verbose asks for more than --quiet (or MSGSTAT_QUIET, or the profile's quiet) leaves out, and wins.
  const quiet = !run.verbose && chosenQuiet(settings);
  const log = run.verbose ? (line: string) => stderrLine(io, "", line) : undefined;
  const always = {
    warn: (line: string) => stderrLine(io, "warning: ", line),
    note: (line: string) => stderrLine(io, "", line),
  };
  const warn = quiet ? () => undefined : always.warn;
  const note = quiet ? () => undefined : always.note;
  let program: AnyCommand = command;
  while (program.parent) program = program.parent;
  return {
    ...io,
    argv: run.argv,
    version: program.version() ?? "unknown",
    color: colorWanted(io, globals.color === false),
    stderrColor: colorWanted({ env: io.env, stdoutIsTTY: io.stderrIsTTY }, globals.color === false),
    timeZone: chosenTimeZone(settings),
    settings,
    timer: { now: io.now, sleep: io.sleep ?? sleep },
    verbose: run.verbose,
    quiet,
    warn,
    note,
    log,
    always,
    client: async () => {
      if (run.client) return run.client;
      const { credentials, ...client } = await clientSettings(settings, {
        signal: io.signal,
        note,
        log,
        retryBaseMs: io.retryBaseMs,
      });
      run.credentials = credentials;
      run.client = new ApiClient({
        ...client,
        network: { ...client.network, lookup: io.lookup },
        signal: io.signal,
        warn,
        log,
      });
      return run.client;
    },
  };
}
