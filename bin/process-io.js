// The Io a run of msgstat gets from this process: its streams, what they are attached to, the environment
// and the clock. bin/msgstat.js runs the program with it; the run that trains the executable's code cache
// (scripts/sea-train.cjs) and the tests' held run (test/support/held-bin.cjs) take the same, so that each
// runs as a user's run does.
"use strict";

/**
 * COLUMNS, when set, wins over the terminal's own width, as for ls: a script can ask for a layout. Only a
 * positive whole number is a width: abc, 0 and -5 alike are ignored.
 */
function askedColumns() {
  return /^\s*[1-9]\d*\s*$/.test(process.env.COLUMNS ?? "") ? Number(process.env.COLUMNS) : undefined;
}

/** The Io of this process, its run stopped by `signal`. */
function processIo(signal) {
  const asked = askedColumns();
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: asked || process.stdout.columns || 80,
    rows: process.stdout.rows || undefined,
    // Errors are wrapped to stderr's terminal, which may be one while stdout is a file or a pipe.
    stderrColumns: asked || process.stderr.columns || undefined,
    env: process.env,
    now: () => Date.now(),
    signal,
    // Asked for only by `auth login`: Node builds process.stdin's stream when it is first asked for.
    stdin: () => process.stdin,
  };
}

module.exports = { askedColumns, processIo };
