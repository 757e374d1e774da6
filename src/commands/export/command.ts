// `msgstat export <campaignId...> --to <dir>`: every message of the campaigns as a Hive-partitioned
// dataset of Parquet (or gzipped JSONL) files that a second run brings up to date (docs/export.md).
import type { Command } from "@commander-js/extra-typings";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { campaignIdsOrProfile } from "../shared/campaign-ids.js";
import { chosenConcurrency } from "../shared/concurrency.js";
import { addHelpSections, setBriefHelp } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { addExportOptions } from "./flags.js";
import { runExport } from "./run.js";

const DATASET_HELP =
  "<dir>/campaign_id=<id>/created_date=<YYYY-MM-DD>/messages.parquet, the date that of createdAt in " +
  "UTC: one table for DuckDB (read_parquet('<dir>/**/*.parquet', hive_partitioning = true)), Spark, " +
  "Trino or BigQuery. Each run reads every message of each campaign; a partition whose messages did not " +
  "change keeps its file untouched, a changed one is replaced whole by a rename, and a run killed at any " +
  "point leaves every message in exactly one file. <dir>/msgstat-export.json records the runs.";

export function defineExport(command: Command, run: Run): void {
  const exporter = addGlobalOptions(
    addExportOptions(command.argument("[campaignId...]", "the campaigns (default: the profile's campaigns)")),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (named, raw, cmd) => {
    const ctx = contextFor(cmd, run);
    const campaignIds = await campaignIdsOrProfile(named, raw.campaignsFile, ctx, ctx.settings.profile(), {
      need: "export needs the campaigns to export",
      example: "msgstat export cmp-a cmp-b --to <dir>",
    });
    await runExport(
      campaignIds,
      {
        dir: raw.to,
        format: raw.format,
        concurrency: chosenConcurrency(raw.concurrency, ctx.settings),
        msgstatVersion: run.version,
      },
      ctx,
    );
  });
  setBriefHelp(exporter, {
    options: {
      "--to": "",
      "--format": "parquet, or jsonl.gz",
      "--campaigns-file": "more campaign ids, one a line; - reads stdin",
      "--concurrency": "how many campaigns are read at once (default: 4)",
    },
    topics: ["export", "many-campaigns"],
  });
  addHelpSections(
    exporter,
    { heading: "The dataset:", text: DATASET_HELP, fullOnly: true },
    {
      heading: "Examples:",
      examples: [
        { command: "msgstat export cmp-spring-sale cmp-loyalty-es --to warehouse/messages" },
        { command: "msgstat config set campaigns cmp-spring-sale,cmp-loyalty-es,cmp-otp-alerts" },
        {
          command: "msgstat export --to warehouse/messages --quiet",
          comment: "nightly, from cron: the profile's campaigns; only what changed is written again",
        },
        { command: "msgstat export cmp-spring-sale --to bulk --format jsonl.gz" },
      ],
    },
  );
}
