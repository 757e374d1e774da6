// Assembles the program and is the one place where errors become exit codes and messages.
// A command's code is loaded only when a command is named on the command line (commands/runtime.ts),
// so that `msgstat --help` and `--version` cost little more than commander.
import { Command, CommanderError, type CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import type { ApiClient } from "./http/client.js";
import { colorWanted, type Context, type Io } from "./commands/context.js";
import { ExitCode, InterruptedError, MsgstatError, OutputClosedError } from "./core/errors.js";
import { addGlobalOptions, globalOptionsOf } from "./commands/shared/global-options.js";
import { addHelpSections, configureHelp, type HelpSection } from "./commands/shared/help.js";
import { COMMANDS, type CommandEntry } from "./commands/catalogue.js";
import type { CommandDefinition, CommandSetup } from "./commands/shared/setup.js";
import packageJson from "../package.json" with { type: "json" };

// Program-wide help sections, laid out to the terminal's width by shared/help.ts.
const PROGRAM_HELP: HelpSection[] = [
  {
    heading: "Exit codes:",
    items: [
      ["0", "success, an empty result included"],
      [
        "1",
        "the service failed, was unreachable, or sent a response msgstat cannot read; or the output " +
          "could not be written",
      ],
      ["2", "usage error (nothing was sent)"],
      ["3", "not found (HTTP 404)"],
      ["4", "not authorised (HTTP 401 or 403)"],
      ["5", "stats: the failure rate is above --max-failure-rate (the report is still printed)"],
      ["6", "message --wait: the message ended in failure (it is printed)"],
      ["7", "message --wait: not final when --wait-timeout ran out (its last state is printed)"],
      ["130", "interrupted (Ctrl-C)"],
      ["143", "terminated (SIGTERM)"],
    ],
  },
  {
    heading: "Environment:",
    items: [
      ["MSGSTAT_BASE_URL", "service base URL (or --base-url)"],
      ["MSGSTAT_TOKEN", "bearer token: safer than --token, which ps and shell history show"],
      ["MSGSTAT_PROFILE", 'the profile to use (or --profile; else "default")'],
      ["MSGSTAT_CONFIG_DIR", "where profiles are kept (else $XDG_CONFIG_HOME/msgstat, else ~/.config/msgstat)"],
      ["MSGSTAT_TIMEOUT, MSGSTAT_RETRIES, MSGSTAT_TZ", "as --timeout, --retries, --tz"],
      ["MSGSTAT_PROXY, MSGSTAT_CA_FILE", "as --proxy, --ca-file"],
      ["HTTPS_PROXY, HTTP_PROXY, NO_PROXY", "proxies as curl reads them (lower-case names too); --proxy wins"],
      ["NODE_EXTRA_CA_CERTS", "a PEM file of certificates Node trusts besides its own"],
      ["NO_COLOR, FORCE_COLOR", "no colour; colour even when piped"],
      ["COLUMNS", "width to lay out for (default: the terminal's)"],
    ],
  },
  {
    heading: "Settings:",
    text:
      "Each comes from its flag, else its environment variable, else the profile (msgstat config, " +
      "msgstat auth), else its default.",
  },
  {
    heading: "Examples:",
    examples: [
      {
        command: "msgstat sandbox --save-profile",
        comment: "a local service to try all of this against, saved as the profile sandbox",
      },
      { command: "msgstat messages cmp-spring-sale --search 11" },
      { command: "msgstat message cmp-spring-sale msg-spring-0000042" },
      { command: "msgstat messages cmp-spring-sale --status failure --since 24h --all -o failures.csv" },
    ],
  },
];

type Runtime = typeof import("./commands/runtime.js");

interface RunState {
  client?: ApiClient;
  verbose: boolean;
  /**
   * The commands' code: loaded with the definitions of the commands named (definitions), or to report an error; never
   * for the program's --help or --version.
   */
  runtime?: Runtime;
}

const loadRuntime = (state: RunState): Promise<Runtime> | Runtime =>
  state.runtime ?? import("./commands/runtime.js").then((runtime) => (state.runtime = runtime));

/** The whole command line: the program, its commands and their options (for tests and completion). */
export async function buildProgram(io: Io, argv: readonly string[] = []): Promise<AnyCommand> {
  const state: RunState = { verbose: false };
  return assemble(io, state, argv, await definitions(state, () => true));
}

/**
 * The definitions of the commands `wanted` names, with the commands' code loaded for them (none is
 * loaded when none is wanted): a command's action, which builds its context from that code, runs only
 * once its definition is here.
 */
async function definitions(
  state: RunState,
  wanted: (entry: CommandEntry) => boolean,
): Promise<Map<string, CommandDefinition>> {
  const chosen = COMMANDS.filter(wanted);
  if (chosen.length === 0) return new Map();
  const runtime = await loadRuntime(state);
  return new Map(chosen.map((entry) => [entry.name, entry.definition(runtime)]));
}

/**
 * The program, with each command listed by name and description and defined in full (arguments,
 * options, action, help) where `defined` has its definition, or once the whole program is asked for
 * (completion). A command that runs, or whose help is shown, is named in argv as it stands: main
 * loads the definitions of those.
 */
function assemble(io: Io, state: RunState, argv: readonly string[], defined: ReadonlyMap<string, CommandDefinition>) {
  // Positional: the program's options come before a command's name; after it, the command's own
  // (which include the global ones where the command talks to the service).
  const program = addGlobalOptions(new Command("msgstat"))
    .description("Inspect the delivery status of messaging campaigns.")
    .version(packageJson.version, "-V, --version")
    .enablePositionalOptions();
  addHelpSections(program, ...PROGRAM_HELP);

  // Every command, the ones under auth and config too.
  const settle = (command: AnyCommand) => {
    command
      .exitOverride()
      .showHelpAfterError("(add --help for usage)")
      .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
    configureHelp(command, () => io.columns);
    command.commands.forEach(settle);
  };
  const pending = new Map<string, Command>();
  const define = (name: string, definition: CommandDefinition) => {
    const command = pending.get(name);
    if (command === undefined) return;
    pending.delete(name);
    definition.define(command, setup);
    settle(command);
  };
  const setup: CommandSetup = {
    context: (command) => contextFor(command, io, state, argv),
    wholeProgram: async () => {
      for (const [name, definition] of await definitions(state, (entry) => pending.has(entry.name)))
        define(name, definition);
      return program;
    },
  };
  for (const entry of COMMANDS) {
    const command = new Command(entry.name).description(entry.description);
    program.addCommand(command);
    pending.set(entry.name, command);
  }
  settle(program);
  for (const [name, definition] of defined) define(name, definition);
  return program;
}

function contextFor(command: AnyCommand, io: Io, state: RunState, argv: readonly string[]): Context {
  const globals = globalOptionsOf(command);
  state.verbose = globals.verbose === true;
  const { stderrLine, chosenTimeZone, clientSettings, ApiClient, sleep } = state.runtime!;
  const warn = (line: string) => stderrLine(io, "warning: ", line);
  return {
    ...io,
    argv,
    color: colorWanted(io, globals.color === false),
    stderrColor: colorWanted({ env: io.env, stdoutIsTTY: io.stderrIsTTY }, globals.color === false),
    timeZone: chosenTimeZone(globalOptionsOf(command, { defaults: false }), io.env),
    timer: { now: io.now, sleep: io.sleep ?? sleep },
    verbose: state.verbose,
    warn,
    note: (line) => stderrLine(io, "", line),
    client: async () => {
      if (state.client) return state.client;
      const settings = await clientSettings(globalOptionsOf(command, { defaults: false }), {
        env: io.env,
        signal: io.signal,
        note: (line) => stderrLine(io, "", line),
        log: state.verbose ? (line) => stderrLine(io, "", line) : undefined,
      });
      state.client = new ApiClient({
        ...settings,
        network: { ...settings.network, lookup: io.lookup },
        signal: io.signal,
        warn,
        log: state.verbose ? (line) => stderrLine(io, "", line) : undefined,
      });
      return state.client;
    },
  };
}

/** Runs msgstat with these arguments (without node and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const state: RunState = { verbose: argv.includes("-v") || argv.includes("--verbose") };
  const program = assemble(io, state, argv, await definitions(state, (entry) => argv.includes(entry.name)));
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.usage;
    }
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    return await report(error, io, state);
  } finally {
    await state.client?.close().catch(() => undefined);
  }
}

async function report(error: unknown, io: Io, state: RunState): Promise<number> {
  if (error instanceof CommanderError) {
    // Help and version are not failures; every other complaint of commander's is a usage error.
    // Commander has written its own words: the program's --help loads none of the commands' code.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof OutputClosedError) return ExitCode.ok;
  let runtime: Runtime;
  try {
    runtime = await loadRuntime(state);
  } catch (loading) {
    // msgstat's own code cannot be loaded (a damaged install): that is the error to report. (Not the
    // first one: it may hold server text, which only the line writer makes safe for a terminal.)
    io.stderr.write(
      `msgstat: cannot load msgstat's own code ` +
        `(${loading instanceof Error ? loading.message : String(loading)}); reinstall msgstat\n`,
    );
    return ExitCode.failure;
  }
  const { stderrLine, advise } = runtime;
  const interrupted = io.signal.aborted && io.signal.reason instanceof InterruptedError ? io.signal.reason : undefined;
  if (interrupted) {
    stderrLine(io, "msgstat: ", interrupted.message);
    return interrupted.exitCode;
  }
  if (error instanceof MsgstatError) {
    advise(error);
    stderrLine(io, "msgstat: ", error.message);
    for (const hint of error.hints) for (const line of hint.split("\n")) stderrLine(io, "  ", line);
    if (state.verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderrLine(io, "msgstat: unexpected error: ", message);
  if (state.verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else stderrLine(io, "  ", "run again with --verbose for details");
  return ExitCode.failure;
}
export { InterruptedError } from "./core/errors.js";
