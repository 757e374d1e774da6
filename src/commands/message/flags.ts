// Flags of `msgstat message`, for commander; options.ts combines their values.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { textOption, type NoOptions } from "../shared/option-values.js";

export function addMessageOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) {
  return command
    .option("--json", "print the message exactly as the service sent it")
    .addOption(textOption("-o, --output <file>", "write to this file (atomically) instead of stdout; a .json file gets --json", "a file name"));
}

export type MessageFlags = ReturnType<ReturnType<typeof addMessageOptions<[], NoOptions, NoOptions>>["opts"]>;
