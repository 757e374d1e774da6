// Options of the listing commands (`messages`, `batch`; `stats` reuses the filters), validated into
// one typed object before anything is sent.
import { z } from "zod";
import { UsageError } from "../../core/errors.js";
import type { TimeZone } from "../../core/time.js";
import { outputPath } from "../shared/arguments.js";
import type { Format } from "./flags.js";
import { parseFilterOptions, type FilterOptions, type RawFilterOptions } from "../shared/filters.js";

export interface RawListingOptions extends RawFilterOptions {
  limit?: string;
  all?: boolean;
  pageSize?: string;
  after?: string;
  before?: string;
  format?: string;
  json?: boolean;
  jsonl?: boolean;
  csv?: boolean;
  fields?: string;
  output?: string;
  formulaGuard?: boolean;
  wide?: boolean;
  headers?: boolean;
}

export interface ListingOptions extends FilterOptions {
  /** Infinity for --all. */
  limit: number;
  pageSize: number;
  after?: string;
  before?: string;
  format: Format;
  fields?: string[];
  output?: string;
  guardFormulas: boolean;
  /** --wide: the table leaves no column out and cuts nothing for the terminal's width. */
  wide: boolean;
  /** false for --no-headers (the table, piped or not). */
  headers: boolean;
}

const positiveInt = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1));
const pageSize = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(1000));

function chosenFormat(raw: RawListingOptions): Format {
  const chosen = new Set<Format>();
  if (raw.format !== undefined) chosen.add(raw.format as Format);
  if (raw.json) chosen.add("json");
  if (raw.jsonl) chosen.add("jsonl");
  if (raw.csv) chosen.add("csv");
  if (chosen.size > 1) throw new UsageError(`choose one output format, not ${[...chosen].join(" and ")}`);
  return [...chosen][0] ?? "table";
}

export function parseListingOptions(raw: RawListingOptions, now: number, zone: TimeZone): ListingOptions {
  const filters = parseFilterOptions(raw, now, zone);
  if (raw.after !== undefined && raw.before !== undefined) throw new UsageError("--after and --before cannot be used together: page forward or back, not both");
  for (const name of ["after", "before"] as const) {
    if (raw[name] !== undefined && raw[name].trim() === "") throw new UsageError(`--${name} needs a cursor`);
  }
  if (raw.all && raw.limit !== undefined) throw new UsageError("--all and --limit cannot be used together");
  let limit = Number.POSITIVE_INFINITY;
  if (!raw.all) {
    const parsed = positiveInt.safeParse(raw.limit ?? "50");
    if (!parsed.success) throw new UsageError(`--limit must be a whole number of at least 1, not "${raw.limit}"`);
    limit = parsed.data;
  }
  const filtered = filters.statuses !== undefined || filters.since !== undefined || filters.until !== undefined;
  let size = Number.isFinite(limit) && !filtered ? Math.min(limit, 1000) : 1000;
  if (raw.pageSize !== undefined) {
    const parsed = pageSize.safeParse(raw.pageSize);
    if (!parsed.success) throw new UsageError(`--page-size must be a whole number from 1 to 1000 (the API's limit), not "${raw.pageSize}"`);
    size = parsed.data;
  }
  const fields = raw.fields?.split(",").map((field) => field.trim()).filter((field) => field !== "");
  if (fields !== undefined && fields.length === 0) throw new UsageError("--fields needs at least one field name");
  return {
    ...filters,
    limit,
    pageSize: size,
    after: raw.after,
    before: raw.before,
    format: chosenFormat(raw),
    fields,
    output: outputPath(raw.output),
    guardFormulas: raw.formulaGuard !== false,
    wide: raw.wide === true,
    headers: raw.headers !== false,
  };
}
