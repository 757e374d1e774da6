// Flags of the listing commands, for commander. Their values are typed and checked as they are read
// (shared/option-values.ts); what needs several flags at once is checked in options.ts.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { addFilterOptions } from "../filters.js";
import { durationOption, textOption, wholeNumberOption, type NoOptions } from "../option-values.js";
import {
  addCsvOptions,
  addFormatOptions,
  addTableOptions,
  bomOption,
  OUTPUT_HELP,
  outputOption,
} from "../output-flags.js";

export function addListingOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  const listing = addFilterOptions(command)
    .addOption(
      wholeNumberOption(
        "-n, --limit <n>",
        "print at most n messages (default: 50 in the table, every one with --json, --jsonl, --csv or -o)",
        { min: 1 },
      ),
    )
    .option("--all", "print every message (no --limit)")
    .addOption(
      wholeNumberOption(
        "--page-size <n>",
        "messages per request, 1 to 1000 (default: --limit up to 1000; 1000 with --all or filters)",
        { min: 1, max: 1000, why: "the API's limit" },
      ),
    )
    .addOption(
      textOption("--after <cursor>", "start after this cursor (as printed when a listing is cut short)", "a cursor"),
    )
    .addOption(textOption("--before <cursor>", "the messages just before this cursor, newest first", "a cursor"));
  const written = addTableOptions(
    addFormatOptions(listing)
      .option("--fields <list>", "comma-separated fields: columns of table and CSV, keys of JSON (see below)")
      .addOption(outputOption(OUTPUT_HELP)),
  )
    .option(
      "--follow",
      "the newest messages (-n, default 10, or --since), then every new one as it appears, oldest first, until Ctrl-C",
    )
    .addOption(
      durationOption("--every <duration>", "with --follow: time between polls for new messages (default 2s)", {
        minMs: 1_000,
        maxMs: 3_600_000,
      }),
    )
    .addOption(bomOption());
  return addCsvOptions(written);
}

/** The listing flags as commander reads them: derived from the declarations above. */
export type ListingFlags = ReturnType<ReturnType<typeof addListingOptions<[], NoOptions, NoOptions>>["opts"]>;
