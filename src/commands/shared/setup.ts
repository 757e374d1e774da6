import type { Command } from "commander";
import type { Context } from "../context.js";

/** What cli.ts hands each command: a context built from the global options, and a way to accept them after the command name. */
export interface CommandSetup {
  context(command: Command): Context;
  withGlobals(command: Command): Command;
}
