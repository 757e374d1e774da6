// Bundles src/ into dist/ with esbuild: one file per entry plus lazily loaded chunks, so that
// `msgstat --help` loads commander and little else, and a command loads the commands' code in one
// chunk (src/commands/runtime.ts) and heavy dependencies only when it uses them.
import { build, transform } from "esbuild";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const REQUIRE_BANNER =
  'import { createRequire as __msgstatRequire } from "node:module"; const require = __msgstatRequire(import.meta.url);';
const FREE_REQUIRE = "__msgstat_free_require__";

/**
 * esbuild puts the banner on every output file, but only the chunk with its runtime's `__require` uses
 * `require`; each other chunk's createRequire call cost start-up for nothing (--help loads 5 files).
 * A file keeps the banner when esbuild itself, which knows the scopes, finds a free `require` in it.
 */
async function dropUnusedBanners() {
  const files = readdirSync(path.join(root, "dist"), { recursive: true }).filter((file) =>
    String(file).endsWith(".js"),
  );
  for (const file of files) {
    const target = path.join(root, "dist", String(file));
    const text = readFileSync(target, "utf8");
    if (!text.startsWith(`${REQUIRE_BANNER}\n`)) throw new Error(`dist/${file} does not start with the require banner`);
    const code = text.slice(REQUIRE_BANNER.length + 1);
    const { code: checked } = await transform(code, {
      format: "esm",
      loader: "js",
      define: { require: FREE_REQUIRE },
      logLevel: "silent",
    });
    if (!checked.includes(FREE_REQUIRE)) writeFileSync(target, code);
  }
}
// Chunk names carry content hashes: without a clean start, old chunks would pile up in dist/.
rmSync(path.join(root, "dist"), { recursive: true, force: true });

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
  // A native module (it loads a prebuilt binary for the platform): required from node_modules at run time.
  external: ["@napi-rs/keyring"],
  // Bundled CommonJS dependencies (commander) call require() for Node built-ins.
  banner: { js: REQUIRE_BANNER },
  logLevel: "warning",
});
await dropUnusedBanners();
