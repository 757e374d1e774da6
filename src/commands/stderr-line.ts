// One line on stderr for a person (a warning, a note, an error and its hints): server text made safe
// for the terminal, and written around a spinner's progress line.
import type { Writable } from "node:stream";
import { inlineSafe } from "../core/text.js";
import { writeAroundProgress } from "../terminal/spinner.js";

export function stderrLine(io: { stderr: Writable }, prefix: string, line: string): void {
  writeAroundProgress(io.stderr, `${prefix}${inlineSafe(line)}\n`);
}
