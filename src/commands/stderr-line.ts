// One line on stderr for a person (a warning, a note, an error and its hints): server text made safe
// for the terminal, and written around a spinner's progress line. Part of the commands' code
// (runtime.ts), which the program's --help never loads.
import { inlineSafe } from "../core/text.js";
import { writeAroundProgress } from "../render/spinner.js";
import type { Io } from "./context.js";

export function stderrLine(io: Pick<Io, "stderr">, prefix: string, line: string): void {
  writeAroundProgress(io.stderr, `${prefix}${inlineSafe(line)}\n`);
}
