// An error for a person on stderr: its message after a prefix ("msgstat: "), then each hint indented
// by two. On a terminal, each is wrapped at the terminal's width between words, continuation lines
// under the message's text or the hint's indentation; a URL, an id or any word longer than a line is
// never cut (it takes a line of its own). Elsewhere (a pipe, a log file) one line each, unchanged, so
// a log keeps the whole message on the line grep finds. Loaded by cli.ts only when there is an error.
import type { Writable } from "node:stream";
import { inlineSafe } from "../core/text.js";
import { hanging, wrapText } from "../terminal/wrap.js";
import { writeAroundProgress } from "../terminal/spinner.js";

export interface ErrorStream {
  stderr: Writable;
  stderrIsTTY: boolean;
  /** The terminal's width: stdout's, when stderr's own is not known. */
  columns: number;
  stderrColumns?: number;
}

const HINT_INDENT = "  ";
/** Under the text of the message, past "msgstat: ". */
const MESSAGE_INDENT = " ".repeat("msgstat: ".length);

export function writeErrorLines(io: ErrorStream, prefix: string, message: string, hints: readonly string[] = []): void {
  const width = io.stderrIsTTY ? (io.stderrColumns ?? io.columns) : Number.POSITIVE_INFINITY;
  const paragraphs = [laidOut(prefix, message, MESSAGE_INDENT, width)];
  for (const hint of hints)
    for (const line of hint.split("\n")) paragraphs.push(laidOut(HINT_INDENT, line, HINT_INDENT, width));
  writeAroundProgress(io.stderr, `${paragraphs.join("\n")}\n`);
}

/** `text` after `first`, wrapped to `width` with `rest` before its other lines (server text made inert). */
function laidOut(first: string, text: string, rest: string, width: number): string {
  const safe = inlineSafe(text);
  if (width === Number.POSITIVE_INFINITY) return `${first}${safe}`;
  // At least 20 cells of text, however narrow the terminal says it is.
  const lines = wrapText(safe, Math.max(20, width - first.length), Math.max(20, width - rest.length), () => true);
  return hanging(lines, first, rest);
}
