// Flags of `msgstat find`, for commander: a listing's output options, its filters but --search (the
// number is the argument), and the campaigns to look in.
import type { Command, OptionValues } from "@commander-js/extra-typings";
import { campaignsFileOption } from "../shared/campaign-ids.js";
import { concurrencyOption } from "../shared/concurrency.js";
import { addStatusAndTimeOptions } from "../shared/filters.js";
import { textOption, wholeNumberOption, type NoOptions } from "../shared/option-values.js";
import { addCsvOptions, addFormatOptions, addTableOptions, OUTPUT_HELP, outputOption } from "../shared/output-flags.js";

export function addFindOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  const filtered = addStatusAndTimeOptions(
    command
      .addOption(campaignsFileOption())
      .addOption(
        textOption(
          "--country-code <code>",
          "country calling code of a national number (44 reads 07700 900123 as +44 7700 900123, 1 reads " +
            "(720) 970-3582 as +1 720 970 3582; default: the profile's country-code)",
          "a country calling code",
        ),
      ),
  )
    .addOption(wholeNumberOption("-n, --limit <n>", "print at most n messages (default: every one)", { min: 1 }))
    .option("--all", "every message (the default)");
  const written = addFormatOptions(filtered)
    .option(
      "--fields <list>",
      "comma-separated fields: columns of table and CSV, keys of JSON (msgstat messages --help)",
    )
    .addOption(outputOption(OUTPUT_HELP))
    .option("--partial", "with -o: write what came even when some campaign could not be read")
    .addOption(concurrencyOption());
  return addCsvOptions(addTableOptions(written));
}

export type FindFlags = ReturnType<ReturnType<typeof addFindOptions<[], NoOptions, NoOptions>>["opts"]>;
