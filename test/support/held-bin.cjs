// The built program (dist/cli.js), run as bin/msgstat.js runs it, with the one thing a user's run never
// has: the Context's `atStep` hook. `node held-bin.cjs <step> <msgstat arguments...>` says
// "msgstat export: paused at <step>" on stderr the first time the run reaches that step, then holds it
// there for ever, so that a test kills it exactly there (test/e2e/export-kill.test.ts), or looks at the
// files meanwhile (stats' "report-written": test/e2e/monitoring.test.ts).
"use strict";

const path = require("node:path");
const { main } = require(path.join(__dirname, "..", "..", "dist", "cli.js"));
const { processIo } = require(path.join(__dirname, "..", "..", "bin", "process-io.js"));

const [step, ...argv] = process.argv.slice(2);
let held = false;

void main(argv, {
  ...processIo(new AbortController().signal),
  atStep: (reached) => {
    if (reached !== step || held) return Promise.resolve();
    held = true;
    process.stderr.write(`msgstat export: paused at ${step}\n`);
    // A timer keeps the process alive until the test kills it.
    return new Promise(() => setInterval(() => undefined, 60_000));
  },
}).then((code) => {
  process.exitCode = code;
});
