// "@napi-rs/keyring" inside the single executable (scripts/package.mjs bundles this in its place): the
// executable's require() finds built-in modules only, so the native add-on travels as the asset
// keyring.node and is loaded as Node's documentation of single executables advises: written to a
// private temporary folder (mkdtemp makes it 0700), loaded with process.dlopen, then removed (the loaded
// library stays mapped). A failure throws, and src/config/keyring.ts says so as for a missing module.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAsset } from "node:sea";

function load() {
  const folder = mkdtempSync(path.join(tmpdir(), "msgstat-keyring-"));
  try {
    const file = path.join(folder, "keyring.node");
    writeFileSync(file, new Uint8Array(getAsset("keyring.node")), { mode: 0o500, flag: "wx" });
    const binding = { exports: {} };
    process.dlopen(binding, file);
    return binding.exports;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const { AsyncEntry } = load();
