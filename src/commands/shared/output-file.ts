// -o: the format a file's extension names, and the one line that says what was written.
import path from "node:path";
import { UsageError } from "../../core/errors.js";
import { countText } from "../../core/numbers.js";

const EXTENSION_FORMATS: Readonly<Record<string, string>> = {
  ".csv": "csv",
  ".json": "json",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".tsv": "tsv",
};

/** The format -o's extension names (csv, json, jsonl, tsv), if it names one. */
export function extensionFormat(file: string | undefined): string | undefined {
  return file === undefined ? undefined : EXTENSION_FORMATS[path.extname(file).toLowerCase()];
}

/**
 * The format to write: the one a flag chose, else the one -o's extension names (among those the
 * command writes), else the command's default. A flag that contradicts the extension is a usage error:
 * `--csv -o report.json` would leave CSV in a file every tool will read as JSON.
 */
export function formatFor<F extends string>(
  file: string | undefined,
  chosen: { format: F; flag: string } | undefined,
  writes: readonly F[],
  fallback: F,
  same: (a: F, b: F) => boolean = (a, b) => a === b,
): F {
  const named = extensionFormat(file) as F | undefined;
  const implied = named !== undefined && writes.includes(named) ? named : undefined;
  if (chosen && implied && !same(chosen.format, implied)) {
    throw new UsageError(`${chosen.flag} contradicts -o ${file}: a ${path.extname(file!)} file is ${implied}`).withHint(
      `Leave out ${chosen.flag} (the extension sets the format), or name the file for ${chosen.format}.`,
    );
  }
  return chosen?.format ?? implied ?? fallback;
}

export const count = (n: number, one: string, many = `${one}s`) => `${countText(n)} ${n === 1 ? one : many}`;

/** A CSV-only flag with another format would do nothing: refused, rather than silently ignored. */
export function requireCsv(format: string, flag: string | undefined): void {
  if (flag !== undefined && format !== "csv")
    throw new UsageError(`${flag} is for CSV: add --csv, or write to a .csv file with -o`);
}
