// Text wrapped to a terminal's width for the views people read (the message view). Words stay whole
// where they fit; a word longer than a line (a long URL) is broken where the line ends, so no line is
// ever wider than asked, and never inside a grapheme cluster; but a word people copy (an id, a phone
// number) is never broken: it takes a line of its own and may run past the width. Line breaks in the
// text are kept. Widths are terminal cells, as terminal/width.ts measures them.
import { displayWidth, startWithin } from "./width.js";

/**
 * Lines of `text`: the first at most `firstWidth` cells, the others at most `restWidth`, so the caller
 * can put a label before the first and a hanging indent before the rest. Infinity wraps nothing. A word
 * for which `keepWhole` says true is never cut, even where it is wider than a line.
 */
export function wrapText(
  text: string,
  firstWidth: number,
  restWidth = firstWidth,
  keepWhole: (word: string) => boolean = () => false,
): string[] {
  const lines: string[] = [];
  if (firstWidth === Number.POSITIVE_INFINITY) return text.split("\n");
  // A tab's width depends on the column it falls in, which the wrap cannot know: it becomes spaces.
  for (const paragraph of text.replace(/\t/g, "    ").split("\n")) {
    let line = "";
    let used = 0;
    const room = () => Math.max(1, lines.length === 0 ? firstWidth : restWidth);
    const end = () => {
      lines.push(line.trimEnd());
      line = "";
      used = 0;
    };
    for (const token of words(paragraph)) {
      if (token === "") continue;
      const width = displayWidth(token);
      if (used + width <= room()) {
        line += token;
        used += width;
      } else if (token.startsWith(" ")) {
        // Spaces where a line breaks are the break itself.
        if (line !== "") end();
      } else {
        if (line.trim() !== "") end();
        else line = "";
        let rest = token;
        while (!keepWhole(token) && displayWidth(rest) > room()) {
          const head = fitting(rest, room());
          if (head === rest) break; // one character wider than the line: it is the line
          lines.push(head);
          rest = rest.slice(head.length);
        }
        line = rest;
        used = displayWidth(rest);
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/**
 * The paragraph's words and the spaces between them, a number and the percent sign after it ("1 %", as
 * msgstat writes a rate) taken as one word: a line never starts with a lone "%".
 */
function words(paragraph: string): string[] {
  const tokens = paragraph.split(/( +)/);
  // tokens alternate word, spaces, word: i is a run of spaces.
  for (let i = tokens.length - 2; i > 0; i -= 2) {
    if (/\d$/.test(tokens[i - 1]!) && tokens[i + 1]!.startsWith("%"))
      tokens.splice(i - 1, 3, tokens[i - 1]! + tokens[i]! + tokens[i + 1]!);
  }
  return tokens;
}

/** The longest start of `word` that fits in `width` cells (at least one grapheme cluster, so the wrap moves on). */
function fitting(word: string, width: number): string {
  return startWithin(word, width, true).text;
}

/** `first` before the first line and `indent` before the others: a hanging indent. */
export function hanging(lines: readonly string[], first: string, indent: string): string {
  return lines
    .map((line, i) => (line === "" ? (i === 0 ? first.trimEnd() : "") : (i === 0 ? first : indent) + line))
    .join("\n");
}
