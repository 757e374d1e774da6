// -o: the format a file's extension names, and the one line that says what was written.
import path from "node:path";
import { UsageError } from "../../core/errors.js";

/** The extensions a command writes (lower-case, with the dot), each with the format it names. */
export type FileTypes<F extends string> = Readonly<Record<string, F>>;

const GZIP = ".gz";

/** Whether -o names a gzip-compressed file: its name ends in .gz (`failures.csv.gz`), whatever the case. */
export function isGzipFile(file: string | undefined): boolean {
  return file !== undefined && path.extname(file).toLowerCase() === GZIP;
}

/**
 * A file's extension, lower-cased, when it has one that names a type: a letter after the last dot
 * (`.csv`, `.xlsx`), or before a last `.gz` (`failures.csv.gz` is CSV, gzipped). A name without one
 * (`failures`, `failures.gz`, `/dev/stdout`, a FIFO), or whose last dot is followed by digits
 * (`failures.2026-11-26`, a date a cron job added), has none.
 */
function fileType(file: string): string | undefined {
  const extension = path.extname(isGzipFile(file) ? file.slice(0, -GZIP.length) : file).toLowerCase();
  return /^\.[a-z][a-z0-9]*$/.test(extension) ? extension : undefined;
}

/** What a command writes to a file: its extensions, its format for a name without one, how to choose another. */
export interface FileFormats<F extends string> {
  types: FileTypes<F>;
  fallback: F;
  /** Whether two formats write the same (the table is tab-separated in a file). */
  same?: (a: F, b: F) => boolean;
  /** The hint for an extension the command has no format for: how to choose one. */
  advice: string;
  /** Formats compressed inside (Parquet): a .gz name for one is refused, since gzip would only cost time. */
  compressed?: readonly F[];
}

// A .txt file is any text: a format flag never contradicts it.
const ANY_TEXT = ".txt";

/**
 * The format to write: the one a flag chose, else the one -o's extension names, else the command's
 * default (for a name without an extension). An extension the command has no format for is a usage
 * error, as is a flag that contradicts the extension: `-o m.xlsx` would be tab-separated text Excel
 * will not open, `--csv -o report.json` CSV in a file every tool will read as JSON. A flag wins over
 * an extension it does not know (`--csv -o m.xlsx`).
 */
export function formatFor<F extends string>(
  file: string | undefined,
  chosen: { format: F; flag: string } | undefined,
  formats: FileFormats<F>,
): F {
  const format = formatNamed(file, chosen, formats);
  if (isGzipFile(file) && formats.compressed?.includes(format))
    throw new UsageError(`-o ${file}: ${format} is compressed inside already`).withHint(
      `Leave out .gz: name the file ${file!.slice(0, -GZIP.length)}.`,
    );
  return format;
}

function formatNamed<F extends string>(
  file: string | undefined,
  chosen: { format: F; flag: string } | undefined,
  { types, fallback, same = (a, b) => a === b, advice }: FileFormats<F>,
): F {
  const extension = file === undefined ? undefined : fileType(file);
  if (extension === undefined) return chosen?.format ?? fallback;
  // As the user wrote it, for the error lines: .xlsx, or .xlsx.gz.
  const written = isGzipFile(file) ? extension + GZIP : extension;
  const implied = Object.hasOwn(types, extension) ? types[extension] : undefined;
  if (implied === undefined) {
    if (chosen) return chosen.format;
    throw new UsageError(`-o ${file}: no format for ${written} files; known: ${listOf(Object.keys(types))}`).withHint(
      advice,
    );
  }
  if (chosen && !same(chosen.format, implied) && extension !== ANY_TEXT) {
    throw new UsageError(`${chosen.flag} contradicts -o ${file}: a ${written} file is ${implied}`).withHint(
      `Leave out ${chosen.flag} (the extension sets the format), or name the file for ${chosen.format}.`,
    );
  }
  return chosen?.format ?? implied;
}

const listOf = (items: readonly string[]) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;

/** A CSV-only flag with another format would do nothing: refused, rather than silently ignored. */
export function requireCsv(format: string, flag: string | undefined): void {
  if (flag !== undefined && format !== "csv")
    throw new UsageError(`${flag} is for CSV: add --csv, or write to a .csv file with -o`);
}
