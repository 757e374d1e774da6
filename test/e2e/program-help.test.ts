// `msgstat --help` alone is answered by bin/msgstat.js from dist/program-help.json, which the build lays
// out at every width (scripts/program-help.mjs): each text must be what the program itself prints.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeOnly, runBin, runCli } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const prepared = JSON.parse(readFileSync(path.join(root, "dist", "program-help.json"), "utf8")) as {
  from: number[];
  texts: string[];
};

/** The prepared text for a terminal `columns` wide: the one whose first width is the last not past it. */
function preparedAt(columns: number): string {
  let at = 0;
  while (at + 1 < prepared.from.length && prepared.from[at + 1]! <= columns) at++;
  return prepared.texts[at]!;
}

describe("msgstat --help, prepared at build time", () => {
  it("is what the source program prints at every width from 1 to 400 columns", async () => {
    const differing: number[] = [];
    for (let columns = 1; columns <= 400; columns++) {
      const source = await runCli(["--help"], { columns });
      expect({ code: source.code, stderr: source.stderr }).toEqual({ code: 0, stderr: "" });
      if (source.stdout !== preparedAt(columns)) differing.push(columns);
    }
    expect(differing).toEqual([]);
    // Laid out anew where a width changes it: many texts, not one text for every width.
    expect(prepared.texts.length).toBeGreaterThan(20);
  });

  it("is the same on a terminal: the program's help has no colour or terminal-only part", async () => {
    for (const columns of [40, 80, 120, 200]) {
      const source = await runCli(["--help"], { columns, tty: true, stderrTty: true });
      expect({ columns, ...source }).toEqual({ columns, code: 0, stdout: preparedAt(columns), stderr: "" });
    }
  });

  it.each([1, 17, 18, 40, 79, 80, 81, 120, 168, 169, 170, 1000])(
    "bin/msgstat.js --help and -h at COLUMNS=%i print the program's help",
    async (columns) => {
      const source = await runCli(["--help"], { columns });
      const env = { COLUMNS: String(columns) };
      expect(await runBin(["--help"], { env })).toEqual(source);
      expect(await runBin(["-h"], { env })).toEqual(source);
    },
  );

  it("on a pipe without COLUMNS, is laid out for 80 columns as the program's is", async () => {
    expect(await runBin(["--help"])).toEqual(await runCli(["--help"], { columns: 80 }));
  });

  it.skipIf(nodeOnly)("without dist/program-help.json, the program answers --help itself", async () => {
    const copy = scratchFolder("msgstat-no-prepared-help-");
    for (const part of ["bin", "package.json", "dist"])
      cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
    rmSync(path.join(copy, "dist", "program-help.json"));
    const run = spawnSync(process.execPath, [path.join(copy, "bin", "msgstat.js"), "--help"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: copy, COLUMNS: "100" },
    });
    const source = await runCli(["--help"], { columns: 100 });
    expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual(source);
  });
});
