// The commands as the program lists them, each by its name and description, and where the rest of it
// (arguments, options, action, help) is defined: loaded, with all a run needs (runtime.ts), once a
// command is named on the command line, so that `msgstat --help` loads none of them (cli.ts).
import type * as Runtime from "./runtime.js";
import type { CommandDefinition } from "./shared/setup.js";

export interface CommandEntry {
  readonly name: string;
  readonly description: string;
  /** Where in the commands' code (runtime.ts, which cli.ts loads) the rest of it is. */
  definition(runtime: typeof Runtime): CommandDefinition;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "messages",
    description: "list a campaign's messages, newest first",
    definition: (runtime) => runtime.messagesCommand,
  },
  {
    name: "batch",
    description: "list the messages of one batch (uploaded file) of a campaign, newest first",
    definition: (runtime) => runtime.batchCommand,
  },
  {
    name: "message",
    description: "show one message: status, recipient, batches, template, values, text and attempts",
    definition: (runtime) => runtime.messageCommand,
  },
  {
    name: "stats",
    description:
      "a delivery report of a campaign, or of one batch: statuses, delivery rate, errors, attempts, batches, over time",
    definition: (runtime) => runtime.statsCommand,
  },
  {
    name: "sandbox",
    description:
      "run a local delivery-status service with generated campaigns (prints its URL, then the ids it serves)",
    definition: (runtime) => runtime.sandboxCommand,
  },
  {
    name: "auth",
    description: "store, show and remove the token of a profile (OS keyring, else a private file)",
    definition: (runtime) => runtime.authCommand,
  },
  {
    name: "config",
    description: "read and change the settings of profiles in the config file (the token never: see msgstat auth)",
    definition: (runtime) => runtime.configCommand,
  },
  {
    name: "completion",
    description: "print a shell completion script: commands, options and their values",
    definition: (runtime) => runtime.completionCommand,
  },
];
