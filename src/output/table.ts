// The listing table. On a terminal: aligned columns sized to its width from the first page, status in
// colour, long text cut with an ellipsis, rendered a page at a time so a long listing never piles up.
// Piped: tab-separated rows with a header, nothing cut, no colour (the gh convention).
import type { CheckedMessage } from "../api/schemas.js";
import { compileFields, DERIVED_FIELDS, type Field } from "./fields.js";
import type { Chunks } from "./json.js";
import { localTime, type Palette } from "./palette.js";
import { inlineSafe } from "./sanitize.js";
import type { Sink } from "./sink.js";

export interface TableOptions {
  tty: boolean;
  columns: number;
  palette: Palette;
  /** --fields; undefined for the default columns. */
  fields?: readonly Field[];
  batchId?: string;
}

interface Column {
  header: string;
  cell: (message: CheckedMessage) => string;
  /** Narrowest and widest a terminal column is, and whether it is the first to go when space is short. */
  min?: number;
  max: number;
  optional?: boolean;
  status?: boolean;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

function defaultColumns(options: TableOptions): Column[] {
  const [batchId] = compileFields(["batchId"], { batchId: options.batchId });
  const when = (m: CheckedMessage) => (options.tty ? localTime(m.createdAt) : text(m.createdAt));
  return [
    { header: "ID", cell: (m) => m.id, max: 40 },
    { header: "RECIPIENT", cell: (m) => text(m.recipient), max: 16 },
    { header: "STATUS", cell: (m) => text(m.latestStatus), max: 12, status: true },
    { header: "ATTEMPTS", cell: (m) => text(DERIVED_FIELDS.attemptCount!.get(m)), max: 8 },
    { header: "ERROR", cell: (m) => text(DERIVED_FIELDS.lastErrorCode!.get(m)), min: 12, max: 24, optional: true },
    { header: "CREATED", cell: when, max: 25 },
    { header: "BATCH", cell: (m) => text(DERIVED_FIELDS.batchFile!.get(m) ?? batchId!.get(m)), min: 14, max: 26, optional: true },
    { header: "MESSAGE", cell: (m) => text(m.fullMessage), max: Number.POSITIVE_INFINITY, optional: true },
  ];
}

function fieldColumns(fields: readonly Field[]): Column[] {
  return fields.map((field) => ({ header: field.name, cell: (m) => text(field.get(m)), max: 60, status: field.name === "latestStatus" }));
}

export async function renderTable(chunks: Chunks, sink: Sink, options: TableOptions): Promise<number> {
  const columns = options.fields ? fieldColumns(options.fields) : defaultColumns(options);
  return options.tty ? renderForTerminal(chunks, sink, columns, options) : renderPlain(chunks, sink, columns);
}

async function renderPlain(chunks: Chunks, sink: Sink, columns: Column[]): Promise<number> {
  let rows = 0;
  // The header goes out with the first rows (or at the end): a listing that fails first leaves stdout empty.
  let header = columns.map((column) => column.header).join("\t") + "\n";
  for await (const chunk of chunks) {
    let out = header;
    header = "";
    for (const message of chunk) out += columns.map((column) => inlineSafe(column.cell(message))).join("\t") + "\n";
    rows += chunk.length;
    await sink.write(out);
  }
  if (header !== "") await sink.write(header);
  return rows;
}

const GAP = 2;
const ELLIPSIS = "…";

async function renderForTerminal(chunks: Chunks, sink: Sink, columns: Column[], options: TableOptions): Promise<number> {
  const { default: Table } = await import("cli-table3");
  let layout: { shown: Column[]; widths: number[] } | undefined;
  let rows = 0;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const cells = chunk.map((message) => columns.map((column) => inlineSafe(column.cell(message))));
    let head: string[] | undefined;
    if (!layout) {
      layout = fitColumns(columns, cells, options.columns);
      head = layout.shown.map((column) => options.palette.heading(column.header));
    }
    const { shown, widths } = layout;
    const indexes = shown.map((column) => columns.indexOf(column));
    const table = new Table({
      head: head ?? [],
      colWidths: widths.map((width, i) => (i === widths.length - 1 ? width : width + GAP)),
      chars: { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "" },
      style: { "padding-left": 0, "padding-right": 0, head: [], border: [], compact: true },
      truncate: ELLIPSIS,
      wordWrap: false,
    });
    for (const row of cells) {
      table.push(indexes.map((index) => {
        const column = columns[index]!;
        const value = row[index]!;
        return column.status ? options.palette.status(value) : value;
      }));
    }
    rows += chunk.length;
    await sink.write(table.toString().split("\n").map((line) => line.trimEnd()).join("\n") + "\n");
  }
  if (!layout) await sink.write(columns.map((column) => options.palette.heading(column.header)).join("  ") + "\n");
  return rows;
}

/** Column widths from the first page's content, within the terminal; optional columns go first when it is narrow. */
function fitColumns(columns: Column[], rows: string[][], terminalWidth: number): { shown: Column[]; widths: number[] } {
  // Later pages may hold wider values (a batch, an error) than the first: the minimums leave them room.
  const natural = columns.map((column, i) => Math.min(column.max, Math.max(column.min ?? 0, displayWidth(column.header), ...rows.map((row) => displayWidth(row[i]!)))));
  const shown = [...columns];
  const widthOf = () => shown.reduce((sum, column) => sum + natural[columns.indexOf(column)]! + GAP, -GAP);
  const flexible = shown.find((column) => column.max === Number.POSITIVE_INFINITY);
  const fixedWidth = () => shown.filter((column) => column !== flexible).reduce((sum, column) => sum + natural[columns.indexOf(column)]! + GAP, -GAP);
  // Drop optional columns from the right until the rest fits, leaving the flexible one room for a few words.
  const minimumFlexible = 12;
  while (shown.some((column) => column.optional) && (flexible && shown.includes(flexible) ? fixedWidth() + GAP + minimumFlexible : widthOf()) > terminalWidth) {
    const optional = [...shown].reverse().find((column) => column.optional);
    shown.splice(shown.indexOf(optional!), 1);
  }
  const widths = shown.map((column) => natural[columns.indexOf(column)]!);
  if (flexible && shown.includes(flexible)) widths[shown.indexOf(flexible)] = Math.max(minimumFlexible, terminalWidth - fixedWidth() - GAP);
  // Still too wide (a very narrow terminal): the widest columns give way.
  let overflow = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - terminalWidth;
  while (overflow > 0) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 4) break;
    widths[widest]!--;
    overflow--;
  }
  return { shown, widths };
}

/** Terminal cells a string takes: wide East Asian characters and emoji take two, combining marks none. */
export function displayWidth(value: string): number {
  let width = 0;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code === 0x200d || (code >= 0x300 && code <= 0x36f) || (code >= 0xfe00 && code <= 0xfe0f)) continue;
    width += code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1faff) || (code >= 0x20000 && code <= 0x3fffd)) ? 2 : 1;
  }
  return width;
}
