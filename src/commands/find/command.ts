// `msgstat find <recipient> [campaignId...]`: every message to one phone number, newest first, across
// the campaigns named or the profile's `campaigns` list. For support staff, who have a number, not a
// campaign id.
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import { addGlobalOptions, globalOptionsOf, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { addHelpSections } from "../shared/help.js";
import { chosenConcurrency, concurrencyOption } from "../shared/concurrency.js";
import { choiceOption, listOption, textOption, wholeNumberOption, type NoOptions } from "../shared/option-values.js";
import { contextFor, type Run } from "../context.js";
import { FORMATS } from "../list/flags.js";
import { runFind } from "./run.js";

const NUMBER_HELP =
  "Typed as people write it: spaces, dashes, dots and brackets are dropped. +44 7700 900123, " +
  "0044 7700 900123 and 447700900123 are one full international number, and only messages to exactly " +
  "that number are listed (not to one that contains or ends with its digits). A national number " +
  "(07700 900123) is read with --country-code, or the profile's country-code; without one, the " +
  "numbers ending in its digits (7700900123) in any country are listed, and stderr says so. " +
  "*0779 lists the numbers ending in 0779.";

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
        "country calling code of a national number (44 reads 07700 900123 as +44 7700 900123; default: the " +
          "profile's country-code)",
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
    .addOption(
      textOption(
        "-o, --output <file>",
        "write to this file (atomically) instead of stdout; .csv, .json, .jsonl, .ndjson and .tsv set the format",
        "a file name",
      ),
    )
    .option("--partial", "with -o: write what came even when some campaign could not be read")
    .addOption(concurrencyOption())
    .addOption(new Option("--wide", "table: every column, nothing cut, whatever the terminal's width"))
    .addOption(new Option("--no-headers", "table: no header line (piped: rows only)"))
    .addOption(
      new Option(
        "--no-formula-guard",
        "CSV: do not prefix cells that start with = + - @ tab or CR (spreadsheet formula guard)",
      ),
    );
}

export type FindFlags = ReturnType<ReturnType<typeof addFindOptions<[], NoOptions, NoOptions>>["opts"]>;

export function defineFind(command: Command, run: Run): void {
  const find = addGlobalOptions(
    addFindOptions(
      command
        .argument("<recipient>", "the phone number, as support staff type it (see below)")
        .argument("[campaignId...]", "the campaigns to look in (default: the profile's campaigns list)"),
    ),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (recipient, campaignIds, raw, cmd) => {
    const ctx = contextFor(cmd, run);
    const given = globalOptionsOf(cmd, { defaults: false });
    await runFind(recipient, campaignIds, raw, {
      ctx,
      given,
      concurrency: () => chosenConcurrency(raw.concurrency, given, ctx.env),
    });
  });
  addHelpSections(
    find,
    { heading: "The number:", text: NUMBER_HELP },
    {
      heading: "Campaigns:",
      text:
        "The ids named, and those of --campaigns-file; with none, the profile's list (msgstat config set " +
        "campaigns <id,id,...>). Several are read at once (--concurrency); one that cannot be read is named " +
        "on stderr, the others are listed, and the exit code is not 0.",
    },
    {
      heading: "Examples:",
      examples: [
        { command: "msgstat config set campaigns cmp-spring-sale,cmp-loyalty-es,cmp-otp-alerts" },
        {
          command: "msgstat find '+44 800 293 5115' --status failure --since 7d",
          comment: "which of this customer's messages failed this week, in any campaign?",
        },
        { command: "msgstat find 0044-8002-935115 cmp-spring-sale --json" },
      ],
    },
  );
}
