// Server text must never reach a terminal raw: an ESC, a C1 control or a bidi override in a
// message could recolour, clear or rewrite the screen, write the clipboard (OSC 52), or reorder
// what a reader sees. Each such character becomes a visible, inert escape like `\x1b` or `\u202e`.
// Data formats (JSON, JSONL, CSV) never go through here: they keep the text exact.

// C0 controls but newline (CR stays unsafe: it could return the cursor and overwrite a line; a tab is shown as \t, as
// it is in one-line places, so one value reads the same under Values and in "Message sent"), DEL and C1, the bidi
// embeddings/overrides/isolates, and lone surrogates.
const C1_AND_BIDI = String.raw`\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const LONE_SURROGATE = String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
const UNSAFE = new RegExp(String.raw`[\u0000-\u0009\u000b-\u001f${C1_AND_BIDI}]|${LONE_SURROGATE}`, "g");
const UNSAFE_OR_LAYOUT = new RegExp(String.raw`[\u0000-\u001f${C1_AND_BIDI}]|${LONE_SURROGATE}`, "g");

const NAMED: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * A cursor or id that a hint invites a person to paste into a shell: server text, so it is made inert
 * and, unless it is plainly safe, single-quoted so `$(...)`, `;` or `|` in it stay text.
 */
export function shellWord(text: string): string {
  const safe = inlineSafe(text);
  return /^[A-Za-z0-9_=+/.,:@%-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, "'\\''")}'`;
}

/** For one-line places (table cells, log lines, error messages): every control, tab and newline made visible. */
export function inlineSafe(text: string): string {
  UNSAFE_OR_LAYOUT.lastIndex = 0;
  return UNSAFE_OR_LAYOUT.test(text) ? text.replace(UNSAFE_OR_LAYOUT, visible) : text;
}

/** For blocks of text (the rendered message in `msgstat message`): newlines kept, the rest (tabs too) made visible. */
export function blockSafe(text: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text) ? text.replace(UNSAFE, visible) : text;
}
