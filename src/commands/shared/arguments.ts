// Small checks and parsers shared by the commands' flags.
import { UsageError } from "../../core/errors.js";

/** Identifiers are opaque strings; only an empty one is refused (it would name another endpoint). */
export function requireId(name: string, value: string): void {
  if (value.trim() === "") throw new UsageError(`<${name}> may not be empty`);
}

/** -o: a file name, if given at all. */
export function outputPath(file: string | undefined): string | undefined {
  if (file !== undefined && file.trim() === "") throw new UsageError("-o needs a file name");
  return file;
}

/** For a repeatable flag: every value, in order. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
