// The output flags several commands declare alike, each declared once: the listing formats of
// messages, batch and find, -o, the table's and CSV's switches.
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import { CSV_TIMES } from "../../formats/csv.js";
import { choiceOption, textOption } from "./option-values.js";

export const FORMATS = ["table", "tsv", "json", "jsonl", "csv", "parquet"] as const;
export type Format = (typeof FORMATS)[number];

/** -o of messages, batch and find: in every option's help, and in one line of the brief --help. */
export const OUTPUT_HELP =
  "write to this file (atomically) instead of stdout; .csv, .json, .jsonl, .ndjson, .tsv and .parquet set the " +
  "format (.csv.gz and the like: gzipped)";
export const OUTPUT_BRIEF_HELP = "write to a file: .csv, .json, .jsonl, .parquet, +.gz";

/** -o: what each command writes there is said in its help. */
export function outputOption(help: string) {
  return textOption("-o, --output <file>", help, "a file name");
}

/** --bom, for every command that writes CSV. */
export function bomOption() {
  return new Option("--bom", "CSV: start with a UTF-8 byte-order mark, so Excel reads accented letters right");
}

/** --format and its shortcuts, of the commands that list messages. */
export function addFormatOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(
      choiceOption(
        "--format <format>",
        "output format (default: table on a terminal, else tab-separated; or from -o's extension)",
        FORMATS,
      ),
    )
    .option("--json", "shortcut for --format json")
    .option("--jsonl", "shortcut for --format jsonl")
    .option("--csv", "shortcut for --format csv");
}

/** The table's width and header line, of the commands that list messages. */
export function addTableOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(new Option("--wide", "table: every column, nothing cut, whatever the terminal's width"))
    .addOption(new Option("--no-headers", "table: no header line (piped: rows only)"));
}

/** CSV's timestamps and formula guard, of the commands that list messages. */
export function addCsvOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
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
