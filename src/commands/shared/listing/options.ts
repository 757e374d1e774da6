// Options of the listing commands (`messages`, `batch`; `stats` reuses the filters): the flags, each
// already checked as it was read, combined into one typed object before anything is sent.
import { UsageError } from "../../../core/errors.js";
import type { TimeZone } from "../../../core/time.js";
import type { Format } from "../output-flags.js";
import type { ListingFlags } from "./flags.js";
import { parseFilterOptions, type FilterOptions } from "../filters.js";
import { formatFor, requireCsv, type FileFormats } from "../output-file.js";
import type { CsvTimes } from "../../../formats/csv.js";

export interface ListingOptions extends FilterOptions {
  /** Infinity for --all. */
  limit: number;
  /** The default --limit applies: the table, without -n or --all (a cut-short note then points at --all). */
  defaultLimit: boolean;
  pageSize: number;
  after?: string;
  before?: string;
  format: Format;
  fields?: string[];
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
  guardFormulas: boolean;
  /** --bom: CSV starts with a UTF-8 byte-order mark. */
  bom: boolean;
  /** --csv-times: CSV timestamps as sent (server) or in --tz (tz). */
  csvTimes: CsvTimes;
  /** --wide: the table leaves no column out and cuts nothing for the terminal's width. */
  wide: boolean;
  /** false for --no-headers (the table, piped or not). */
  headers: boolean;
  /** --follow: after the newest messages, every new one until interrupted; `everyMs` between polls. */
  follow?: { everyMs: number };
}

export const DEFAULT_FOLLOW_RECENT = 10;
export const DEFAULT_FOLLOW_EVERY_MS = 2_000;

export const DEFAULT_LIMIT = 50;

/** The format a flag chose, and the flag (for an error): --format, or one of its shortcuts. */
function chosenFormat(raw: ListingFlags): { format: Format; flag: string } | undefined {
  const chosen = new Map<Format, string>();
  if (raw.format !== undefined) chosen.set(raw.format, `--format ${raw.format}`);
  if (raw.json) chosen.set("json", "--json");
  if (raw.jsonl) chosen.set("jsonl", "--jsonl");
  if (raw.csv) chosen.set("csv", "--csv");
  if (chosen.size > 1) throw new UsageError(`choose one output format, not ${[...chosen.keys()].join(" and ")}`);
  const [first] = chosen;
  return first && { format: first[0], flag: first[1] };
}

// In a file the table is its tab-separated form, so "table" and a .tsv file agree; a name without an
// extension gets it too.
const LISTING_FILES: FileFormats<Format> = {
  types: {
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".tsv": "tsv",
    ".parquet": "parquet",
  },
  fallback: "table",
  compressed: ["parquet"],
  same: (a, b) => a === b || (a === "table" && b === "tsv"),
  advice: "Rename the file, or choose a format with --format (any file name then works).",
};

/**
 * The limit without -n or --all: --follow starts with the newest few; output for programs (--json,
 * --jsonl, --csv, --format tsv, the format -o's extension names, and any file) is read whole, so no
 * row is lost without a word; the default 50 is for the table a person reads.
 */
function limitByDefault(raw: ListingFlags, format: Format): number {
  if (raw.follow) return DEFAULT_FOLLOW_RECENT;
  return format !== "table" || raw.output !== undefined ? Number.POSITIVE_INFINITY : DEFAULT_LIMIT;
}

export function parseListingOptions(raw: ListingFlags, now: number, zone: TimeZone): ListingOptions {
  const filters = parseFilterOptions(raw, now, zone);
  if (raw.after !== undefined && raw.before !== undefined)
    throw new UsageError("--after and --before cannot be used together: page forward or back, not both");
  if (raw.all && raw.limit !== undefined) throw new UsageError("--all and --limit cannot be used together");
  if (raw.every !== undefined && !raw.follow)
    throw new UsageError("--every goes with --follow: add --follow to keep reading new messages");
  if (raw.follow) checkFollow(raw);
  const format = formatFor(raw.output, chosenFormat(raw), LISTING_FILES);
  requireCsv(format, raw.bom ? "--bom" : undefined);
  requireCsv(format, raw.csvTimes === undefined ? undefined : `--csv-times ${raw.csvTimes}`);
  const limit = raw.all ? Number.POSITIVE_INFINITY : (raw.limit ?? limitByDefault(raw, format));
  const filtered =
    filters.statuses !== undefined ||
    filters.since !== undefined ||
    filters.until !== undefined ||
    filters.recipientTest !== undefined;
  const pageSize = raw.pageSize ?? (Number.isFinite(limit) && !filtered ? Math.min(limit, 1000) : 1000);
  const fields = raw.fields
    ?.split(",")
    .map((field) => field.trim())
    .filter((field) => field !== "");
  if (fields !== undefined && fields.length === 0) throw new UsageError("--fields needs at least one field name");
  if (format === "parquet") refuseForParquet(raw);
  return {
    ...filters,
    limit,
    defaultLimit: raw.limit === undefined && Number.isFinite(limit),
    pageSize,
    after: raw.after,
    before: raw.before,
    format,
    fields,
    outputFile: raw.output,
    guardFormulas: raw.formulaGuard !== false,
    bom: raw.bom === true,
    csvTimes: raw.csvTimes ?? "server",
    wide: raw.wide === true,
    headers: raw.headers !== false,
    follow: raw.follow ? { everyMs: raw.every ?? DEFAULT_FOLLOW_EVERY_MS } : undefined,
  };
}

/**
 * Parquet is one whole file of every column: --fields (a reader picks its columns: Parquet is read by
 * column) and --follow (a file that never ends has no footer, so no reader opens it) are refused.
 */
function refuseForParquet(raw: ListingFlags): void {
  if (raw.fields !== undefined)
    throw new UsageError(
      "--fields chooses columns of the table, CSV and JSON; a Parquet file has every column",
    ).withHint(
      "Leave out --fields: a Parquet reader reads only the columns a query names " +
        "(SELECT id, recipient FROM 'm.parquet'). msgstat help parquet lists them.",
    );
  if (raw.follow)
    throw new UsageError("--follow never ends, and a Parquet file is readable only once it is whole").withHint(
      "Use --jsonl with --follow, or leave out --follow.",
    );
}

/** What cannot go with --follow, which starts at the newest message and never ends by itself. */
function checkFollow(raw: ListingFlags): void {
  const clash = raw.all
    ? "--all"
    : raw.after !== undefined
      ? "--after"
      : raw.before !== undefined
        ? "--before"
        : raw.until !== undefined
          ? "--until"
          : undefined;
  if (clash)
    throw new UsageError(
      `--follow cannot be used with ${clash}: it starts at the newest messages and goes on until interrupted`,
    );
  if (raw.since !== undefined && raw.limit !== undefined)
    throw new UsageError("--follow starts with the newest -n messages, or with those --since: not both");
}
