// CSV as RFC 4180 describes it (CRLF line ends, quotes doubled, embedded newlines kept inside quotes),
// with the OWASP guard against formula injection on by default: a cell a spreadsheet would run as a
// formula gets a leading apostrophe.
import { stringifyAtAnyDepth } from "../core/json-stringify.js";
import { instantOf, isoInZone, TimeZone } from "../core/time.js";
import type { Field } from "./fields.js";
import type { Sink } from "../output/sink.js";
import type { Chunks } from "./chunks.js";

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * --bom: a UTF-8 byte-order mark before the header. Excel opens a CSV without one in the system's legacy
 * code page, so "Chloé" reads "ChloÃ©"; with it, as UTF-8. Off by default: most programs read UTF-8 as
 * it is, and some (older awk, a shell `read`) would take the mark for part of the first column's name.
 */
export const BYTE_ORDER_MARK = "\ufeff";

/**
 * How CSV writes timestamps: the service's exact text, converted to the --tz zone (ISO 8601 with its offset), or
 * in UTC (`...Z`), whose text sorts in time order even when campaigns of different offsets are merged.
 */
export const CSV_TIMES = ["server", "tz", "utc"] as const;
export type CsvTimes = (typeof CSV_TIMES)[number];

/** The fields with their timestamps as --csv-times asks (`zone`: --tz, for `tz`). */
export function csvTimeFields(fields: readonly Field[], times: CsvTimes, zone: TimeZone): readonly Field[] {
  if (times === "server") return fields;
  return fieldsInZone(fields, times === "utc" ? TimeZone.named("UTC")! : zone);
}

/**
 * The fields with their timestamps in the zone (`2026-11-22T09:30:00.000+01:00`): for --csv-times tz. A
 * value that is not a readable time is written as it was sent, so nothing the service said is lost.
 */
export function fieldsInZone(fields: readonly Field[], zone: TimeZone): Field[] {
  return fields.map((field) => {
    if (!field.time) return field;
    const get = field.get;
    return {
      ...field,
      get: (message) => {
        const value = get(message);
        const at = instantOf(value);
        return at === undefined ? value : isoInZone(at, zone);
      },
    };
  });
}

/** = + - @ tab CR: what a spreadsheet may run as a formula when a cell starts with it. */
function startsFormula(text: string): boolean {
  const code = text.charCodeAt(0);
  return code === 0x3d || code === 0x2b || code === 0x2d || code === 0x40 || code === 0x09 || code === 0x0d;
}

export function csvCell(value: unknown, guardFormulas: boolean): string {
  let text: string;
  if (value === undefined || value === null) return "";
  else if (typeof value === "string") text = value;
  else if (typeof value === "object") text = stringifyAtAnyDepth(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what JSON leaves here: a number or a boolean
  else text = String(value);
  if (guardFormulas && startsFormula(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record from `count` cells read by index, so a row needs no array of its own. */
function csvLine(count: number, cellAt: (index: number) => unknown, guardFormulas: boolean): string {
  let line = "";
  for (let i = 0; i < count; i++) line += (i === 0 ? "" : ",") + csvCell(cellAt(i), guardFormulas);
  return line + "\r\n";
}

export function csvRow(cells: readonly unknown[], guardFormulas: boolean): string {
  return csvLine(cells.length, (i) => cells[i], guardFormulas);
}

export async function renderCsv<R>(
  chunks: Chunks<R>,
  sink: Sink,
  options: { fields: ReadonlyArray<Field<R>>; guardFormulas: boolean; bom?: boolean },
): Promise<void> {
  const { fields, guardFormulas } = options;
  // The header goes out with the first rows (or at the end of an empty listing), so a listing that
  // fails before any message leaves stdout empty rather than a header that looks like an empty result.
  let header =
    (options.bom ? BYTE_ORDER_MARK : "") +
    csvRow(
      fields.map((field) => field.name),
      false,
    );
  for await (const chunk of chunks) {
    for (const row of chunk) {
      const flushing = sink.write(header + csvLine(fields.length, (i) => fields[i]!.get(row), guardFormulas));
      header = "";
      if (flushing) await flushing;
    }
  }
  if (header !== "") await sink.write(header);
}
