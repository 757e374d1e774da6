// The listing table. On a terminal: columns fitted to its width page by page, for people who copy ids
// out of it: ids and recipients are never cut, the error code is kept before batch and text, a column
// with nothing in it is left out, times are in --tz with the zone in the header, status in colour.
// Widths only grow: a later page with a longer value widens its column, and the header is printed
// again above it. Piped: tab-separated rows under a header, every value whole and as the server wrote
// it (times included), no colour (the gh convention).
import { attemptCount, batchFileOf, batchIdOf, newestFailedAttempt } from "../core/attempts.js";
import { jsonText } from "../core/json-text.js";
import { MESSAGE, read, type CheckedMessage } from "../core/message.js";
import { displayWidth, inlineSafe } from "../core/text.js";
import { timestampInZone, type TimeZone } from "../core/time.js";
import type { Field } from "./fields.js";
import type { Chunks } from "./chunks.js";
import type { Palette } from "./palette.js";
import type { Sink } from "./sink.js";

export interface TableOptions {
  tty: boolean;
  columns: number;
  palette: Palette;
  /** --fields; undefined for the default columns. */
  fields?: readonly Field[];
  batchId?: string;
  timeZone: TimeZone;
  /** --wide: every column, none cut, whatever the width. */
  wide: boolean;
  /** false for --no-headers. */
  headers: boolean;
}

/** One way of showing a column: header lines, and what becomes of its text. */
interface Form {
  header: string[];
  shown: (text: string) => string;
}

interface Column {
  /** The header when piped, and on a terminal unless `forms` say otherwise. */
  header: string;
  /** The text on a terminal. */
  cell: (message: CheckedMessage) => string;
  /** The text when piped, where it differs (times as the server wrote them). */
  plain?: (message: CheckedMessage) => string;
  /** Copied into the next command: never cut, whatever the width (ids, recipients). */
  key?: boolean;
  /** Columns a narrower terminal may go without, kept in rank order (1 first). Unranked ones always show. */
  rank?: number;
  /** Widest a column grows on a terminal (its text is cut past it); keys have none. */
  max?: number;
  /** Narrowest a column may be cut to; without it, a column too wide for the room is left out instead. */
  min?: number;
  /** Narrower forms to try, in order, before leaving the column out (times: the zone under the name, no year). */
  forms?: Form[];
  status?: boolean;
  /** Left out while it has had nothing to show (default columns; --fields shows what was asked for). */
  optional?: boolean;
}

const WHOLE: Form = { header: [], shown: (text) => text };

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what JSON leaves here: a number or a boolean
  return typeof value === "string" ? value : typeof value === "object" ? jsonText(value) : String(value);
}

/** What people copy into the next command: `id`, `recipient`, `batchId`, `messageAttempts.0.id`. */
const isKeyName = (name: string) => name === "recipient" || /(^|\.)id$/.test(name) || /Id$/.test(name);

/** `2026-11-22 03:36` in the zone; narrower: the zone under the name, then without the year. */
function timeForms(name: string, zone: TimeZone): Form[] {
  const withoutYear = (value: string) => (/^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(value) ? value.slice(5) : value);
  const city = zone.name.slice(zone.name.lastIndexOf("/") + 1);
  const forms: Form[] = [
    { header: [`${name} (${zone.name})`], shown: WHOLE.shown },
    { header: [name, zone.name], shown: WHOLE.shown },
    { header: [name, zone.name], shown: withoutYear },
  ];
  if (city !== zone.name) forms.push({ header: [name, city], shown: withoutYear });
  return forms;
}

/**
 * The column with its time forms made when first asked for: their headers name the zone, and looking the
 * zone up starts ICU (core/time.ts). The piped table never asks; on a terminal the table asks while its
 * first page is on its way, not before the request for it leaves.
 */
function withTimeForms(column: Column, name: string, zone: TimeZone): Column {
  let forms: Form[] | undefined;
  return Object.defineProperty(column, "forms", { get: () => (forms ??= timeForms(name, zone)), enumerable: true });
}

function defaultColumns(options: TableOptions): Column[] {
  const createdAt = (m: CheckedMessage) => read(MESSAGE, m, "createdAt");
  return [
    { header: "ID", cell: (m) => m.id, key: true },
    { header: "RECIPIENT", cell: (m) => text(read(MESSAGE, m, "recipient")), key: true },
    { header: "STATUS", cell: (m) => text(read(MESSAGE, m, "latestStatus")), max: 12, min: 4, status: true },
    { header: "TRIES", cell: (m) => text(attemptCount(m)), max: 5, rank: 3, optional: true },
    // Why a message failed matters more at a glance than when, how often it was tried or where it came from.
    {
      header: "ERROR",
      cell: (m) => text(newestFailedAttempt(m)?.errorCode),
      max: 32,
      min: 12,
      rank: 1,
      optional: true,
    },
    withTimeForms(
      {
        header: "CREATED",
        cell: (m) => timestampInZone(createdAt(m), options.timeZone),
        plain: (m) => text(createdAt(m)),
        max: 25,
        rank: 2,
        optional: true,
      },
      "CREATED",
      options.timeZone,
    ),
    // The batch id in both listings, so it can be copied from one into the other; the file name beside it.
    { header: "BATCH", cell: (m) => text(batchIdOf(m, options.batchId)), key: true, rank: 4, optional: true },
    { header: "FILE", cell: (m) => text(batchFileOf(m)), max: 30, min: 12, rank: 5, optional: true },
    {
      header: "MESSAGE",
      cell: (m) => text(read(MESSAGE, m, "fullMessage")),
      max: Number.POSITIVE_INFINITY,
      min: 12,
      rank: 6,
      optional: true,
    },
  ];
}

function fieldColumns(fields: readonly Field[], zone: TimeZone): Column[] {
  return fields.map((field): Column => {
    const value = (m: CheckedMessage) => text(field.get(m));
    if (isKeyName(field.name)) return { header: field.name, cell: value, key: true };
    if (field.time)
      return withTimeForms(
        {
          header: field.name,
          cell: (m) => timestampInZone(text(field.get(m)) || undefined, zone),
          plain: value,
          max: 25,
          min: 4,
        },
        field.name,
        zone,
      );
    return { header: field.name, cell: value, max: 60, min: 4, status: field.name === "latestStatus" };
  });
}

export async function renderTable(chunks: Chunks, sink: Sink, options: TableOptions): Promise<void> {
  const columns = options.fields ? fieldColumns(options.fields, options.timeZone) : defaultColumns(options);
  return options.tty
    ? renderForTerminal(chunks, sink, columns, options)
    : renderPlain(chunks, sink, columns, options.headers);
}

async function renderPlain(chunks: Chunks, sink: Sink, columns: Column[], headers: boolean): Promise<void> {
  // The header goes out with the first rows (or at the end): a listing that fails first leaves stdout empty.
  let header = headers ? columns.map((column) => column.header).join("\t") + "\n" : "";
  const cells = columns.map((column) => column.plain ?? column.cell);
  for await (const chunk of chunks) {
    for (const message of chunk) {
      let row = header;
      for (let c = 0; c < cells.length; c++) row += (c === 0 ? "" : "\t") + inlineSafe(cells[c]!(message));
      const flushing = sink.write(row + "\n");
      header = "";
      if (flushing) await flushing;
    }
  }
  if (header !== "") await sink.write(header);
}

const GAP = 2;
const ELLIPSIS = "…";
// cli-table3 lays a table out in time quadratic in its rows (every cell is checked against the rows
// above it for spans): a 1000-row page drawn as one table took about 0.3 ms a row, in slices of 50
// about half that. A page's first slice is smaller still: its rows show while the rest is drawn, and
// the first page's is drawn by code not yet compiled (about 1.5 ms a row in a fresh process).
const ROWS_PER_TABLE = 50;
const ROWS_FIRST = 10;
const NO_BORDERS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "",
};

/** A column as placed: its form and its width. */
interface Placed {
  index: number;
  form: number;
  width: number;
}

/** What the pages so far hold, per column: whether anything at all, and how wide each form is. */
class Measures {
  readonly seen: boolean[];
  readonly widths: number[][];
  private readonly headers: number[][];

  constructor(private readonly columns: Column[]) {
    this.seen = columns.map(() => false);
    this.headers = columns.map((column) =>
      formsOf(column).map((form) => Math.max(...headerOf(column, form).map(displayWidth))),
    );
    this.widths = this.headers.map((widths) => [...widths]);
  }

  add(rows: string[][]): void {
    this.columns.forEach((column, c) => {
      const forms = formsOf(column);
      for (const row of rows) {
        const value = row[c]!;
        if (value === "") continue;
        this.seen[c] = true;
        forms.forEach((form, f) => {
          const width = displayWidth(form.shown(value));
          if (width > this.widths[c]![f]!) this.widths[c]![f] = width;
        });
      }
    });
  }

  /** Width of a form: its text capped at the column's max (keys have none), its header whole. */
  width(c: number, form: number): number {
    return Math.max(
      this.headers[c]![form]!,
      Math.min(this.columns[c]!.max ?? Number.POSITIVE_INFINITY, this.widths[c]![form]!),
    );
  }
}

const formsOf = (column: Column): Form[] => column.forms ?? [WHOLE];
const headerOf = (column: Column, form: Form): string[] => (form.header.length > 0 ? form.header : [column.header]);
type CliTable = typeof import("cli-table3");

async function renderForTerminal(chunks: Chunks, sink: Sink, columns: Column[], options: TableOptions): Promise<void> {
  // While the first page is on its way (the loop below asks for it): cli-table3 loads, then the headers
  // are measured (a time column's headers name the zone, whose lookup starts ICU: see withTimeForms).
  const ready = import("cli-table3").then(({ default: Table }) => ({ Table, measures: new Measures(columns) }));
  ready.catch(() => undefined);
  const drawSlice = (Table: CliTable, placed: Placed[], rows: string[][], withHeader: boolean): string => {
    const table = new Table({
      head: withHeader
        ? placed.map(({ index, form }) =>
            headerOf(columns[index]!, formsOf(columns[index]!)[form]!).map(options.palette.heading).join("\n"),
          )
        : [],
      // The gap is padding, not width: cli-table3 cuts text to the width less the padding, so a cut cell keeps its gap.
      colWidths: placed.map(({ width }) => width + GAP),
      chars: NO_BORDERS,
      style: { "padding-left": 0, "padding-right": GAP, head: [], border: [], compact: true },
      truncate: ELLIPSIS,
      wordWrap: false,
    });
    for (const row of rows) {
      table.push(
        placed.map(({ index, form }) => {
          const column = columns[index]!;
          const value = formsOf(column)[form]!.shown(row[index]!);
          return column.status ? options.palette.status(value) : value;
        }),
      );
    }
    return (
      table
        .toString()
        .split("\n")
        .map((line) => line.trimEnd())
        .join("\n") + "\n"
    );
  };
  // A table per slice of rows, written as it is drawn: widths are fixed and there are no borders, so
  // slices join seamlessly (and cli-table3 never spreads more than a slice's rows into one call's arguments).
  const draw = async (placed: Placed[], rows: string[][], withHeader: boolean, before: string): Promise<void> => {
    const { Table } = await ready;
    for (let start = 0, size = ROWS_FIRST; start === 0 || start < rows.length; start += size, size = ROWS_PER_TABLE) {
      await sink.write(
        (start === 0 ? before : "") +
          drawSlice(Table, placed, rows.slice(start, start + size), withHeader && start === 0),
      );
      // On a terminal rows show as they are drawn (and before a spinner takes the line again).
      await sink.flush();
    }
  };
  let previous: string | undefined;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const { measures } = await ready;
    const rows = chunk.map((message) => columns.map((column) => inlineSafe(column.cell(message))));
    measures.add(rows);
    const placed = fit(columns, measures, options);
    const layout = JSON.stringify(placed);
    // A changed layout gets its header again, after a blank line, so every row sits under its own.
    const header = options.headers && layout !== previous;
    await draw(placed, rows, header, header && previous !== undefined ? "\n" : "");
    previous = layout;
  }
  if (previous === undefined && options.headers) {
    // Nothing listed: the header alone, every column as it would be, fitted all the same.
    const { measures } = await ready;
    measures.seen.fill(true);
    await draw(fit(columns, measures, options), [], true, "");
  }
}

/**
 * Where each column goes within the terminal's width. Columns without a rank always show, as wide as
 * their content (up to their max). The ranked ones join in rank order, each in the first of its forms
 * that fits what is left, or cut to what is left when it may be cut; one that fits neither way is left
 * out, and a narrower one after it may still join. Should the columns that always show be too wide
 * together, they take narrower forms, then the widest that may be cut gives way; keys never do.
 */
function fit(columns: Column[], measures: Measures, options: TableOptions): Placed[] {
  if (options.wide) return columns.map((_, c) => ({ index: c, form: 0, width: measures.widths[c]![0]! }));
  const present = columns.map((column, c) => !column.optional || measures.seen[c]!);
  const whole = (c: number): Placed => ({ index: c, form: 0, width: measures.width(c, 0) });
  const placed: Placed[] = columns.flatMap((column, c) => (present[c] && column.rank === undefined ? [whole(c)] : []));
  const used = () => placed.reduce((sum, column) => sum + column.width + GAP, -GAP);
  const ranked = columns
    .map((column, c) => ({ column, c }))
    .filter(({ column, c }) => present[c] && column.rank !== undefined);
  for (const { column, c } of ranked.sort((a, b) => a.column.rank! - b.column.rank!)) {
    const room = options.columns - used() - (placed.length > 0 ? GAP : 0);
    const form = formsOf(column).findIndex((_, f) => measures.width(c, f) <= room);
    if (form >= 0) placed.push({ index: c, form, width: measures.width(c, form) });
    else if (column.min !== undefined && room >= column.min) placed.push({ index: c, form: 0, width: room });
  }
  giveWay(placed, columns, measures, options.columns, used);
  return placed.sort((a, b) => a.index - b.index);
}

function giveWay(
  placed: Placed[],
  columns: Column[],
  measures: Measures,
  terminalWidth: number,
  used: () => number,
): void {
  for (const column of placed) {
    while (used() > terminalWidth && column.form < formsOf(columns[column.index]!).length - 1) {
      column.form++;
      column.width = measures.width(column.index, column.form);
    }
  }
  while (used() > terminalWidth) {
    const cuttable = placed.filter(
      (column) => columns[column.index]!.min !== undefined && column.width > columns[column.index]!.min!,
    );
    if (cuttable.length === 0) return;
    const widest = cuttable.reduce((a, b) => (b.width > a.width ? b : a));
    widest.width--;
  }
}
