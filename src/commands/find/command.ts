// `msgstat find <recipient> [campaignId...]`: every message to one phone number, newest first, across
// the campaigns named or the profile's `campaigns` list. For support staff, who have a number, not a
// campaign id.
import type { Command } from "@commander-js/extra-typings";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { FILTER_BRIEF_HELP } from "../shared/filters.js";
import { addHelpSections, setBriefHelp } from "../shared/help.js";
import { chosenConcurrency } from "../shared/concurrency.js";
import { contextFor, type Run } from "../context.js";
import { addFindOptions } from "./flags.js";
import { OUTPUT_BRIEF_HELP } from "../shared/output-flags.js";
import { runFind } from "./run.js";

const NUMBER_HELP =
  "Typed as people write it: spaces, dashes, dots and brackets are dropped. +44 7700 900123, " +
  "0044 7700 900123 and 447700900123 are one full international number, matched exactly (not one that " +
  "contains or ends with its digits). A national number, 07700 900123 or (720) 970-3582, is read with " +
  "--country-code or the profile's country-code; without one, 07700 900123 lists the numbers ending in " +
  "7700900123 in any country, and stderr says so. *0779 lists the numbers ending in 0779.";

export function defineFind(command: Command, run: Run): void {
  const find = addGlobalOptions(
    addFindOptions(
      command
        .argument("<recipient>", "the phone number, as people write it (below)")
        .argument("[campaignId...]", "where to look (default: the profile's campaigns)"),
    ),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (recipient, campaignIds, raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runFind(recipient, campaignIds, raw, {
      ctx,
      concurrency: () => chosenConcurrency(raw.concurrency, ctx.settings),
    });
  });
  setBriefHelp(find, {
    options: {
      "--country-code": "the country code of a national number (44)",
      ...FILTER_BRIEF_HELP,
      "--json": "a JSON array",
      "--csv": "CSV",
      "--output": OUTPUT_BRIEF_HELP,
    },
    topics: ["many-campaigns", "dates"],
  });
  addHelpSections(
    find,
    { heading: "The number:", text: NUMBER_HELP },
    {
      fullOnly: true,
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
