// msgstat's one table layout, for the listing on a terminal and the stats report's tables: which
// columns show within the terminal's width and how wide each is, then each line drawn with every
// cell cut or padded to its column (terminal/width.ts measures). Written here rather than drawn by a
// table package: the layout is msgstat's own (ranks, narrower forms, what is never cut), and what
// is left, padding and joining cells, is a few lines with one width function.
import { displayWidth, padToWidth } from "./width.js";

/** A column as the layout sees it. */
export interface Slot {
  /** Cells each of its forms needs, preferred form first (content up to the column's max, header whole). */
  widths: readonly number[];
  /** Narrowest it may be cut to; without one it is never cut (ids, recipients, batch ids, figures). */
  min?: number;
  /** Columns a narrower terminal may go without join in rank order, 1 first; unranked ones always show. */
  rank?: number;
  /** While ranked columns join, counted at its min: they are worth more than its whole width (the report's labels). */
  yields?: boolean;
}

/** A column as placed: its index among the slots, its form and its width. */
export interface Placed {
  index: number;
  form: number;
  width: number;
}

/**
 * Where each column goes within `width` cells, `gap` cells apart; `null` slots are left out. Columns
 * without a rank always show, in their first form. The ranked ones join in rank order, each in the first
 * of its forms that fits what is left, or cut to what is left when that is at least its min; one that
 * fits neither way is left out, and a narrower one after it may still join. Should the columns be too
 * wide together, they take narrower forms, then ranked ones are cut (the last-ranked first) and then
 * the widest of the others, each down to its min; a column without a min never is.
 */
export function layOut(slots: readonly (Slot | null)[], width: number, gap: number): Placed[] {
  const placed: Placed[] = [];
  slots.forEach((slot, index) => {
    if (slot !== null && slot.rank === undefined) placed.push({ index, form: 0, width: slot.widths[0]! });
  });
  const slotOf = (column: Placed) => slots[column.index]!;
  const used = (counted: (column: Placed) => number) =>
    placed.reduce((sum, column) => sum + counted(column) + gap, -gap);
  const whole = (column: Placed) => column.width;
  const joining = (column: Placed) => {
    const { yields, min } = slotOf(column);
    return yields && min !== undefined ? Math.min(min, column.width) : column.width;
  };
  const ranked = slots
    .map((slot, index) => ({ slot, index }))
    .filter((entry): entry is { slot: Slot; index: number } => entry.slot?.rank !== undefined)
    .sort((a, b) => a.slot.rank! - b.slot.rank!);
  for (const { slot, index } of ranked) {
    const room = width - used(joining) - (placed.length > 0 ? gap : 0);
    const form = slot.widths.findIndex((formWidth) => formWidth <= room);
    if (form >= 0) placed.push({ index, form, width: slot.widths[form]! });
    else if (slot.min !== undefined && room >= slot.min) placed.push({ index, form: 0, width: room });
  }
  giveWay(placed, slotOf, width, () => used(whole));
  return placed.sort((a, b) => a.index - b.index);
}

function giveWay(placed: Placed[], slotOf: (column: Placed) => Slot, width: number, used: () => number): void {
  for (const column of placed) {
    const { widths } = slotOf(column);
    while (used() > width && column.form < widths.length - 1) column.width = widths[++column.form]!;
  }
  while (used() > width) {
    const cuttable = placed.filter((column) => column.width > (slotOf(column).min ?? column.width));
    if (cuttable.length === 0) return;
    const ranked = cuttable.filter((column) => slotOf(column).rank !== undefined);
    if (ranked.length > 0) {
      const last = ranked.reduce((a, b) => (slotOf(b).rank! > slotOf(a).rank! ? b : a));
      last.width = Math.max(slotOf(last).min!, last.width - (used() - width));
    } else cuttable.reduce((a, b) => (b.width > a.width ? b : a)).width--;
  }
}

/** One cell of a line: its text, how it aligns in its column, its colour (the text's, not the padding's). */
export interface Cell {
  text: string;
  align?: "left" | "right";
  style?: (text: string) => string;
  /** Never cut (an id in a column laid out before it came): it runs past its column instead. */
  whole?: boolean;
}

/**
 * A line of the placed columns, `gap` cells apart, each cell cut or padded to its column; no spaces at its end.
 * A whole cell wider than its column runs past it, and the cells after it start later and end where their
 * columns end, so the line lines up again as soon as one of them has room to spare (its padding); none is
 * cut further than its column would cut it, but the last, which ends where its column ends or, given the
 * `room` the line has (the terminal's width), within it.
 */
export function drawLine(placed: readonly Placed[], cells: readonly Cell[], gap: number, room = 0): string {
  const between = " ".repeat(gap);
  let line = "";
  let columnEnd = 0;
  let at = 0;
  for (let i = 0; i < placed.length; i++) {
    const cell = cells[i]!;
    if (i > 0) {
      line += between;
      columnEnd += gap;
      at += gap;
    }
    columnEnd += placed[i]!.width;
    // Late, a cell gives up its padding, and is cut no further than its column would cut it; the last
    // one no further than the room left.
    const late = columnEnd - at < placed[i]!.width;
    let width = Math.max(1, columnEnd - at);
    if (cell.whole) width = Math.max(width, displayWidth(cell.text));
    else if (late) {
      const wanted = Math.max(width, Math.min(displayWidth(cell.text), placed[i]!.width));
      width = i < placed.length - 1 ? wanted : Math.max(width, Math.min(wanted, room - at));
    }
    line += padToWidth(cell.text, width, cell.align, cell.style);
    at += width;
  }
  return line.trimEnd();
}
