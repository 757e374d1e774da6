import { UsageError } from "../errors.js";

/** Identifiers are opaque strings; only an empty one is refused (it would name another endpoint). */
export function requireId(name: string, value: string): void {
  if (value.trim() === "") throw new UsageError(`<${name}> may not be empty`);
}
