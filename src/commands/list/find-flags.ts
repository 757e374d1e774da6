// Flags of `msgstat find`, for commander: a listing's output options, its filters but --search (the
// number is the argument), and the campaigns to look in.
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import { CSV_TIMES } from "../../render/csv.js";
import { concurrencyOption } from "../shared/concurrency.js";
import { choiceOption, listOption, textOption, wholeNumberOption, type NoOptions } from "../shared/option-values.js";
import { FORMATS, OUTPUT_HELP } from "./flags.js";

export function addFindOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(
      textOption(
        "--campaigns-file <path>",
        "more campaign ids, one a line (# comments and blank lines skipped); - reads stdin",
        "a file name",
      ),
    )
    .addOption(
      textOption(
        "--country-code <code>",
        "country calling code of a national number (44 reads 07700 900123 as +44 7700 900123, 1 reads " +
          "(720) 970-3582 as +1 720 970 3582; default: the profile's country-code)",
        "a country calling code",
      ),
    )
    .addOption(
      listOption("--status <list>", "keep messages whose latestStatus is one of these (comma-separated, repeatable)"),
    )
    .option(
      "--since <time>",
      "createdAt at or after: a date (a whole day in --tz), a date-time or a duration back from now (90m, 24h, 7d)",
    )
    .option("--until <time>", "createdAt at or before: a date (to its end), a date-time or a duration back from now")
    .addOption(wholeNumberOption("-n, --limit <n>", "print at most n messages (default: every one)", { min: 1 }))
    .option("--all", "every message (the default)")
    .addOption(
      choiceOption(
        "--format <format>",
        "output format (default: table on a terminal, else tab-separated; or from -o's extension)",
        FORMATS,
      ),
    )
    .option("--json", "shortcut for --format json")
    .option("--jsonl", "shortcut for --format jsonl")
    .option("--csv", "shortcut for --format csv")
    .option(
      "--fields <list>",
      "comma-separated fields: columns of table and CSV, keys of JSON (msgstat messages --help)",
    )
    .addOption(textOption("-o, --output <file>", OUTPUT_HELP, "a file name"))
    .option("--partial", "with -o: write what came even when some campaign could not be read")
    .addOption(concurrencyOption())
    .addOption(new Option("--wide", "table: every column, nothing cut, whatever the terminal's width"))
    .addOption(new Option("--no-headers", "table: no header line (piped: rows only)"))
    .addOption(
      new Option(
        "--no-formula-guard",
        "CSV: do not prefix cells that start with = + - @ tab or CR (spreadsheet formula guard)",
      ),
    )
    .addOption(
      choiceOption(
        "--csv-times <times>",
        "CSV: timestamps as the service sent them (server, the default), converted to --tz (tz) or to UTC (utc)",
        CSV_TIMES,
      ),
    );
}

export type FindFlags = ReturnType<ReturnType<typeof addFindOptions<[], NoOptions, NoOptions>>["opts"]>;
