#!/usr/bin/env node
// The executable: real process streams and signals in, an exit code out. Everything else is in dist/cli.js.
// CommonJS (bin/package.json says so), as dist/ is (scripts/build.mjs): Node's ES module loader never
// starts, which on Node 20 is most of what `msgstat --version` would cost (docs/bench.md's --version target).
"use strict";

const argv = process.argv.slice(2);

/**
 * The program in dist/; in a clone where nothing built it yet (npm install does not: a `prepare` script would have
 * npm warn on every install of the package), one line saying how, not a stack.
 */
function loadProgram() {
  try {
    // A literal path: the single executable's bundle (scripts/package.mjs) carries dist/ inside.
    return require("../dist/cli.js");
  } catch (error) {
    const cli = require("node:path").join(__dirname, "..", "dist", "cli.js");
    // Inside the single executable there is no dist/ to build: its own failure is the one to show.
    if (require("node:fs").existsSync(cli) || require("node:sea").isSea()) throw error;
    const root = require("node:path").dirname(__dirname);
    process.stderr.write(`msgstat: ${cli} is not built yet: run npm run build in ${root}\n`);
    process.exit(1);
  }
}

/** A reader that goes away (msgstat ... | head -1) is the end of the run, not a crash. */
function endQuietlyWhenStdoutCloses() {
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
}

/**
 * `msgstat --help` alone, written from dist/program-help.json: the build laid the program's help out at every
 * width (scripts/program-help.mjs) and a test holds each text equal to the program's own, so this one request
 * skips loading commander and building the program (docs/bench.md's --help target). False, and
 * the program answers, when the file is missing or unreadable.
 */
function wrotePreparedHelp() {
  let prepared;
  try {
    prepared = require("../dist/program-help.json");
  } catch {
    return false;
  }
  const columns = require("./process-io.js").askedColumns() || process.stdout.columns || 80;
  let at = 0;
  while (at + 1 < prepared.from.length && prepared.from[at + 1] <= columns) at++;
  endQuietlyWhenStdoutCloses();
  process.stdout.write(prepared.texts[at]);
  return true;
}

async function run() {
  const { main, InterruptedError } = loadProgram();
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
  endQuietlyWhenStdoutCloses();
  const code = await main(argv, require("./process-io.js").processIo(controller.signal));
  // Interrupted: output still queued for a reader that may never read is dropped, not waited for.
  if (signalled) process.exit(code);
  process.exitCode = code;
}

const alone = argv.length === 1 ? argv[0] : undefined;
if (alone === "--version" || alone === "-V") {
  // `msgstat --version` alone is answered here as commander answers it (the version and a newline
  // on stdout, exit 0), without loading the program.
  process.stdout.write(`${require("../package.json").version}\n`);
} else if (alone === "--help" || alone === "-h") {
  if (!wrotePreparedHelp()) void run();
} else {
  // A failure to load the program is not caught: Node prints it and exits 1, as for any crash.
  void run();
}
