// Terminal cells, as a terminal draws them. Every expected width here is written by hand (counted on the
// glyphs a terminal shows), never computed with the code's own function.
import { describe, expect, it } from "vitest";
import { cutInMiddle, cutToWidth, displayWidth, padEnd, padToWidth, startWithin } from "../../src/terminal/width.js";

const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦: four people joined by ZWJ
const RAINBOW_FLAG = "\u{1F3F3}\uFE0F\u200D\u{1F308}"; // 🏳️‍🌈: white flag, VS16, ZWJ, rainbow
const FRANCE = "\u{1F1EB}\u{1F1F7}"; // 🇫🇷: two regional indicators

describe("displayWidth", () => {
  it.each([
    ["plain ASCII", "abc", 3],
    ["CJK ideographs", "日本語", 6],
    ["Hangul syllables", "한국어", 6],
    ["fullwidth Latin", "ＡＢ", 4],
    ["an emoji", "\u{1F389}", 2],
    ["U+2705, an emoji in the BMP", "\u2705", 2],
    ["a ZWJ family", FAMILY, 2],
    ["a ZWJ flag with a variation selector", RAINBOW_FLAG, 2],
    ["a flag", FRANCE, 2],
    ["two flags", "\u{1F1EF}\u{1F1F5}\u{1F1FA}\u{1F1F8}", 4],
    ["a skin tone modifier", "\u{1F44D}\u{1F3FD}", 2],
    ["a keycap", "1\uFE0F\u20E3", 2],
    ["a combining acute accent", "e\u0301", 1],
    ["two combining marks on one letter", "a\u0308\u0301", 1],
    ["a precomposed accent", "Olá", 3],
    ["a Devanagari vowel sign (combining)", "\u0939\u0948", 1],
    ["VS16: a heart in emoji presentation", "\u2764\uFE0F", 2],
    ["a heart without a variation selector", "\u2764", 1],
    ["VS15: text presentation", "\u263A\uFE0E", 1],
    ["a lone ZWJ", "\u200D", 0],
    ["Hebrew", "שלום עולם", 9],
    ["Arabic", "مرحبا بك", 8],
    ["msgstat's own colour codes", "\u001b[31mred\u001b[39m", 3],
    ["the sandbox's emoji value", "Party \u{1F389} " + FAMILY + " " + RAINBOW_FLAG, 14],
    ["the sanitised right-to-left override", "invoice\\u202efdp.exe", 20],
    ["box and bar glyphs", "…–█▒→", 5],
  ])("%s: %j is %i cells", (_name, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe("cutToWidth", () => {
  it("leaves text that fits as it is", () => {
    expect(cutToWidth("日本語", 6)).toBe("日本語");
  });

  it("ends what it cut in an ellipsis, within the width", () => {
    expect(cutToWidth("abcdef", 4)).toBe("abc…");
    expect(cutToWidth("日本語", 5)).toBe("日本…");
  });

  it("leaves a cell empty rather than split a wide character", () => {
    expect(cutToWidth("日本語", 4)).toBe("日…"); // 3 cells: 日 is 2, … is 1
  });

  it("never cuts inside a grapheme cluster", () => {
    expect(cutToWidth(`${FAMILY}${FAMILY}x`, 4)).toBe(`${FAMILY}…`);
    expect(cutToWidth(`e\u0301e\u0301e\u0301`, 2)).toBe("e\u0301…");
    expect(cutToWidth(`${FRANCE}${FRANCE}`, 3)).toBe(`${FRANCE}…`);
    expect(cutToWidth(`${RAINBOW_FLAG}ab`, 2)).toBe("…");
  });

  it("cuts to nothing at no width", () => {
    expect(cutToWidth("abc", 0)).toBe("");
  });
});

describe("padToWidth", () => {
  it("pads by cells, not by characters", () => {
    expect(padToWidth(FAMILY, 4)).toBe(`${FAMILY}  `);
    expect(padToWidth("日本", 6)).toBe("日本  ");
    expect(padToWidth("e\u0301", 3)).toBe("e\u0301  ");
  });

  it("aligns right", () => {
    expect(padToWidth("日本", 6, "right")).toBe("  日本");
  });

  it("cuts what is wider, and pads the cell a wide character left", () => {
    expect(padToWidth("日本語", 4)).toBe("日… ");
  });

  it("colours the text, not the padding", () => {
    expect(padToWidth("ok", 4, "left", (text) => `<${text}>`)).toBe("<ok>  ");
    expect(padToWidth("", 2, "left", (text) => `<${text}>`)).toBe("  ");
  });
});

describe("padEnd and startWithin", () => {
  it("padEnd never cuts", () => {
    expect(padEnd("日本語", 4)).toBe("日本語");
    expect(padEnd("日", 4)).toBe("日  ");
  });

  it("startWithin keeps whole clusters, and at least one when asked", () => {
    expect(startWithin(`${FAMILY}ab`, 3)).toEqual({ text: `${FAMILY}a`, width: 3 });
    expect(startWithin("日本", 1)).toEqual({ text: "", width: 0 });
    expect(startWithin("日本", 1, true)).toEqual({ text: "日", width: 2 });
  });
});

describe("cutInMiddle", () => {
  it.each([
    ["a text that fits stays whole", "wave-1.csv", 10, "wave-1.csv"],
    ["the middle goes, the end stays", "spring-sale-wave-4.csv", 18, "spring-sa…ve-4.csv"],
    ["an odd width gives the start the extra cell", "spring-sale-wave-4.csv", 11, "sprin…4.csv"],
    ["wide characters are kept whole, the cut a cell short", "顧客リスト最終版.csv", 11, "顧客…版.csv"],
    ["a flag is one cluster", `${FRANCE}${FRANCE}${FRANCE}${FRANCE}`, 5, `${FRANCE}…${FRANCE}`],
    ["two cells or fewer: cut at the end", "abcdef", 2, "a…"],
  ])("%s", (_, text, width, expected) => {
    expect(cutInMiddle(text, width)).toBe(expected);
  });
});
