import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.js";

/** What cli.ts hands each command: the context of a run, built from the global options in force. */
export interface CommandSetup {
  context(command: CommandUnknownOpts): Context;
  /** The program with every command defined in full, as completion describes it. */
  wholeProgram(): CommandUnknownOpts;
}

/**
 * A command as the program's help lists it (name and description), and the rest of it: arguments,
 * options, action and help sections, defined on that command only when it is the one that runs
 * (cli.ts), since defining every command's options was a tenth of `msgstat --help` (docs/bench.md).
 */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  define(command: Command, setup: CommandSetup): void;
}
