// Assembles the program and is the one place where errors become exit codes and messages.
// A command's code is loaded only when the command is named on the command line (COMMANDS below),
// so that `msgstat --help` costs little more than commander.
import { Command, CommanderError, type CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import type { CommandDefinition, Io, Run } from "./commands/context.js";
import { ExitCode, InterruptedError, MsgstatError, OutputClosedError } from "./core/errors.js";
import { addGlobalOptions } from "./commands/shared/global-options.js";
import { addHelpSections, configureHelp, fullHelpText, type HelpSection } from "./commands/shared/help.js";
import packageJson from "../package.json" with { type: "json" };

// Program-wide help sections, laid out to the terminal's width by shared/help.ts. Exit codes, the
// environment and every global option are topics of their own (msgstat help exit-codes, ...): the
// program's help stays one screen, and each list is said once, complete.
const PROGRAM_HELP: HelpSection[] = [
  {
    heading: "Examples:",
    examples: [
      {
        command: "msgstat sandbox --save-profile &",
        comment: "a local service to try msgstat against, in the background (kill %1 stops it)",
      },
      { command: "msgstat messages cmp-spring-sale --search 11" },
      { command: "msgstat message cmp-spring-sale msg-spring-0000042" },
      { command: "msgstat stats cmp-spring-sale --since 7d" },
    ],
  },
  {
    heading: "More:",
    text:
      "msgstat <command> --help (its most used options), msgstat help <command> (every option), " +
      "msgstat help exit-codes, msgstat help environment, msgstat help (every topic).",
  },
];

/**
 * Every command by name: the description the program lists it with, and the function that defines the
 * rest of it (arguments, options, help, and the action that runs it), loaded only when the command is
 * named on the command line, so that `msgstat --help` loads no command's code.
 */
const COMMANDS: Record<string, { description: string; load: () => Promise<CommandDefinition> }> = {
  messages: {
    description: "list, search and filter the messages of campaigns, newest first",
    load: () => import("./commands/messages/command.js").then((module) => module.defineMessages),
  },
  batch: {
    description: "list the messages of one batch (uploaded file) of a campaign",
    load: () => import("./commands/messages/command.js").then((module) => module.defineBatch),
  },
  find: {
    description: "every message to one phone number, across campaigns",
    load: () => import("./commands/find/command.js").then((module) => module.defineFind),
  },
  message: {
    description: "one message in full: status, recipient, text and attempts",
    load: () => import("./commands/message/command.js").then((module) => module.defineMessage),
  },
  stats: {
    description: "a delivery report: statuses, rates, errors, batches, over time",
    load: () => import("./commands/stats/command.js").then((module) => module.defineStats),
  },
  export: {
    description: "a partitioned Parquet dataset of campaigns, brought up to date",
    load: () => import("./commands/export/command.js").then((module) => module.defineExport),
  },
  sandbox: {
    description: "run a local service with generated campaigns, to try msgstat",
    load: () => import("./commands/sandbox/command.js").then((module) => module.defineSandbox),
  },
  auth: {
    description: "store, show and remove the token of a profile",
    load: () => import("./commands/auth/command.js").then((module) => module.defineAuth),
  },
  config: {
    description: "read and change the settings of profiles",
    load: () => import("./commands/config/command.js").then((module) => module.defineConfig),
  },
  completion: {
    description: "print a shell completion script (bash, zsh, fish)",
    load: () => import("./commands/completion/command.js").then((module) => module.defineCompletion),
  },
  help: {
    description: "a help topic, or every option of a command",
    load: () => import("./commands/help/command.js").then((module) => module.defineHelp),
  },
};

/**
 * The program, with every command listed by name and description, and `define`, which defines one of
 * them in full. Positional: the program's options come before a command's name; after it, the
 * command's own (which include the global ones where the command talks to the service).
 */
function assemble(io: Io, argv: readonly string[]) {
  const program = addGlobalOptions(new Command("msgstat"))
    .description("Inspect the delivery status of messaging campaigns.")
    .version(packageJson.version, "-V, --version")
    .enablePositionalOptions();
  addHelpSections(program, ...PROGRAM_HELP);

  // Every command, the ones under auth and config too. commander's own complaints are not written
  // where it finds them: the command that found one is noted, and report() says it as msgstat says
  // every usage error (commands/shared/parser-errors.ts).
  const settle = (command: AnyCommand, withSubcommands = true) => {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => (run.parserFailedIn = command),
    });
    configureHelp(command, () => io.columns);
    if (withSubcommands) for (const subcommand of command.commands) settle(subcommand);
  };
  // A command is settled when it is defined: until then only the program's help shows it, by name.
  const undefinedCommands = new Map<string, Command>();
  for (const [name, { description }] of Object.entries(COMMANDS)) {
    const command = new Command(name).description(description);
    program.addCommand(command);
    undefinedCommands.set(name, command);
  }
  settle(program, false);

  const define = async (name: string) => {
    const command = undefinedCommands.get(name);
    if (command === undefined) return;
    undefinedCommands.delete(name);
    const definition = await COMMANDS[name]!.load().catch((error: unknown) => {
      throw new DamagedInstallError(error);
    });
    definition(command, run);
    settle(command);
  };
  const run: Run = {
    io,
    argv,
    version: packageJson.version,
    verbose: argv.includes("-v") || argv.includes("--verbose"),
    fullHelp: fullHelpText,
    wholeProgram: async () => {
      for (const name of Object.keys(COMMANDS)) await define(name);
      return program;
    },
  };
  return { program, run, define };
}

/** The whole command line: the program, its commands and their options (for tests and completion). */
export async function buildProgram(io: Io, argv: readonly string[] = []): Promise<AnyCommand> {
  return await assemble(io, argv).run.wholeProgram();
}

/** A module of msgstat's own could not be loaded: a damaged or half-copied install, said in one line. */
class DamagedInstallError extends Error {
  constructor(cause: unknown) {
    const reason =
      cause instanceof DamagedInstallError
        ? cause.reason
        : (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!;
    super(`cannot load msgstat's own code (${reason}); reinstall msgstat`);
    this.reason = reason;
  }
  readonly reason: string;
}

/** Runs msgstat with these arguments (without node and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const { program, run, define } = assemble(io, argv);
  try {
    // Commander needs a command defined before it parses its arguments: each command named is.
    for (const word of argv) if (Object.hasOwn(COMMANDS, word)) await define(word);
    // No command is a usage error: its help goes to stderr, as `msgstat auth` alone does, so stdout
    // stays data only.
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return ExitCode.usage;
    }
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    return await report(error, run);
  } finally {
    await run.client?.close().catch(() => undefined);
  }
}

async function report(error: unknown, run: Run): Promise<number> {
  const { io, verbose } = run;
  // Help and version are not failures. Help shown for want of a subcommand (msgstat auth) is a usage
  // error, and is all there is to say.
  if (error instanceof CommanderError && (error.exitCode === 0 || run.parserFailedIn === undefined))
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  if (error instanceof OutputClosedError) return ExitCode.ok;
  // Loaded only to report an error: `msgstat --help` then loads no HTTP, spinner or advice code.
  let advise: typeof import("./commands/shared/advice.js").advise;
  let writeErrorLines: typeof import("./commands/error-lines.js").writeErrorLines;
  try {
    if (error instanceof DamagedInstallError) throw error;
    [{ advise }, { writeErrorLines }] = await Promise.all([
      import("./commands/shared/advice.js"),
      import("./commands/error-lines.js"),
    ]);
    if (error instanceof CommanderError) {
      const { parserError } = await import("./commands/shared/parser-errors.js");
      error = parserError(error, run.parserFailedIn!, run.argv);
    }
  } catch (loading) {
    // A damaged install is the error to report, in one line. (Not the first error, if another came
    // first: it may hold server text, which only the line writer makes safe for a terminal.)
    io.stderr.write(`msgstat: ${new DamagedInstallError(loading).message}\n`);
    return ExitCode.failure;
  }
  const interrupted = io.signal.aborted && io.signal.reason instanceof InterruptedError ? io.signal.reason : undefined;
  if (interrupted) {
    // Its hints say what became of -o's file.
    writeErrorLines(io, "msgstat: ", interrupted.message, interrupted.hints);
    return interrupted.exitCode;
  }
  if (error instanceof MsgstatError) {
    advise(error, run.credentials);
    writeErrorLines(io, "msgstat: ", error.message, error.hints);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (verbose && error instanceof Error && error.stack) {
    writeErrorLines(io, "msgstat: unexpected error: ", message);
    io.stderr.write(`${error.stack}\n`);
  } else writeErrorLines(io, "msgstat: unexpected error: ", message, ["run again with --verbose for details"]);
  return ExitCode.failure;
}
export { InterruptedError } from "./core/errors.js";
// For the man page (scripts/man-page.mjs): each command's help with every option.
export { fullHelpText } from "./commands/shared/help.js";
