// The one table layout (the listing on a terminal, the stats report's tables): which columns show, how
// wide, what gives way first and what is never cut; then lines drawn to those widths.
import { describe, expect, it } from "vitest";
import { drawLine, layOut, type Slot } from "../../src/terminal/layout.js";

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦, 2 cells
const widths = (placed: { index: number; width: number }[]) => placed.map(({ index, width }) => [index, width]);

describe("layOut", () => {
  it("shows the unranked columns whole, and the ranked ones in rank order while they fit", () => {
    const slots: Slot[] = [{ widths: [10] }, { widths: [8], rank: 2 }, { widths: [6], rank: 1 }, { widths: [5] }];
    // 10 + 5 always (17 with the gap); then rank 1 (6) in the 21 left, then rank 2 (8) in the 13 left.
    expect(widths(layOut(slots, 40, 2))).toEqual([
      [0, 10],
      [1, 8],
      [2, 6],
      [3, 5],
    ]);
    // At 30: 10 + 2 + 5 = 17, rank 1 takes 6 (25 used), rank 2 needs 8 but 3 are left: it is left out.
    expect(widths(layOut(slots, 30, 2))).toEqual([
      [0, 10],
      [2, 6],
      [3, 5],
    ]);
  });

  it("leaves out a ranked column that does not fit, and lets a narrower one after it join", () => {
    const slots: Slot[] = [{ widths: [10] }, { widths: [12], rank: 1 }, { widths: [4], rank: 2 }];
    expect(widths(layOut(slots, 20, 2))).toEqual([
      [0, 10],
      [2, 4],
    ]);
  });

  it("cuts a ranked column to the room left when that is at least its min", () => {
    const slots: Slot[] = [{ widths: [10] }, { widths: [50], min: 12, rank: 1 }];
    expect(widths(layOut(slots, 30, 2))).toEqual([
      [0, 10],
      [1, 18],
    ]);
    expect(widths(layOut(slots, 23, 2))).toEqual([[0, 10]]);
  });

  it("tries a ranked column's narrower forms before cutting it or leaving it out", () => {
    const slots: Slot[] = [{ widths: [10] }, { widths: [16, 11, 5], rank: 1 }];
    const [, time] = layOut(slots, 24, 2);
    expect(time).toEqual({ index: 1, form: 1, width: 11 });
  });

  it("skips a null slot (a column with nothing to show)", () => {
    expect(widths(layOut([{ widths: [3] }, null, { widths: [3] }], 80, 2))).toEqual([
      [0, 3],
      [2, 3],
    ]);
  });

  it("when the columns that always show are too wide: narrower forms first, then the widest cuttable one, keys never", () => {
    const slots: Slot[] = [
      { widths: [18] }, // an id: no min, never cut
      { widths: [16, 11] }, // a time with a narrower form
      { widths: [30], min: 4 },
      { widths: [20], min: 4 },
    ];
    // 18 + 16 + 30 + 20 + 3 gaps = 90 at 60: the time takes its narrower form (85), then the widest
    // cuttable one gives a cell at a time: 30 down to 20, then both in turn, the first at a tie.
    expect(widths(layOut(slots, 60, 2))).toEqual([
      [0, 18],
      [1, 11],
      [2, 12],
      [3, 13],
    ]);
    // Narrower than the keys alone: the others go down to their min, the id stays whole.
    expect(widths(layOut(slots, 10, 2))).toEqual([
      [0, 18],
      [1, 11],
      [2, 4],
      [3, 4],
    ]);
  });

  it("counts a yielding column at its min while ranked ones join, then cuts the last-ranked first", () => {
    // The report's shape: a label (min 12, yields), two figures, a bar of up to 40 (min 6).
    const slots: Slot[] = [
      { widths: [30], min: 12, yields: true },
      { widths: [5], rank: 1 },
      { widths: [6], rank: 2 },
      { widths: [40], min: 6, rank: 3 },
    ];
    // Room for everything whole: 30 + 5 + 6 + 40 + 3 gaps = 87.
    expect(widths(layOut(slots, 90, 2))).toEqual([
      [0, 30],
      [1, 5],
      [2, 6],
      [3, 40],
    ]);
    // At 70 the bar gives way first: 70 - 30 - 5 - 6 - 6 = 23.
    expect(widths(layOut(slots, 70, 2))).toEqual([
      [0, 30],
      [1, 5],
      [2, 6],
      [3, 23],
    ]);
    // At 50 the bar is down to its min, then the label: 50 - 5 - 6 - 6 - 6 = 27.
    expect(widths(layOut(slots, 50, 2))).toEqual([
      [0, 27],
      [1, 5],
      [2, 6],
      [3, 6],
    ]);
    // At 30 the bar cannot join beside the label at 12 (12 + 7 + 8 = 27, 1 left); the label takes the rest.
    expect(widths(layOut(slots, 30, 2))).toEqual([
      [0, 15],
      [1, 5],
      [2, 6],
    ]);
    // At 20 the second figure cannot join either (12 + 7 = 19, 8 more would be 27).
    expect(widths(layOut(slots, 20, 2))).toEqual([
      [0, 13],
      [1, 5],
    ]);
  });
});

describe("drawLine", () => {
  const placed = [
    { index: 0, form: 0, width: 6 },
    { index: 1, form: 0, width: 5 },
    { index: 2, form: 0, width: 4 },
  ];

  it("pads each cell to its column by cells, a gap between, nothing at the end", () => {
    expect(drawLine(placed, [{ text: "日本" }, { text: "7", align: "right" }, { text: "ab" }], 2)).toBe(
      "日本        7  ab",
    );
  });

  it("cuts what is too wide with an ellipsis, never inside a cluster", () => {
    expect(drawLine(placed, [{ text: "abcdefgh" }, { text: FAMILY.repeat(3) }, { text: "" }], 2)).toBe(
      `abcde…  ${FAMILY}${FAMILY}…`,
    );
  });

  it("a whole cell wider than its column runs past it; the next cells give up their padding to line up again", () => {
    const four = [...placed, { index: 3, form: 0, width: 6 }];
    // Columns at 0, 8, 15 and 21. "abcdefgh" runs 2 cells past the first; "12" has 3 spare and ends where
    // its column ends, so "xy" starts at 15 as in any other line.
    expect(drawLine(four, [{ text: "abcdefgh", whole: true }, { text: "12" }, { text: "xy" }, { text: "z" }], 2)).toBe(
      "abcdefgh  12   xy    z",
    );
    expect(drawLine(four, [{ text: "abcdef" }, { text: "12" }, { text: "xy" }, { text: "z" }], 2)).toBe(
      "abcdef  12     xy    z",
    );
    // Not enough spare: the next cell is not cut further than its column would cut it, and the last one
    // ends where the line ends.
    expect(
      drawLine(
        four,
        [{ text: "abcdefghijkl", whole: true }, { text: "12345" }, { text: "wxyz" }, { text: "uvwxyz" }],
        2,
      ),
    ).toBe("abcdefghijkl  12345  wxyz  …");
  });

  it("colours the text, not the padding", () => {
    const style = (text: string) => `[${text}]`;
    expect(drawLine(placed, [{ text: "ok", style }, { text: "" }, { text: "x", style }], 1)).toBe(
      `[ok]${" ".repeat(11)}[x]`,
    );
  });
});
