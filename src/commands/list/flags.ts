// Flags of the listing commands, for commander. Their values are typed and checked as they are read
// (shared/option-values.ts); what needs several flags at once is checked in options.ts.
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import { CSV_TIMES } from "../../render/csv.js";
import { addFilterOptions } from "../shared/filters.js";
import {
  choiceOption,
  durationOption,
  textOption,
  wholeNumberOption,
  type NoOptions,
} from "../shared/option-values.js";

export const FORMATS = ["table", "tsv", "json", "jsonl", "csv", "parquet"] as const;
export type Format = (typeof FORMATS)[number];

/** -o of messages, batch and find: in every option's help, and in one line of the brief --help. */
export const OUTPUT_HELP =
  "write to this file (atomically) instead of stdout; .csv, .json, .jsonl, .ndjson, .tsv and .parquet set the " +
  "format (.csv.gz and the like: gzipped)";
export const OUTPUT_BRIEF_HELP = "write to a file: .csv, .json, .jsonl, .parquet, +.gz";

export function addListingOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return addFilterOptions(command)
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
    .addOption(textOption("--before <cursor>", "the messages just before this cursor, newest first", "a cursor"))
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
    .option("--fields <list>", "comma-separated fields: columns of table and CSV, keys of JSON (see below)")
    .addOption(textOption("-o, --output <file>", OUTPUT_HELP, "a file name"))
    .addOption(new Option("--wide", "table: every column, nothing cut, whatever the terminal's width"))
    .addOption(new Option("--no-headers", "table: no header line (piped: rows only)"))
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
    .option("--bom", "CSV: start with a UTF-8 byte-order mark, so Excel reads accented letters right")
    .addOption(
      choiceOption(
        "--csv-times <times>",
        "CSV: timestamps as the service sent them (server, the default), converted to --tz (tz) or to UTC (utc)",
        CSV_TIMES,
      ),
    )
    .addOption(
      new Option(
        "--no-formula-guard",
        "CSV: do not prefix cells that start with = + - @ tab or CR (spreadsheet formula guard)",
      ),
    );
}

/** The listing flags as commander reads them: derived from the declarations above. */
export type ListingFlags = ReturnType<ReturnType<typeof addListingOptions<[], NoOptions, NoOptions>>["opts"]>;
