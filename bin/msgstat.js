#!/usr/bin/env node
// The executable: real process streams and signals in, an exit code out. Everything else is in dist/cli.js.
import { main } from "../dist/cli.js";
import { InterruptedError } from "../dist/cli.js";

const controller = new AbortController();
let signalled = false;
for (const name of ["SIGINT", "SIGTERM"]) {
  process.on(name, () => {
    // A second Ctrl-C means "now": no more cleanup.
    if (signalled) process.exit(name === "SIGINT" ? 130 : 143);
    signalled = true;
    controller.abort(new InterruptedError(name));
  });
}
// A reader that goes away (msgstat ... | head -1) is the end of the run, not a crash.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  columns: process.stdout.columns || Number(process.env.COLUMNS) || 80,
  env: process.env,
  now: () => Date.now(),
  signal: controller.signal,
});
