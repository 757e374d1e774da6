// Bundles src/ into dist/ with esbuild: one file per entry plus lazily loaded chunks, so that
// `msgstat --help` loads commander and little else, a command loads its own code, and heavy
// dependencies load only when a run uses them.
import { build, transform } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

// Chunk names carry content hashes: without a clean start, old chunks would pile up in dist/.
rmSync(path.join(root, "dist"), { recursive: true, force: true });

// esbuild splits only ES modules: it writes the program as ES modules, a file for each entry and a chunk
// for each set of them that share code, and each file is then made CommonJS, which Node loads without
// its ES module loader (on Node 20 that loader's start and its cost per file were a fifth of
// `msgstat --help`, docs/bench.md). Each command is a chunk of its own (src/cli.ts loads it by name).
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
  plugins: [
    {
      name: "slim-undici",
      setup(builder) {
        builder.onResolve({ filter: /^undici$/ }, () => ({ path: slimUndici }));
      },
    },
  ],
  logLevel: "warning",
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
