// Bundles src/ into dist/ with esbuild: one file per entry plus lazily loaded chunks, so that
// `msgstat --help` loads commander and little else, and a command loads the commands' code in one
// chunk (src/commands/runtime.ts) and heavy dependencies only when it uses them.
import { build, transform } from "esbuild";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const slimUndici = path.join(root, "scripts", "undici-slim.mjs");

/** Names src/ imports from "undici" (type-only imports aside) must all come from the slim entry. */
async function checkSlimUndici() {
  const exported = new Set(Object.keys(await import(pathToFileURL(slimUndici).href)));
  const files = readdirSync(path.join(root, "src"), { recursive: true }).filter((file) => String(file).endsWith(".ts"));
  for (const file of files) {
    const text = readFileSync(path.join(root, "src", String(file)), "utf8");
    for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"undici"/g)) {
      if (match[1]) continue;
      for (const part of match[2].split(",")) {
        const name = part.trim();
        if (name === "" || name.startsWith("type ")) continue;
        const imported = name.split(/\s+as\s+/)[0];
        if (!exported.has(imported))
          throw new Error(
            `src/${file} imports ${imported} from "undici", which scripts/undici-slim.mjs does not export`,
          );
      }
    }
    if (/import\s+\*\s+as\s+\w+\s+from\s+"undici"|import\s+\w+\s+from\s+"undici"/.test(text))
      throw new Error(`src/${file}: import named exports from "undici" (scripts/undici-slim.mjs)`);
  }
}
await checkSlimUndici();

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
  // Bundled CommonJS dependencies (commander, undici) call require() for Node built-ins.
  banner: { js: REQUIRE_BANNER },
  plugins: [
    {
      name: "slim-undici",
      setup(builder) {
        builder.onResolve({ filter: /^undici$/ }, () => ({ path: slimUndici }));
      },
    },
  ],
  logLevel: "warning",
});
await dropUnusedBanners();
