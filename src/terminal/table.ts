// The listing table. On a terminal: one table under one header, its columns fitted to the width on the
// first page (the rows stream, so they cannot wait for the last page), for people who copy ids out of
// it: ids and recipients are never cut, what the user asked about (the error with --status failure or
// when a row has one, the time with --since) is kept before the rest, a column with nothing in it is
// left out, times are in --tz with the zone in the header, status in colour. Widths known before the
// first page (the campaigns named, the statuses, the error codes) are taken from the start; a later
// value too wide for its column is cut, an id or an error code runs past it. What a later page has in a
// column that is not shown is named when the table ends. Piped: tab-separated rows under a header, every
// value whole and as the server wrote it (times included), no colour (the gh convention).
import { attemptCount, batchFileOf, batchIdOf, newestFailedAttempt } from "../core/attempts.js";
import { stringifyAtAnyDepth } from "../core/json-stringify.js";
import { MESSAGE, read, type CheckedMessage } from "../core/message.js";
import { ERROR_CODES, MESSAGE_STATUSES } from "../core/statuses.js";
import { inlineSafe } from "../core/text.js";
import { timestampInZone, type TimeZone } from "../core/time.js";
import type { Field } from "../formats/fields.js";
import type { Cell, Placed, Slot } from "./layout.js";
import { MESSAGE_ROWS, type Chunks, type Rows } from "../formats/chunks.js";
import type { Palette } from "./palette.js";
import type { Sink } from "../output/sink.js";

type Layout = typeof import("./layout.js");

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
  /**
   * `find` of one number: every row's recipient is the number asked for, so on a terminal its column
   * gives its room to the error and the time (at 80 columns one of them went). Piped, it stays.
   */
  oneRecipient?: boolean;
  /** --status: with failure among them, the error is what was asked about; without, no row has one. */
  statuses?: ReadonlySet<string>;
  /** --since or --until: the time is what was asked about. */
  window?: boolean;
  /** The campaigns of the CAMPAIGN column, known before the first page. */
  campaignIds?: readonly string[];
}

/** What the terminal table left out: the headers of columns with something in them that were not shown. */
export interface TableOutcome {
  hidden: string[];
}

/** One way of showing a column: header lines, and what becomes of its text. */
interface Form {
  header: string[];
  shown: (text: string) => string;
}

interface Column {
  /** The header when piped, and on a terminal unless `forms` say otherwise. */
  header: string;
  /** The text on a terminal; `campaign`: the campaign a row of a merged listing was listed under. */
  cell: (message: CheckedMessage, campaign: string | undefined) => string;
  /** The text when piped, where it differs (times as the server wrote them). */
  plain?: (message: CheckedMessage, campaign: string | undefined) => string;
  /** Copied into the next command: never cut, whatever the width (ids, recipients). */
  key?: boolean;
  /** Columns a narrower terminal may go without, kept in rank order (lowest first). Unranked ones always show. */
  rank?: number;
  /**
   * Its rank while the first page has nothing in it (the error, before a failure came): undefined leaves
   * it out then, as any optional column.
   */
  emptyRank?: number;
  /** Values it will hold, known before the first page (campaign ids, statuses): its width fits them from the start. */
  known?: readonly string[];
  /**
   * Values it may hold, known in advance (error codes): its column is as wide as they are where that fits,
   * else as wide as the values seen so far; a value wider than its column runs past it, never cut.
   */
  reserve?: readonly string[];
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
  return typeof value === "string" ? value : typeof value === "object" ? stringifyAtAnyDepth(value) : String(value);
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

/**
 * Why a message failed: the error of its newest failed attempt, on a `failure` row only. On any other row
 * (a retry that succeeded, or one under way) that error is an earlier attempt's, and support staff read a
 * code beside `success` as "it failed"; it stays in `msgstat message`, in --json and in lastErrorCode.
 */
function errorCell(m: CheckedMessage): string {
  return read(MESSAGE, m, "latestStatus") === "failure" ? text(newestFailedAttempt(m)?.errorCode) : "";
}

function defaultColumns(options: TableOptions, merged: boolean): Column[] {
  const createdAt = (m: CheckedMessage) => read(MESSAGE, m, "createdAt");
  // One campaign (find in one): on a terminal its column would say the same on every row, so it gives its
  // room to the others; piped, it stays, as the recipient's does.
  const campaign = merged && !(options.tty && options.campaignIds?.length === 1);
  // Columns give way by what was asked: the error with --status failure (or once a row has one), the time
  // with --since or --until; then the tries, the batch, its file and the text.
  const failuresAsked = options.statuses?.has("failure") === true;
  const failuresPossible = options.statuses === undefined || failuresAsked;
  const known = (values: readonly string[]) => values.map(inlineSafe);
  return [
    ...(campaign
      ? [
          {
            header: "CAMPAIGN",
            cell: (_: CheckedMessage, campaignId: string | undefined) => text(campaignId),
            key: true,
            known: known(options.campaignIds ?? []),
          },
        ]
      : []),
    { header: "ID", cell: (m) => m.id, key: true },
    ...(options.oneRecipient && options.tty
      ? []
      : [{ header: "RECIPIENT", cell: (m: CheckedMessage) => text(read(MESSAGE, m, "recipient")), key: true }]),
    {
      header: "STATUS",
      cell: (m) => text(read(MESSAGE, m, "latestStatus")),
      max: 12,
      min: 4,
      status: true,
      known: MESSAGE_STATUSES,
    },
    { header: "TRIES", cell: (m) => text(attemptCount(m)), max: 5, rank: 3, optional: true },
    // Why a message failed matters more at a glance than when, how often it was tried or where it came from.
    {
      header: "ERROR",
      cell: errorCell,
      // Piped, the newest failed attempt's code on every row: a pipe is for programs (STATUS is beside it).
      plain: (m) => text(newestFailedAttempt(m)?.errorCode),
      max: 32,
      min: 12,
      rank: failuresAsked ? 0 : 1,
      // Before a failure came: kept for one when failures can come, after the time, sized for the codes known.
      emptyRank: failuresAsked ? 0 : failuresPossible ? 2.5 : undefined,
      reserve: ERROR_CODES,
      optional: true,
    },
    withTimeForms(
      {
        header: "CREATED",
        cell: (m) => timestampInZone(createdAt(m), options.timeZone),
        plain: (m) => text(createdAt(m)),
        max: 25,
        rank: options.window ? 0.5 : 2,
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

function fieldColumns(fields: readonly Field[], zone: TimeZone, merged: boolean): Column[] {
  // Several campaigns: the campaign first, unless the fields name campaignId themselves (the message's own).
  const campaign: Column[] =
    merged && !fields.some((field) => field.name === "campaignId")
      ? [{ header: "campaignId", cell: (_, campaignId) => text(campaignId), key: true }]
      : [];
  return campaign.concat(
    fields.map((field): Column => {
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
    }),
  );
}

/** The table of messages; of a merged listing's rows (TAGGED_ROWS), with the campaign column first. */
export function renderTable(chunks: Chunks, sink: Sink, options: TableOptions): Promise<TableOutcome>;
export function renderTable<R>(
  chunks: Chunks<R>,
  sink: Sink,
  options: TableOptions,
  rows: Rows<R>,
): Promise<TableOutcome>;
export async function renderTable<R>(
  chunks: Chunks<R>,
  sink: Sink,
  options: TableOptions,
  rows = MESSAGE_ROWS as Rows<unknown> as Rows<R>,
): Promise<TableOutcome> {
  const merged = rows.campaignOf !== undefined;
  const columns = options.fields
    ? fieldColumns(options.fields, options.timeZone, merged)
    : defaultColumns(options, merged);
  if (options.tty) return renderForTerminal(chunks, rows, sink, columns, options);
  await renderPlain(chunks, rows, sink, columns, options.headers);
  return { hidden: [] };
}

async function renderPlain<R>(
  chunks: Chunks<R>,
  rows: Rows<R>,
  sink: Sink,
  columns: Column[],
  headers: boolean,
): Promise<void> {
  // The header goes out with the first rows (or at the end): a listing that fails first leaves stdout empty.
  let header = headers ? columns.map((column) => column.header).join("\t") + "\n" : "";
  const cells = columns.map((column) => column.plain ?? column.cell);
  const { messageOf, campaignOf } = rows;
  for await (const chunk of chunks) {
    for (const item of chunk) {
      const message = messageOf(item);
      const campaign = campaignOf === undefined ? undefined : campaignOf(item);
      let row = header;
      for (let c = 0; c < cells.length; c++) row += (c === 0 ? "" : "\t") + inlineSafe(cells[c]!(message, campaign));
      const flushing = sink.write(row + "\n");
      header = "";
      if (flushing) await flushing;
    }
  }
  if (header !== "") await sink.write(header);
}

const GAP = 2;
const ROWS_FIRST = 10;
const ROWS_PER_FLUSH = 50;

/** What the pages so far hold, per column: whether anything at all, and how wide each form is. */
class Measures {
  readonly seen: boolean[];
  readonly widths: number[][];
  private readonly headers: number[][];
  /** Each form's width for the values a column may hold (its reserve), for while it has had none. */
  private readonly reserved: number[][];

  constructor(
    private readonly columns: Column[],
    private readonly measure: (text: string) => number,
  ) {
    this.seen = columns.map(() => false);
    this.headers = columns.map((column) =>
      formsOf(column).map((form) => Math.max(...headerOf(column, form).map(measure))),
    );
    this.widths = this.headers.map((widths) => [...widths]);
    this.reserved = columns.map((column, c) =>
      formsOf(column).map((form, f) => this.widest(column.reserve ?? [], form, this.headers[c]![f]!)),
    );
    columns.forEach((column, c) =>
      formsOf(column).forEach((form, f) => {
        this.widths[c]![f] = this.widest(column.known ?? [], form, this.widths[c]![f]!);
      }),
    );
  }

  private widest(values: readonly string[], form: Form, atLeast: number): number {
    return values.reduce((widest, value) => Math.max(widest, this.measure(form.shown(value))), atLeast);
  }

  add(rows: string[][]): void {
    this.columns.forEach((column, c) => {
      const forms = formsOf(column);
      for (const row of rows) {
        const value = row[c]!;
        if (value === "") continue;
        this.seen[c] = true;
        forms.forEach((form, f) => {
          const width = this.measure(form.shown(value));
          if (width > this.widths[c]![f]!) this.widths[c]![f] = width;
        });
      }
    });
  }

  /** Width of a form: its text (while it has had none, its reserve) capped at the column's max, its header whole. */
  width(c: number, form: number): number {
    return this.seen[c] ? this.capped(c, form, this.widths[c]![form]!) : this.reservedWidth(c, form);
  }

  /** Width of a form that holds its reserve as well as its text so far. */
  reservedWidth(c: number, form: number): number {
    return this.capped(c, form, Math.max(this.widths[c]![form]!, this.reserved[c]![form]!));
  }

  private capped(c: number, form: number, content: number): number {
    return Math.max(this.headers[c]![form]!, Math.min(this.columns[c]!.max ?? Number.POSITIVE_INFINITY, content));
  }
}

const formsOf = (column: Column): Form[] => column.forms ?? [WHOLE];
const headerOf = (column: Column, form: Form): string[] => (form.header.length > 0 ? form.header : [column.header]);

async function renderForTerminal<R>(
  chunks: Chunks<R>,
  rows: Rows<R>,
  sink: Sink,
  columns: Column[],
  options: TableOptions,
): Promise<TableOutcome> {
  // While the first page is on its way (the loop below asks for it): the layout and string-width load,
  // then the headers are measured (a time column's headers name the zone, whose lookup starts ICU: see
  // withTimeForms). The piped table never loads them.
  const ready = Promise.all([import("./layout.js"), import("./width.js")]).then(([layout, { displayWidth }]) => ({
    layout,
    measures: new Measures(columns, displayWidth),
  }));
  ready.catch(() => undefined);
  const { palette } = options;
  const draw = async (placed: Placed[], rows: string[][], withHeader: boolean): Promise<void> => {
    const { layout } = await ready;
    const forms = placed.map(({ index, form }) => formsOf(columns[index]!)[form]!);
    let text = "";
    if (withHeader) {
      const headers = placed.map(({ index }, i) => headerOf(columns[index]!, forms[i]!));
      const lines = Math.max(...headers.map((header) => header.length));
      for (let line = 0; line < lines; line++)
        text +=
          layout.drawLine(
            placed,
            headers.map((header) => ({ text: header[line] ?? "", style: palette.heading })),
            GAP,
          ) + "\n";
    }
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const cells = placed.map(({ index }, i): Cell => {
        const value = row[index]!;
        const shown = forms[i]!.shown(value);
        const column = columns[index]!;
        return column.status
          ? { text: shown, style: (cut) => palette.status(value, cut), whole: options.wide }
          : { text: shown, whole: column.key === true || wholeCodes.has(index) || options.wide };
      });
      text += layout.drawLine(placed, cells, GAP, options.wide ? 0 : options.columns) + "\n";
      const flushing = sink.write(text);
      text = "";
      if (flushing) await flushing;
      // Rows show as they are drawn (and before a spinner takes the line again): a page's first few at
      // once, then every ROWS_PER_FLUSH, while the rest of the page is drawn by code not yet compiled.
      if (r + 1 === ROWS_FIRST || (r + 1) % ROWS_PER_FLUSH === 0) await sink.flush();
    }
    if (text !== "") await sink.write(text);
  };
  // Laid out once, on the first page: one table, one header.
  let placed: Placed[] | undefined;
  // Error codes are never cut where their column holds those of the first page: a longer one runs past it.
  // (On a terminal too narrow for them, the column was cut, and so are they.)
  let wholeCodes = new Set<number>();
  let measures: Measures | undefined;
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const loaded = await ready;
    measures = loaded.measures;
    const cells = chunk.map((item) => {
      const message = rows.messageOf(item);
      const campaign = rows.campaignOf?.(item);
      return columns.map((column) => inlineSafe(column.cell(message, campaign)));
    });
    measures.add(cells);
    const first = placed === undefined;
    if (placed === undefined) {
      const laidOut = fit(loaded.layout, columns, measures, options);
      const seen = measures;
      const fitted = laidOut.filter(({ index, width }) => columns[index]!.reserve && width >= seen.width(index, 0));
      wholeCodes = new Set(fitted.map(({ index }) => index));
      placed = laidOut;
    }
    await draw(placed, cells, first && options.headers);
  }
  // Nothing listed: nothing drawn, not even the header; the command says so on stderr. (Piped, the
  // header stays: a program reads it as the columns' names, as CSV's.)
  if (placed === undefined || measures === undefined) return { hidden: [] };
  const shown = new Set(placed.map(({ index }) => index));
  return { hidden: columns.filter((column, c) => measures.seen[c] && !shown.has(c)).map((column) => column.header) };
}

/**
 * Where each column goes within the terminal's width (terminal/layout.ts lays it out), on the first page.
 * Ids, recipients and batch ids have no min, so they are never cut; the default columns that always
 * show are those and the status; the others join by rank: what was asked about first (the error, the
 * time), then the error code, the time, the tries, the batch, its file and the message's text. A column
 * with nothing in it is left out, unless --fields asked for it or (the error) it may fill later.
 * --wide: every column, none cut, whatever the width.
 */
function fit(layout: Layout, columns: Column[], measures: Measures, options: TableOptions): Placed[] {
  if (options.wide) return columns.map((_, c) => ({ index: c, form: 0, width: measures.widths[c]![0]! }));
  const slots = columns.map((column, c): Slot | null => {
    const rank = measures.seen[c] ? column.rank : column.optional ? column.emptyRank : column.rank;
    if (column.optional && !measures.seen[c] && rank === undefined) return null;
    return { widths: formsOf(column).map((_, f) => measures.width(c, f)), min: column.min, rank };
  });
  let placed = layout.layOut(slots, options.columns, GAP);
  // An error code is not to be cut: where the time's wider forms took the room the codes need, the time
  // takes a narrower form (the zone under its name, then no year), if both then show.
  const error = columns.findIndex((column) => column.reserve !== undefined);
  const time = columns.findIndex((column) => column.rank !== undefined && column.forms !== undefined);
  const at = (among: Placed[], c: number) => among.find(({ index }) => index === c);
  const whole = (among: Placed[]) => (at(among, error)?.width ?? 0) >= measures.width(error, 0);
  const timeSlot = slots[time];
  if (slots[error] && timeSlot && at(placed, time) && !whole(placed)) {
    for (let narrower = 1; narrower < timeSlot.widths.length; narrower++) {
      const retried = layout.layOut(
        slots.map((slot, c) => (c === time ? { ...timeSlot, widths: timeSlot.widths.slice(narrower) } : slot)),
        options.columns,
        GAP,
      );
      const shownTime = at(retried, time);
      if (!shownTime || !whole(retried)) continue;
      shownTime.form += narrower;
      placed = retried;
      break;
    }
  }
  // Room to spare goes to the error, up to the widest known code, so that one that comes later fits.
  let spare = options.columns - placed.reduce((sum, { width }) => sum + width + GAP, -GAP);
  for (const column of placed) {
    if (columns[column.index]!.reserve === undefined) continue;
    const wider = Math.min(spare, measures.reservedWidth(column.index, column.form) - column.width);
    if (wider > 0) {
      column.width += wider;
      spare -= wider;
    }
  }
  return placed;
}
