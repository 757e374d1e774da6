import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.js";

/** What cli.ts hands each command: the context of a run, built from the global options in force. */
export interface CommandSetup {
  context(command: CommandUnknownOpts): Context;
  /** The program with every command defined in full, as completion describes it. */
  wholeProgram(): Promise<CommandUnknownOpts>;
}

/**
 * What a command is besides the name and description the program lists it by (commands/catalogue.ts):
 * its arguments, options, action and help sections, defined on that command when it is named.
 */
export interface CommandDefinition {
  define(command: Command, setup: CommandSetup): void;
}
