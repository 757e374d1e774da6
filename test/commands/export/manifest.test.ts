// The manifest of an export folder: read back as written, none when there is none, one that cannot be
// read as a manifest treated as none with a warning (every partition is then written again), and never
// written through a link at its name.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { manifestFile, readManifest, writeManifest, type Manifest } from "../../../src/commands/export/manifest.js";
import { scratchFolder } from "../../support/scratch.js";

const MANIFEST: Manifest = {
  manifestVersion: 1,
  msgstatVersion: "0.1.0",
  format: "parquet",
  campaigns: { "cmp-a": { lastComplete: "2026-11-20T10:00:00.000Z", messages: 2 } },
  partitions: {
    "campaign_id=cmp-a/created_date=2026-11-19": { digest: "ab", messages: 2, file: { bytes: 10, sha256: "cd" } },
    "campaign_id=cmp-a/created_date=2026-11-20": { digest: null, messages: 0 },
  },
};

async function read(dir: string) {
  const warnings: string[] = [];
  return { manifest: await readManifest(dir, (line) => warnings.push(line)), warnings };
}

describe("the manifest", () => {
  it("is written as indented JSON with a final newline, and read back as it was", async () => {
    const dir = scratchFolder("export-manifest-");
    await writeManifest(dir, MANIFEST);
    expect(manifestFile(dir)).toBe(path.join(dir, "msgstat-export.json"));
    expect(readFileSync(manifestFile(dir), "utf8")).toBe(JSON.stringify(MANIFEST, null, 2) + "\n");
    expect(await read(dir)).toEqual({ manifest: MANIFEST, warnings: [] });
  });

  it("is none, without a word, when there is no file", async () => {
    expect(await read(scratchFolder("export-manifest-"))).toEqual({ manifest: undefined, warnings: [] });
  });

  it("without campaigns (as an older run wrote it) is read with none", async () => {
    const dir = scratchFolder("export-manifest-");
    writeFileSync(manifestFile(dir), JSON.stringify({ manifestVersion: 1, format: "parquet", partitions: {} }));
    expect((await read(dir)).manifest).toEqual({
      manifestVersion: 1,
      format: "parquet",
      partitions: {},
      campaigns: {},
    });
  });

  it.each([
    ["cut short", '{"manifestVersion":1,"partitions":{'],
    ["of another version", '{"manifestVersion":2,"partitions":{}}'],
    ["without partitions", '{"manifestVersion":1,"partitions":null}'],
    ["not JSON at all", "\u0000\u0001"],
  ])("%s is none, with a warning that every partition will be written again", async (_name, text) => {
    const dir = scratchFolder("export-manifest-");
    writeFileSync(manifestFile(dir), text);
    expect(await read(dir)).toEqual({
      manifest: undefined,
      warnings: [`${manifestFile(dir)} is not a manifest msgstat can read; every partition will be written again`],
    });
  });

  it("that cannot be read at all (a folder at its name) is an error naming it", async () => {
    const dir = scratchFolder("export-manifest-");
    mkdirSync(manifestFile(dir));
    await expect(read(dir)).rejects.toThrow(`cannot read ${manifestFile(dir)} (EISDIR)`);
  });

  it("is never written through a link at its name: refused, the link's target untouched", async () => {
    const dir = scratchFolder("export-manifest-");
    const elsewhere = path.join(scratchFolder("export-elsewhere-"), "victim");
    writeFileSync(elsewhere, "keep me");
    symlinkSync(elsewhere, manifestFile(dir));
    await expect(writeManifest(dir, MANIFEST)).rejects.toThrow(manifestFile(dir));
    expect(readFileSync(elsewhere, "utf8")).toBe("keep me");
  });
});
