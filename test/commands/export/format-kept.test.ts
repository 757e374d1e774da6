// A dataset holds one format. Without a manifest msgstat can read (lost, or corrupt), the next run takes
// the format of the files present, and writes every partition again in it; files of both formats and no
// manifest are refused with advice, and so is a --format naming the other.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, pageForward } from "../../sandbox/http-helpers.js";
import { dataFiles, query } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const CAMPAIGN = "cmp-loyalty-es";
const FORMATS = ["parquet", "jsonl.gz"] as const;
let sandbox: Sandbox;
let ids: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 4, messages: 200, now: FIXED_NOW });
  ids = (await pageForward(sandbox.url, `/campaigns/${CAMPAIGN}/messages`, 1000)).messages.map((m) => m.id).sort();
});
afterAll(() => sandbox.close());

const exportTo = (dir: string, ...args: string[]) =>
  runCli(["--base-url", sandbox.url, "export", CAMPAIGN, "--to", dir, ...args], { env: { TZ: "UTC" } });

async function idsRead(dir: string, format: string): Promise<string[]> {
  const from =
    format === "parquet"
      ? `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`
      : `read_json('${dir}/**/*.jsonl.gz', hive_partitioning = true, format = 'newline_delimited')`;
  return (await query(`SELECT id FROM ${from} ORDER BY id`)).map((row) => row.id as string);
}

/** A dataset of `format`, with its manifest then lost or corrupt. */
async function withoutManifest(format: string, manifest: "lost" | "corrupt") {
  const dir = scratchFolder("export-format-");
  expect((await exportTo(dir, "--format", format)).code).toBe(0);
  const files = Object.keys(dataFiles(dir)).sort();
  const file = path.join(dir, "msgstat-export.json");
  if (manifest === "lost") rmSync(file);
  else writeFileSync(file, '{"manifestVersion": 1, "format": "parq');
  return { dir, files, file };
}

const summary = (written: number) =>
  `exported 1 of 1 campaign, ${ids.length} messages: ${written} files written, 0 unchanged\n`;

describe("msgstat export keeps a dataset's format without its manifest", () => {
  for (const format of FORMATS) {
    it(`a lost manifest of a ${format} dataset: rebuilt in ${format}`, async () => {
      const { dir, files, file } = await withoutManifest(format, "lost");
      expect(await exportTo(dir)).toEqual({ code: 0, stdout: "", stderr: summary(files.length) });
      expect(Object.keys(dataFiles(dir)).sort()).toEqual(files);
      expect(await idsRead(dir, format)).toEqual(ids);
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ format });
    });

    it(`a corrupt manifest of a ${format} dataset: said, and rebuilt in ${format}`, async () => {
      const { dir, files, file } = await withoutManifest(format, "corrupt");
      expect(await exportTo(dir)).toEqual({
        code: 0,
        stdout: "",
        stderr:
          `warning: ${file} is not a manifest msgstat can read; every partition will be written again\n` +
          summary(files.length),
      });
      expect(Object.keys(dataFiles(dir)).sort()).toEqual(files);
      expect(await idsRead(dir, format)).toEqual(ids);
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ format });
    });
  }

  it("a --format naming the other is refused as with a manifest, exit 2", async () => {
    const { dir, files } = await withoutManifest("jsonl.gz", "lost");
    expect(await exportTo(dir, "--format", "parquet")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --to ${dir} holds a jsonl.gz dataset, not parquet\n` +
        "  Leave out --format (or give --format jsonl.gz), or export to another folder.\n",
    });
    expect(Object.keys(dataFiles(dir)).sort()).toEqual(files);
  });

  it("files of both formats and no manifest: refused with advice, exit 2, nothing written", async () => {
    const { dir, files } = await withoutManifest("jsonl.gz", "lost");
    const stray = files[0]!.replace(/\.jsonl\.gz$/, ".parquet");
    copyFileSync(path.join(dir, files[0]!), path.join(dir, stray));
    expect(await exportTo(dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --to ${dir} holds both messages.parquet and messages.jsonl.gz files, ` +
        "and no manifest says which is its format\n" +
        "  A dataset holds one format: remove the other's files, or export to another folder.\n",
    });
    expect(Object.keys(dataFiles(dir)).sort()).toEqual([...files, stray].sort());
  });

  it("files of the other format beside a manifest (an older msgstat's switch) are named in a warning", async () => {
    const dir = scratchFolder("export-format-");
    expect((await exportTo(dir)).code).toBe(0);
    const files = Object.keys(dataFiles(dir)).sort();
    writeFileSync(path.join(dir, files[0]!.replace(/\.parquet$/, ".jsonl.gz")), "stale");
    expect(await exportTo(dir)).toEqual({
      code: 0,
      stdout: "",
      stderr:
        `warning: ${dir} also holds messages.jsonl.gz files, which export does not update ` +
        "(the dataset's format is parquet): remove them, or a reader of them sees stale messages\n" +
        `exported 1 of 1 campaign, ${ids.length} messages: 0 files written, ${files.length} unchanged\n`,
    });
  });
});
