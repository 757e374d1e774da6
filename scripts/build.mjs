// Bundles src/ into dist/ with esbuild: one file per entry plus lazily loaded chunks, so that
// `msgstat --help` loads commander alone and each command pulls in only what it uses.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

await build({
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
  // Bundled CommonJS dependencies (commander, cli-table3) call require() for Node built-ins.
  banner: { js: 'import { createRequire as __msgstatRequire } from "node:module"; const require = __msgstatRequire(import.meta.url);' },
  logLevel: "warning",
});
