import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";

/** A fresh temporary folder for the running test, removed when the test ends. */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
