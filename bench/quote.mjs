// `npm run bench:quote [-- --partial]`: puts the latest benchmark table (bench/results/latest.md,
// written by bench/run.mjs) into docs/bench.md between its bench markers, so the figures the docs quote
// are the file's, never retyped. docs/bench.md is the table's one place: the README points to it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const START = "<!-- bench:latest:start -->";
const END = "<!-- bench:latest:end -->";

const latest = readFileSync(`${root}bench/results/latest.md`, "utf8").trim();
// The docs quote a whole run of this build: a --quick one, one that left sections out (BENCH_ROWS), or
// one beside a baseline build (BENCH_BASELINE) is refused unless --partial says it is meant.
const { config } = JSON.parse(readFileSync(`${root}bench/results/latest.json`, "utf8"));
const missing = ["export", "latency", "link", "replay", "ttfr", "startup"].filter(
  (section) => !(config.sections ?? []).includes(section),
);
if (!process.argv.includes("--partial") && (config.quick || missing.length > 0 || config.baseline)) {
  const what = config.quick
    ? "a --quick run"
    : config.baseline
      ? "a run beside a baseline build (BENCH_BASELINE)"
      : `a run without ${missing.join(", ")} (BENCH_ROWS)`;
  console.error(`bench/results/latest.md is ${what}; run \`npm run bench\` first, or quote it anyway with --partial`);
  process.exit(1);
}
for (const file of ["docs/bench.md"]) {
  const text = readFileSync(root + file, "utf8");
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file}: no ${START} … ${END} markers`);
  writeFileSync(root + file, `${text.slice(0, from + START.length)}\n${latest}\n${text.slice(to)}`);
  console.log(`quoted bench/results/latest.md in ${file}`);
}
