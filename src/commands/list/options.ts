// Options of the listing commands (`messages`, `batch`; `stats` reuses the filters), validated into
// one typed object before anything is sent.
import { z } from "zod";
import { KNOWN_MESSAGE_STATUSES } from "../../api/schemas.js";
import { UsageError } from "../../errors.js";
import { outputPath } from "../arguments.js";
import { parseTimeBound } from "../../listing/time.js";
import type { Format } from "./flags.js";

export interface RawFilterOptions {
  search?: string;
  status?: string[];
  since?: string;
  until?: string;
}

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
}

export interface FilterOptions {
  search?: string;
  statuses?: Set<string>;
  since?: number;
  until?: number;
  /** Warnings for a person (statuses not seen in the reference), printed by the run function. */
  warnings: string[];
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
}

/** Characters that only format a phone number; the API matches digits. */
export function normaliseSearch(text: string): string {
  // Formatting first, so a "+" inside brackets, as in "(+44) 7700", is leading once they are gone.
  return text.trim().replace(/[\s\-.()]/g, "").replace(/^\+/, "");
}

const positiveInt = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1));
const pageSize = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(1000));

export function parseFilterOptions(raw: RawFilterOptions, now: number): FilterOptions {
  const warnings: string[] = [];
  const options: FilterOptions = { warnings };
  if (raw.search !== undefined) {
    const search = normaliseSearch(raw.search);
    if (search === "") throw new UsageError(`--search "${raw.search}" has nothing left to search for once formatting is dropped`);
    options.search = search;
  }
  if (raw.status !== undefined) {
    const statuses = raw.status.flatMap((value) => value.split(",")).map((value) => value.trim()).filter((value) => value !== "");
    if (statuses.length === 0) throw new UsageError("--status needs at least one status, e.g. --status failure");
    const known: readonly string[] = KNOWN_MESSAGE_STATUSES;
    for (const status of statuses) {
      if (!known.includes(status)) warnings.push(`--status ${status}: not a status the service is known to send (${known.join(", ")}); filtering on it anyway`);
    }
    options.statuses = new Set(statuses);
  }
  for (const bound of ["since", "until"] as const) {
    const text = raw[bound];
    if (text === undefined) continue;
    const at = parseTimeBound(text, bound, now);
    if (at === undefined) throw new UsageError(`--${bound} "${text}" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00) or a duration (90m, 24h, 7d)`);
    options[bound] = at;
  }
  if (options.since !== undefined && options.until !== undefined && options.since > options.until) {
    throw new UsageError("--since is after --until: no message could match");
  }
  return options;
}

function chosenFormat(raw: RawListingOptions): Format {
  const chosen = new Set<Format>();
  if (raw.format !== undefined) chosen.add(raw.format as Format);
  if (raw.json) chosen.add("json");
  if (raw.jsonl) chosen.add("jsonl");
  if (raw.csv) chosen.add("csv");
  if (chosen.size > 1) throw new UsageError(`choose one output format, not ${[...chosen].join(" and ")}`);
  return [...chosen][0] ?? "table";
}

export function parseListingOptions(raw: RawListingOptions, now: number): ListingOptions {
  const filters = parseFilterOptions(raw, now);
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
  };
}
