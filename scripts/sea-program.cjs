// dist/cli.js inside the single executable (scripts/package.mjs bundles this in its place for
// bin/msgstat.js): inside it, require() finds Node's own modules only, so dist/ travels as the asset
// program.js, one file, compiled here with program.cache, the code V8 compiled for it in a training run
// at build time (scripts/sea-train.cjs). Node's own useCodeCache would hold only what is compiled
// before the program runs, so each run would still compile most of what it calls
// (docs/bench.md, "The executable's start-up"). A cache V8 rejects costs time, not correctness.
"use strict";

const { getAsset } = require("node:sea");
const { compileProgram, runProgram } = require("./sea-compile.cjs");

const script = compileProgram(getAsset("program.js", "utf8"), Buffer.from(getAsset("program.cache")));
// Only a build whose cache does not fit its Node would say this; npm run package refuses to ship one.
if (script.cachedDataRejected) {
  process.stderr.write("msgstat: warning: this executable's code cache does not fit it; it runs, only slower\n");
}
module.exports = runProgram(script, require, __filename);
