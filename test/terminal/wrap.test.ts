// Text wrapped to a terminal's width for the message view: by cells, never inside a grapheme cluster.
import { describe, expect, it } from "vitest";
import { hanging, wrapText } from "../../src/terminal/wrap.js";

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦, two cells

describe("wrapText", () => {
  it("counts a ZWJ sequence as the two cells a terminal draws", () => {
    // "Party " 6 + 🎉 2 + " " 1 + the family 2 = 11 cells: one line at 11, where counting each person would need 17.
    expect(wrapText(`Party \u{1F389} ${FAMILY}`, 11)).toEqual([`Party \u{1F389} ${FAMILY}`]);
    expect(wrapText(`Party \u{1F389} ${FAMILY}`, 10)).toEqual(["Party \u{1F389}", FAMILY]);
  });

  it("wraps CJK by cells", () => {
    expect(wrapText("日本語 テキスト", 8)).toEqual(["日本語", "テキスト"]);
  });

  it("breaks a word longer than a line between clusters, never inside one", () => {
    expect(wrapText(FAMILY.repeat(5), 4)).toEqual([FAMILY.repeat(2), FAMILY.repeat(2), FAMILY]);
    expect(wrapText("e\u0301".repeat(5), 2)).toEqual(["e\u0301e\u0301", "e\u0301e\u0301", "e\u0301"]);
  });

  it("puts a character wider than the line on a line of its own, so the wrap moves on", () => {
    expect(wrapText("日本", 1)).toEqual(["日", "本"]);
  });

  it("keeps a number and the percent sign after it on one line", () => {
    // "the newest 1" fits 12 cells; a line of its own starting with "%" would not say what it is.
    expect(wrapText("the newest 1 % of each", 12)).toEqual(["the newest", "1 % of each"]);
    expect(wrapText("rate 12.5 %, then 3  %", 9)).toEqual(["rate", "12.5 %,", "then 3  %"]);
    // A percent sign after a word is an ordinary word.
    expect(wrapText("a b % c", 3)).toEqual(["a b", "% c"]);
  });

  it("keeps the first line shorter for a label, and indents the rest", () => {
    expect(hanging(wrapText("один два три", 5, 8), "> ", "  ")).toBe("> один\n  два три");
  });
});
