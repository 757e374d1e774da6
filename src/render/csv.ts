// CSV as RFC 4180 describes it (CRLF line ends, quotes doubled, embedded newlines kept inside quotes),
// with the OWASP guard against formula injection on by default: a cell a spreadsheet would run as a
// formula gets a leading apostrophe.
import { jsonText } from "../core/json-text.js";
import type { Field } from "./fields.js";
import type { Sink } from "./sink.js";
import type { Chunks } from "./chunks.js";

const NEEDS_QUOTES = /[",\r\n]/;

/** = + - @ tab CR: what a spreadsheet may run as a formula when a cell starts with it. */
function startsFormula(text: string): boolean {
  const code = text.charCodeAt(0);
  return code === 0x3d || code === 0x2b || code === 0x2d || code === 0x40 || code === 0x09 || code === 0x0d;
}

export function csvCell(value: unknown, guardFormulas: boolean): string {
  let text: string;
  if (value === undefined || value === null) return "";
  else if (typeof value === "string") text = value;
  else if (typeof value === "object") text = jsonText(value);
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

export async function renderCsv(
  chunks: Chunks,
  sink: Sink,
  options: { fields: readonly Field[]; guardFormulas: boolean },
): Promise<void> {
  const { fields, guardFormulas } = options;
  // The header goes out with the first rows (or at the end of an empty listing), so a listing that
  // fails before any message leaves stdout empty rather than a header that looks like an empty result.
  let header = csvRow(
    fields.map((field) => field.name),
    false,
  );
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const flushing = sink.write(header + csvLine(fields.length, (i) => fields[i]!.get(message), guardFormulas));
      header = "";
      if (flushing) await flushing;
    }
  }
  if (header !== "") await sink.write(header);
}
