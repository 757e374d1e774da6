// The end-to-end tests run bin/msgstat.js, and the "bundle" project runs dist/cli.js: build dist/ once
// before any test file (each project inherits this setup; the second call finds it done).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

let built = false;

export default function setup(): void {
  if (built) return;
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  built = true;
}
