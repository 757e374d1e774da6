// The code cache of the single executable's program (scripts/sea-program.cjs reads it), for
// scripts/package.mjs, which runs this with the pinned Node: V8 takes a cache only from the same V8
// with the same flags.
//   sea-train.cjs train <program.js> <cache file> <JSON array of command lines>
//     compiles program.js as sea-program.cjs does, runs msgstat's main once for each command line,
//     one after the other, with the Io bin/msgstat.js gives a run, then saves what V8 compiled;
//   sea-train.cjs check <program.js> <cache file>
//     fails if V8 rejects the cache, which it would otherwise do without a word.
"use strict";

const { readFileSync, writeFileSync } = require("node:fs");
const { processIo } = require("../bin/process-io.js");
const { compileProgram, runProgram } = require("./sea-compile.cjs");

const [task, programFile, cacheFile, runs] = process.argv.slice(2);
const source = readFileSync(programFile, "utf8");

async function train() {
  const script = compileProgram(source);
  const { main } = runProgram(script, require, programFile);
  for (const argv of JSON.parse(runs)) {
    const code = await main(argv, processIo(new AbortController().signal));
    if (code !== 0) throw new Error(`msgstat ${argv.join(" ")} exited with ${code}`);
  }
  writeFileSync(cacheFile, script.createCachedData());
}

if (task === "check") {
  const { cachedDataRejected } = compileProgram(source, readFileSync(cacheFile));
  if (cachedDataRejected) throw new Error(`V8 rejects ${cacheFile}`);
} else {
  train().catch((error) => {
    process.stderr.write(`sea-train: ${error.message}\n`);
    process.exitCode = 1;
  });
}
