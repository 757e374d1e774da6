// The layer rules of .dependency-cruiser.cjs, tried on small trees made here: an upward import, a
// circle, the sandbox leaning on the client, and one command importing another each fail with the
// rule's name; a tree that keeps the rules passes. `npm test` also runs the same rules over src/.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
function cruise(files: Record<string, string>): { code: number | null; output: string } {
  const dir = scratchFolder("msgstat-layers-");
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }),
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs"),
      "src",
      "--config",
      path.join(root, ".dependency-cruiser.cjs"),
      "--output-type",
      "err",
    ],
    { cwd: dir, encoding: "utf8" },
  );
  return { code: result.status, output: result.stdout + result.stderr };
}

const base = {
  "src/core/message.ts": "export const MESSAGE = 1;\n",
  "src/terminal/table.ts": 'import { MESSAGE } from "../core/message.js";\nexport const table = MESSAGE;\n',
  "src/commands/messages/run.ts": 'import { table } from "../../terminal/table.js";\nexport const run = table;\n',
  "src/cli.ts": 'import { run } from "./commands/messages/run.js";\nexport const main = run;\n',
  "src/sandbox/server.ts": 'import { MESSAGE } from "../core/message.js";\nexport const serve = MESSAGE;\n',
};

describe("the layer rules", () => {
  it("pass a tree whose imports all run downward", () => {
    const { code, output } = cruise(base);
    expect(output).toContain("no dependency violations found");
    expect(code).toBe(0);
  });

  it.each([
    [
      "an upward import",
      { "src/core/message.ts": 'import { table } from "../terminal/table.js";\nexport const MESSAGE = table;\n' },
      "error core-imports-only-below: src/core/message.ts → src/terminal/table.ts",
    ],
    [
      "an import of cli.ts",
      { "src/terminal/table.ts": 'import { main } from "../cli.js";\nexport const table = main;\n' },
      "error terminal-imports-only-below: src/terminal/table.ts → src/cli.ts",
    ],
    [
      "a circle",
      {
        "src/core/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
        "src/core/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
      },
      "error no-circular: src/core/a.ts",
    ],
    [
      "the sandbox leaning on the client",
      { "src/sandbox/server.ts": 'import { table } from "../terminal/table.js";\nexport const serve = table;\n' },
      "error sandbox-stands-apart: src/sandbox/server.ts → src/terminal/table.ts",
    ],
    [
      "the client importing the sandbox",
      { "src/terminal/table.ts": 'import { serve } from "../sandbox/server.js";\nexport const table = serve;\n' },
      "error client-not-into-sandbox: src/terminal/table.ts → src/sandbox/server.ts",
    ],
    [
      "one command importing another",
      { "src/commands/stats/run.ts": 'import { run } from "../messages/run.js";\nexport const stats = run;\n' },
      "error commands-apart: src/commands/stats/run.ts → src/commands/messages/run.ts",
    ],
    [
      "the config layer importing a command",
      { "src/config/profile.ts": 'import { run } from "../commands/messages/run.js";\nexport const profile = run;\n' },
      "error config-imports-only-below: src/config/profile.ts → src/commands/messages/run.ts",
    ],
    [
      "terminal importing the config layer",
      {
        "src/config/profile.ts": "export const profile = 1;\n",
        "src/terminal/table.ts": 'import { profile } from "../config/profile.js";\nexport const table = profile;\n',
      },
      "error terminal-imports-only-below: src/terminal/table.ts → src/config/profile.ts",
    ],
    [
      "a module outside every layer",
      { "src/helpers.ts": 'import { MESSAGE } from "./core/message.js";\nexport const h = MESSAGE;\n' },
      "error only-files-in-a-layer: src/helpers.ts → src/core/message.ts",
    ],
  ])("fail on %s, naming the rule", (_what, change, expected) => {
    const { code, output } = cruise({ ...base, ...change });
    expect(output).toContain(expected);
    expect(code).not.toBe(0);
  });
});
