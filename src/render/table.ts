// The listing table. On a terminal: aligned columns sized to its width from the first page, status in
// colour, long text cut with an ellipsis, rendered a page at a time so a long listing never piles up.
// Piped: tab-separated rows with a header, nothing cut, no colour (the gh convention).
import { attemptCount, batchFileOf, batchIdOf, newestFailedAttempt } from "../core/attempts.js";
import { MESSAGE, read, type CheckedMessage } from "../core/message.js";
import type { Field } from "./fields.js";
import type { Chunks } from "./chunks.js";
import { localTime, type Palette } from "./palette.js";
import { displayWidth, inlineSafe } from "../core/text.js";
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
  /** Widest a terminal column grows; Infinity for the one that takes what is left. */
  max: number;
  /**
   * Columns a narrow terminal may go without, kept in rank order (1 first) at `min` width or more.
   * Unranked columns are always shown.
   */
  rank?: number;
  min?: number;
  status?: boolean;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

function defaultColumns(options: TableOptions): Column[] {
  const when = (m: CheckedMessage) => (options.tty ? localTime(read(MESSAGE, m, "createdAt")) : text(read(MESSAGE, m, "createdAt")));
  return [
    { header: "ID", cell: (m) => m.id, max: 40 },
    { header: "RECIPIENT", cell: (m) => text(read(MESSAGE, m, "recipient")), max: 16 },
    { header: "STATUS", cell: (m) => text(read(MESSAGE, m, "latestStatus")), max: 12, status: true },
    { header: "TRIES", cell: (m) => text(attemptCount(m)), max: 5, rank: 2, min: 5 },
    // Why a message failed matters more at a glance than how often it was tried or where it came from.
    { header: "ERROR", cell: (m) => text(newestFailedAttempt(m)?.errorCode), max: 24, rank: 1, min: 12 },
    { header: "CREATED", cell: when, max: 25 },
    { header: "BATCH", cell: (m) => text(batchFileOf(m) ?? batchIdOf(m, options.batchId)), max: 26, rank: 3, min: 12 },
    { header: "MESSAGE", cell: (m) => text(read(MESSAGE, m, "fullMessage")), max: Number.POSITIVE_INFINITY, rank: 4, min: 12 },
  ];
}

function fieldColumns(fields: readonly Field[]): Column[] {
  return fields.map((field) => ({ header: field.name, cell: (m) => text(field.get(m)), max: 60, status: field.name === "latestStatus" }));
}

export async function renderTable(chunks: Chunks, sink: Sink, options: TableOptions): Promise<void> {
  const columns = options.fields ? fieldColumns(options.fields) : defaultColumns(options);
  return options.tty ? renderForTerminal(chunks, sink, columns, options) : renderPlain(chunks, sink, columns);
}

async function renderPlain(chunks: Chunks, sink: Sink, columns: Column[]): Promise<void> {
  // The header goes out with the first rows (or at the end): a listing that fails first leaves stdout empty.
  let header = columns.map((column) => column.header).join("\t") + "\n";
  for await (const chunk of chunks) {
    for (const message of chunk) {
      const flushing = sink.write(header + columns.map((column) => inlineSafe(column.cell(message))).join("\t") + "\n");
      header = "";
      if (flushing) await flushing;
    }
  }
  if (header !== "") await sink.write(header);
}

const GAP = 2;
const ELLIPSIS = "…";

async function renderForTerminal(chunks: Chunks, sink: Sink, columns: Column[], options: TableOptions): Promise<void> {
  const { default: Table } = await import("cli-table3");
  let layout: { shown: Column[]; widths: number[] } | undefined;
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
      // The gap is padding, not width: cli-table3 cuts text to the width less the padding, so a cut cell keeps its gap.
      colWidths: widths.map((width) => width + GAP),
      chars: { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "" },
      style: { "padding-left": 0, "padding-right": GAP, head: [], border: [], compact: true },
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
    await sink.write(table.toString().split("\n").map((line) => line.trimEnd()).join("\n") + "\n");
  }
  if (!layout) await sink.write(columns.map((column) => options.palette.heading(column.header)).join("  ") + "\n");
}

/**
 * Column widths from the first page's content, within the terminal. Unranked columns always show; ranked
 * ones join in rank order while they fit at their minimum, then grow toward their content in the same
 * order, and the open-ended one (the message text) takes what is left.
 */
function fitColumns(columns: Column[], rows: string[][], terminalWidth: number): { shown: Column[]; widths: number[] } {
  const natural = columns.map((column, i) => Math.min(column.max, Math.max(column.min ?? 0, displayWidth(column.header), ...rows.map((row) => displayWidth(row[i]!)))));
  const width = new Map<Column, number>();
  for (const [i, column] of columns.entries()) if (column.rank === undefined) width.set(column, natural[i]!);
  const used = () => [...width.values()].reduce((sum, w) => sum + w + GAP, -GAP);
  const ranked = columns.filter((column) => column.rank !== undefined).sort((a, b) => a.rank! - b.rank!);
  for (const column of ranked) {
    if (used() + GAP + column.min! <= terminalWidth) width.set(column, column.min!);
  }
  for (const column of ranked) {
    const current = width.get(column);
    if (current === undefined) continue;
    const target = column.max === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : natural[columns.indexOf(column)]!;
    width.set(column, current + Math.max(0, Math.min(target - current, terminalWidth - used())));
  }
  shrinkToFit(width, terminalWidth, used);
  const shown = columns.filter((column) => width.has(column));
  return { shown, widths: shown.map((column) => width.get(column)!) };
}

/** A terminal narrower than the columns that always show: the widest give way, down to a few cells. */
function shrinkToFit(width: Map<Column, number>, terminalWidth: number, used: () => number): void {
  let overflow = used() - terminalWidth;
  while (overflow > 0) {
    const [widest, cells] = [...width.entries()].reduce((a, b) => (b[1] > a[1] ? b : a));
    if (cells <= 4) break;
    width.set(widest, cells - 1);
    overflow--;
  }
}
