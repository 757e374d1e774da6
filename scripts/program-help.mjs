// Writes dist/program-help.json: `msgstat --help` (the program's own help, no command named) as the
// program just built prints it at every terminal width, so that bin/msgstat.js can answer that one
// request without loading the program (docs/bench.md's --help target). The texts come from the built
// program itself, and test/e2e/program-help.test.ts holds them equal to what it prints at every width.
import { createRequire } from "node:module";
import path from "node:path";
import { writeFileSync } from "node:fs";

/** The program's --help at `columns`, as main() writes it to stdout. */
async function helpAt(main, columns) {
  let stdout = "";
  let stderr = "";
  const code = await main(["--help"], {
    stdout: { write: (text) => ((stdout += text), true) },
    stderr: { write: (text) => ((stderr += text), true) },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns,
    env: {},
    now: () => 0,
    signal: new AbortController().signal,
  });
  if (code !== 0 || stderr !== "") throw new Error(`msgstat --help at ${columns} columns: exit ${code}, ${stderr}`);
  return stdout;
}

export async function writeProgramHelp(root) {
  const { main } = createRequire(import.meta.url)(path.join(root, "dist", "cli.js"));
  // Past its longest line at a very wide terminal, a wider one changes nothing: every width up to that
  // one is laid out, and each text kept once, with the first width it is printed at.
  const wide = await helpAt(main, 10_000);
  const widest = Math.max(...wide.split("\n").map((line) => line.length)) + 1;
  const from = [];
  const texts = [];
  for (let columns = 1; columns <= widest; columns++) {
    const text = await helpAt(main, columns);
    if (text !== texts.at(-1)) {
      from.push(columns);
      texts.push(text);
    }
  }
  if (texts.at(-1) !== wide) throw new Error(`msgstat --help at ${widest} columns differs from a wider one`);
  writeFileSync(path.join(root, "dist", "program-help.json"), `${JSON.stringify({ from, texts })}\n`);
}
