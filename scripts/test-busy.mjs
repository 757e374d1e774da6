// npm run test:busy: the whole vitest suite while two other processes keep both cores busy, as on
// a CI machine shared with other work. A test that passes only on an idle machine fails here.
//   npm run test:busy                  one run
//   npm run test:busy -- --times 3     three runs in a row, stopping at the first failure
//   npm run test:busy -- --times 3 test/cli   extra arguments go to vitest
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
let times = 1;
const timesAt = args.indexOf("--times");
if (timesAt >= 0) {
  times = Number(args[timesAt + 1]);
  args.splice(timesAt, 2);
  if (!Number.isInteger(times) || times < 1) throw new Error("--times takes a whole number of runs, 1 or more");
}

// One spinning process per core (two on the two-core machine this is written for), at normal priority.
const spinners = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);
const stopSpinners = () => {
  for (const spinner of spinners) if (spinner.exitCode === null) spinner.kill("SIGKILL");
};
process.on("exit", stopSpinners);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

function runSuite() {
  return new Promise((resolve) => {
    const vitest = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...args], {
      cwd: root,
      stdio: "inherit",
    });
    vitest.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const durations = [];
let failed = false;
for (let run = 1; run <= times && !failed; run++) {
  const started = process.hrtime.bigint();
  const code = await runSuite();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  durations.push(`${seconds.toFixed(1)} s`);
  process.stdout.write(
    `\ntest:busy run ${run} of ${times}: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds.toFixed(1)} s, with ${spinners.length} busy processes\n`,
  );
  failed = code !== 0;
}
stopSpinners();
process.stdout.write(`test:busy: ${failed ? "FAILED" : "passed"}; ${durations.join(", ")}\n`);
process.exitCode = failed ? 1 : 0;
