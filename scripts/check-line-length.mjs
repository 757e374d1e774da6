// Line lengths `npm test` holds: no line of src/ over 120 characters (Prettier keeps code within its
// width but does not break long strings or comments), and README.md, the first thing a person reads
// and often in an 80-column terminal, at most 220 lines and no line over 80 characters outside code
// blocks (a command or an output sample is kept whole there, as it must be typed or as it prints);
// and docs/bench.md's prose (below).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "..");
const problems = [];

const SOURCE_LIMIT = 120;
for (const name of readdirSync(path.join(root, "src"), { recursive: true, encoding: "utf8" })) {
  if (!name.endsWith(".ts")) continue;
  const lines = readFileSync(path.join(root, "src", name), "utf8").split("\n");
  lines.forEach((line, index) => {
    const length = [...line].length;
    if (length > SOURCE_LIMIT) problems.push(`src/${name}:${index + 1}: ${length} characters (over ${SOURCE_LIMIT})`);
  });
}

const README_WIDTH = 80;
const README_LINES = 220;
const readme = readFileSync(path.join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n");
if (readme.length > README_LINES) problems.push(`README.md: ${readme.length} lines (over ${README_LINES})`);
let fenced = false;
readme.forEach((line, index) => {
  if (/^\s*```/.test(line)) fenced = !fenced;
  else if (!fenced && [...line].length > README_WIDTH) {
    problems.push(`README.md:${index + 1}: ${[...line].length} characters outside a code block (over ${README_WIDTH})`);
  }
});

// docs/bench.md is read in a clone, in an editor: prose at most 100 characters a line. Its tables, code
// blocks and the run that `npm run bench:quote` puts between its markers are kept as written.
const BENCH_WIDTH = 100;
let quoted = false;
fenced = false;
readFileSync(path.join(root, "docs", "bench.md"), "utf8")
  .split("\n")
  .forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (line.startsWith("<!-- bench:latest:")) quoted = line.includes(":start");
    else if (!fenced && !quoted && !line.startsWith("|") && [...line].length > BENCH_WIDTH) {
      problems.push(`docs/bench.md:${index + 1}: ${[...line].length} characters outside a table (over ${BENCH_WIDTH})`);
    }
  });

if (problems.length > 0) {
  console.error(
    `${problems.length} line-length problems (wrap comments and prose, split strings):\n${problems.join("\n")}`,
  );
  process.exit(1);
}
