// Bundles src/ into dist/ with esbuild: one file per entry plus lazily loaded chunks, so that
// `msgstat --help` loads commander and little else, a command loads its own code, and heavy
// dependencies load only when a run uses them.
import { build, transform } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// Chunk names carry content hashes: without a clean start, old chunks would pile up in dist/.
rmSync(path.join(root, "dist"), { recursive: true, force: true });

// esbuild splits only ES modules: it writes the program as ES modules, a file for each entry and a chunk
// for each set of them that share code, and each file is then made CommonJS, which Node loads without
// its ES module loader, a large share of `msgstat --help` on Node 20 (bench/HISTORY.md, "Commands
// loaded by name"). Each command is a chunk of its own (src/cli.ts loads it by name).
// commander requires node:child_process when it loads, for executable subcommands msgstat never has;
// that module and node:net under it would load on every `msgstat --help`. Commander is given a
// stand-in that loads the real module if it is ever called.
const childProcessOnDemand = {
  name: "child-process-on-demand",
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, ({ importer }) =>
      importer.includes(`${path.sep}node_modules${path.sep}commander${path.sep}`)
        ? { path: "child-process-on-demand", namespace: "msgstat" }
        : undefined,
    );
    build.onLoad({ filter: /^child-process-on-demand$/, namespace: "msgstat" }, () => ({
      contents: 'exports.spawn = (...args) => require("node:child_process").spawn(...args);',
      loader: "js",
    }));
  },
};

const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli.ts", sandbox: "src/sandbox/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  // A native module (it loads a prebuilt binary for the platform): required from node_modules at run time.
  external: ["@napi-rs/keyring"],
  logLevel: "warning",
  plugins: [childProcessOnDemand],
  write: false,
});
for (const file of outputFiles) {
  const { code } = await transform(file.text, {
    format: "cjs",
    platform: "node",
    target: "node20",
    // import() of a chunk becomes require(): no file goes through the ES module loader.
    supported: { "dynamic-import": false },
    logLevel: "warning",
  });
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, code);
}
writeFileSync(path.join(root, "dist", "package.json"), '{ "type": "commonjs" }\n');

// The man page is made from the program just built and the docs (scripts/man-page.mjs).
const { writeManPage } = await import("./man-page.mjs");
await writeManPage(root);

// `msgstat --help` at every width, prepared for bin/msgstat.js (scripts/program-help.mjs).
const { writeProgramHelp } = await import("./program-help.mjs");
await writeProgramHelp(root);
