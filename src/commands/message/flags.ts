// Flags of `msgstat message`, for commander; options.ts combines their values.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { durationOption, type NoOptions } from "../shared/option-values.js";
import { outputOption } from "../shared/output-flags.js";

export function addMessageOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .option("--json", "print the message exactly as the service sent it")
    .addOption(
      outputOption("write to this file (atomically) instead of stdout; a .json file gets --json (.json.gz: gzipped)"),
    )
    .option(
      "--wait",
      "poll the message until it is final (success or failure), then print it: exit 6 if it failed, 7 " +
        "if --wait-timeout ran out first (msgstat help exit-codes)",
    )
    .addOption(
      durationOption("--every <duration>", "with --wait: time between polls (default 2s)", {
        minMs: 1_000,
        maxMs: 3_600_000,
      }),
    )
    .addOption(
      durationOption("--wait-timeout <duration>", "with --wait: how long to wait at most (default 10m)", {
        minMs: 1_000,
        maxMs: 7 * 86_400_000,
      }),
    );
}

export type MessageFlags = ReturnType<ReturnType<typeof addMessageOptions<[], NoOptions, NoOptions>>["opts"]>;
