// `msgstat stats <campaignId> [--batch <batchId>]`: a delivery report of a campaign or one batch of it.
import { Command, Option } from "commander";
import { requireId } from "../shared/arguments.js";
import { addFilterOptions } from "../shared/filters.js";
import type { CommandSetup } from "../shared/setup.js";
import type { RawStatsOptions } from "./options.js";

const REPORT_HELP = `
The report: messages counted, their createdAt span and attempts; messages by latestStatus; the
delivery rate (success over the messages in a final state: success or failure; created and any
other status are not final yet); failures by the error of their latest failed attempt; attempts
per message; each batch (campaign stats only); messages and failures per hour or day of --tz.
--json gives the same figures as data (see docs/stats.md); --csv --by gives one of the tables.

Examples:
  msgstat stats cmp-spring-sale
  msgstat stats cmp-spring-sale --batch bat-spring-w1
  msgstat stats cmp-spring-sale --since 7d --interval day
  msgstat stats cmp-spring-sale --csv --by error > errors.csv
  msgstat stats cmp-spring-sale --since 1h --max-failure-rate 5 --json   # exit 5 above 5%`;

export function statsCommand(setup: CommandSetup): Command {
  const command = new Command("stats")
    .description("a delivery report of a campaign, or of one batch: statuses, delivery rate, errors, attempts, batches, over time")
    .argument("<campaignId>", "the campaign");
  addFilterOptions(setup.withGlobals(command))
    .option("--batch <batchId>", "report on this batch of the campaign only")
    .addOption(new Option("--interval <unit>", "messages over time per hour or per day (default: hour for up to two days, else day)").choices(["hour", "day"]))
    .option("--max-failure-rate <percent>", "exit 5, after the report, when failures are more than this percent of the final messages")
    .option("--json", "the report as JSON (structure in docs/stats.md)")
    .option("--csv", "one table of the report as CSV: choose it with --by")
    .addOption(new Option("--by <table>", "the table --csv writes").choices(["status", "error", "batch", "attempts", "time"]))
    .option("-o, --output <file>", "write the report to this file (atomically) instead of stdout")
    .addHelpText("after", REPORT_HELP)
    .action(async (campaignId: string, raw: RawStatsOptions, cmd: Command) => {
      const ctx = setup.context(cmd);
      const [{ parseStatsOptions }, { runStats }] = await Promise.all([import("./options.js"), import("./run.js")]);
      requireId("campaignId", campaignId);
      if (raw.batch !== undefined) requireId("batchId", raw.batch);
      await runStats({ campaignId, batchId: raw.batch }, parseStatsOptions(raw, ctx.now(), ctx.timeZone), ctx);
    });
  return command;
}
