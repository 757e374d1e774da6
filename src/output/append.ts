// Appending to a file msgstat owns and reads back itself (export's spill): no temporary file, since
// the file is never anyone's result, only a step towards one.
import { promises as fs } from "node:fs";

/** Appends `text` to `file`, creating it (private to its owner) if need be. */
export async function appendToFile(file: string, text: string): Promise<void> {
  await fs.appendFile(file, text, { mode: 0o600 });
}
