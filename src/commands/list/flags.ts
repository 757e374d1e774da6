// Flags of the listing commands, for commander. Kept apart from their validation (options.ts, zod)
// so that `--help` loads commander alone.
import { Option, type Command } from "commander";
import { addFilterOptions } from "../shared/filters.js";

export const FORMATS = ["table", "json", "jsonl", "csv"] as const;
export type Format = (typeof FORMATS)[number];

export function addListingOptions(command: Command): Command {
  return addFilterOptions(command)
    .option("-n, --limit <n>", "print at most n messages (default: 50)")
    .option("--all", "print every message (no --limit)")
    .option("--page-size <n>", "messages per request, 1 to 1000 (default: --limit up to 1000; 1000 with --all or filters)")
    .option("--after <cursor>", "start after this cursor (as printed when a listing is cut short)")
    .option("--before <cursor>", "the messages just before this cursor, newest first")
    .addOption(new Option("--format <format>", "output format").choices(FORMATS))
    .option("--json", "shortcut for --format json")
    .option("--jsonl", "shortcut for --format jsonl")
    .option("--csv", "shortcut for --format csv")
    .option("--fields <list>", "comma-separated fields: columns of table and CSV, keys of JSON (see below)")
    .option("-o, --output <file>", "write to this file (atomically) instead of stdout")
    .option("--wide", "table: every column, nothing cut, whatever the terminal's width")
    .option("--no-headers", "table: no header line (piped: rows only)")
    .option("--no-formula-guard", "CSV: do not prefix cells that start with = + - @ tab or CR (spreadsheet formula guard)");
}

