import type { CommandUnknownOpts as Command } from "@commander-js/extra-typings";
import type { Context } from "../context.js";

/** What cli.ts hands each command: the context of a run, built from the global options in force. */
export interface CommandSetup {
  context(command: Command): Context;
}
