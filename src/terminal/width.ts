// How many terminal cells text takes, for every view a person reads (the listing on a terminal, the
// stats report, the message view): string-width measures it (wide East Asian characters and emoji,
// ZWJ sequences and flags take two, combining marks and variation selectors none), and text is cut
// between grapheme clusters, never inside one. msgstat's own colour codes are not counted.
// string-width compiles a large regular expression as it loads, a cost start-up would notice, so data
// formats never load this module: the commands import the views that need it when they need them.
import stringWidth from "string-width";

const ELLIPSIS = "…";
const graphemes = new Intl.Segmenter();

/** Terminal cells `text` takes. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * The longest start of `text` that fits in `width` cells, with its width: whole grapheme clusters only,
 * and with `atLeastOne` the first cluster even when it alone is wider.
 */
export function startWithin(text: string, width: number, atLeastOne = false): { text: string; width: number } {
  let used = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    const cells = stringWidth(segment);
    if (used + cells > width && !(atLeastOne && index === 0)) return { text: text.slice(0, index), width: used };
    used += cells;
  }
  return { text, width: used };
}

/** `text` cut to `width` cells, ending in "…" when anything was cut. */
export function cutToWidth(text: string, width: number): string {
  return stringWidth(text) <= width ? text : cutWider(text, width).text;
}

/**
 * `text`, known to be wider than `width`, cut to it with "…" at the end; its width may be a cell less
 * (a wide character that did not fit).
 */
function cutWider(text: string, width: number): { text: string; width: number } {
  if (width <= 0) return { text: "", width: 0 };
  const start = startWithin(text, width - 1);
  return { text: start.text + ELLIPSIS, width: start.width + 1 };
}

/**
 * `text` cut to `width` cells by taking out its middle: "spring-s…ve-4.csv". For names that differ at
 * their end (files of a series: wave-1.csv, wave-2.csv), which a cut at the end would make all alike.
 */
export function cutInMiddle(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 2) return cutToWidth(text, width);
  const head = startWithin(text, Math.ceil((width - 1) / 2));
  const clusters = [...graphemes.segment(text)].map(({ segment }) => segment);
  let tail = "";
  let tailWidth = 0;
  for (let i = clusters.length - 1; i >= 0; i--) {
    const cells = stringWidth(clusters[i]!);
    if (head.width + 1 + tailWidth + cells > width) break;
    tail = clusters[i]! + tail;
    tailWidth += cells;
  }
  return head.text + ELLIPSIS + tail;
}

/** `text` followed by spaces up to `width` cells; never cut (a wider text stays as it is). */
export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - stringWidth(text)));
}

/**
 * `text` in exactly `width` cells: cut with "…" when wider, else padded with spaces on the right
 * (`align` "left") or on the left ("right"). `style` colours the text, not the padding.
 */
export function padToWidth(
  text: string,
  width: number,
  align: "left" | "right" = "left",
  style?: (text: string) => string,
): string {
  const measured = stringWidth(text);
  const shown = measured <= width ? { text, width: measured } : cutWider(text, width);
  const padding = " ".repeat(width - shown.width);
  const styled = style && shown.text !== "" ? style(shown.text) : shown.text;
  return align === "left" ? styled + padding : padding + styled;
}
