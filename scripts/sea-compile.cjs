// How the single executable compiles its program, program.js (scripts/package.mjs): one way, for the
// executable itself (sea-program.cjs) and for the run that trains and checks its code cache
// (sea-train.cjs), since V8 takes a cache only for the script it was made from, compiled alike.
"use strict";

const path = require("node:path");
const { Script } = require("node:vm");

/** program.js compiled, with its code cache when one is given: `cachedDataRejected` says whether V8 took it. */
function compileProgram(source, cachedData) {
  return new Script(source, { filename: "msgstat.cjs", cachedData });
}

/** What the compiled program exports, run as the CommonJS module `filename` whose require is `require`. */
function runProgram(script, require, filename) {
  const program = { exports: {} };
  script.runInThisContext()(require, program, filename, path.dirname(filename));
  return program.exports;
}

module.exports = { compileProgram, runProgram };
