// The end-to-end tests run bin/msgstat.js, which loads dist/: build it once before any test file.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
}
