// Flags of `msgstat export`, for commander: where the dataset goes, its format, and the campaigns.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { campaignsFileOption } from "../shared/campaign-ids.js";
import { concurrencyOption } from "../shared/concurrency.js";
import { choiceOption, textOption, type NoOptions } from "../shared/option-values.js";
import { EXPORT_FORMATS } from "./layout.js";

export function addExportOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(
      textOption(
        "--to <dir>",
        "the dataset's root folder (created if missing, or empty)",
        "a folder",
      ).makeOptionMandatory(),
    )
    .addOption(
      choiceOption(
        "--format <format>",
        "the files of each partition (default: the dataset's, or parquet)",
        EXPORT_FORMATS,
      ),
    )
    .addOption(campaignsFileOption())
    .addOption(concurrencyOption());
}

export type ExportFlags = ReturnType<ReturnType<typeof addExportOptions<[], NoOptions, NoOptions>>["opts"]>;
