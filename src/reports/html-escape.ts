// Every string that lands in the HTML report passes through here, escaped for the context it lands in.
// Server text (campaign ids, batch file names, error codes, statuses) is hostile by assumption: it must
// stay text in element content, in an attribute, in SVG text, in a stylesheet and in inlined JSON.
// Controls and bidirectional overrides are first made visible and inert (as for a terminal, core/text.ts),
// so `invoice\u202Efdp.exe` reads as written and cannot reorder a table.
import { inlineSafe } from "../core/text.js";

const HTML_SPECIALS = /[&<>"']/g;
const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text inside an element (and inside SVG's <text>, <title> and <desc>, which the HTML parser reads alike). */
export function htmlText(text: string): string {
  return inlineSafe(text).replace(HTML_SPECIALS, (ch) => HTML_ENTITIES[ch]!);
}

/** A value inside a double-quoted attribute: both quotes escaped too, so no value can end the attribute. */
export const htmlAttribute = htmlText;

/** Text in an inline <svg>: the same parser reads it, so the same escaping (`</svg><script>` stays text). */
export const svgText = htmlText;

/**
 * A CSS string literal (with its quotes), for server text in a stylesheet: everything but letters, digits,
 * space, `_` and `-` as a hex escape, so neither `</style>` nor a quote nor a backslash can end it.
 */
export function cssString(text: string): string {
  let out = "";
  for (const ch of inlineSafe(text)) {
    out += /^[A-Za-z0-9 _-]$/.test(ch) ? ch : `\\${ch.codePointAt(0)!.toString(16)} `;
  }
  return `"${out}"`;
}

/**
 * JSON for a <script type="application/json"> block: `<`, `>` and `&` as \u escapes, so no `</script>`
 * or `<!--` can end or change the block, and U+2028 and U+2029 escaped, which older JavaScript reads
 * as line ends, and the bidirectional controls, so no view of the source is reordered by them. The text
 * parses back to the same value.
 */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
