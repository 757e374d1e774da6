// A partition file deleted, cut short or replaced by hand is written again by the next run, even though
// its messages did not change: the manifest records each file as written (size and SHA-256), and an
// unchanged digest is trusted only with its file. The summary counts the files the dataset holds.
import { copyFileSync, readFileSync, rmSync, truncateSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, pageForward } from "../../sandbox/http-helpers.js";
import { dataFiles, query } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const CAMPAIGN = "cmp-spring-sale";
let sandbox: Sandbox;
let ids: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, messages: 200, now: FIXED_NOW });
  ids = (await pageForward(sandbox.url, `/campaigns/${CAMPAIGN}/messages`, 1000)).messages.map((m) => m.id).sort();
});
afterAll(() => sandbox.close());

const exportTo = (dir: string, format: string) =>
  runCli(["--base-url", sandbox.url, "export", CAMPAIGN, "--to", dir, "--format", format], { env: { TZ: "UTC" } });

/** The ids DuckDB reads from the dataset, each once per row. */
async function idsRead(dir: string, format: string): Promise<string[]> {
  const from =
    format === "parquet"
      ? `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`
      : `read_json('${dir}/**/*.jsonl.gz', hive_partitioning = true, format = 'newline_delimited')`;
  const rows = await query(`SELECT id FROM ${from} ORDER BY id`);
  return rows.map((row) => row.id as string);
}

/** A dataset of the campaign, and its partitions' files (at least three). */
async function dataset(format: string) {
  const dir = scratchFolder("export-repair-");
  expect((await exportTo(dir, format)).code).toBe(0);
  const files = Object.keys(dataFiles(dir)).sort();
  expect(files.length).toBeGreaterThanOrEqual(3);
  return { dir, files };
}

const summary = (written: number, unchanged: number) =>
  `exported 1 of 1 campaign, ${ids.length} messages: ${written} ${written === 1 ? "file" : "files"} written, ` +
  `${unchanged} unchanged\n`;

describe("msgstat export makes the dataset hold every partition again", () => {
  it.each(["parquet", "jsonl.gz"])("a %s file deleted by hand is written again, and only it", async (format) => {
    const { dir, files } = await dataset(format);
    const before = dataFiles(dir);
    rmSync(path.join(dir, files[1]!));
    expect(await exportTo(dir, format)).toEqual({ code: 0, stdout: "", stderr: summary(1, files.length - 1) });
    const after = dataFiles(dir);
    expect(Object.keys(after).sort()).toEqual(files);
    for (const name of files.filter((_, i) => i !== 1)) expect(after[name]).toEqual(before[name]);
    expect(await idsRead(dir, format)).toEqual(ids);
  });

  it("a truncated file is written again", async () => {
    const { dir, files } = await dataset("parquet");
    const file = path.join(dir, files[0]!);
    const bytes = readFileSync(file);
    truncateSync(file, 100);
    expect(await exportTo(dir, "parquet")).toEqual({ code: 0, stdout: "", stderr: summary(1, files.length - 1) });
    expect(readFileSync(file)).toEqual(bytes);
    expect(await idsRead(dir, "parquet")).toEqual(ids);
  });

  it("a file replaced by another partition's is written again", async () => {
    const { dir, files } = await dataset("jsonl.gz");
    copyFileSync(path.join(dir, files[0]!), path.join(dir, files[2]!));
    expect(await exportTo(dir, "jsonl.gz")).toEqual({ code: 0, stdout: "", stderr: summary(1, files.length - 1) });
    expect(await idsRead(dir, "jsonl.gz")).toEqual(ids);
  });

  it("with nothing touched, the next run writes nothing", async () => {
    const { dir, files } = await dataset("parquet");
    const before = dataFiles(dir);
    expect(await exportTo(dir, "parquet")).toEqual({ code: 0, stdout: "", stderr: summary(0, files.length) });
    expect(dataFiles(dir)).toEqual(before);
  });

  it("a file of a campaign not exported in this run is named in a warning, and written by the next run of it", async () => {
    const dir = scratchFolder("export-repair-");
    const both = [CAMPAIGN, "cmp-otp-alerts"];
    expect((await runCli(["--base-url", sandbox.url, "export", ...both, "--to", dir])).code).toBe(0);
    const other = Object.keys(dataFiles(dir)).filter((name) => name.startsWith("campaign_id=cmp-otp-alerts/"));
    rmSync(path.join(dir, other[0]!));
    const partition = path.dirname(other[0]!);
    expect(await exportTo(dir, "parquet")).toEqual({
      code: 0,
      stdout: "",
      stderr:
        `warning: 1 partition of campaigns not exported in this run has no file (${partition}); ` +
        "export those campaigns to write them again\n" +
        summary(0, Object.keys(dataFiles(dir)).length - other.length + 1),
    });
    const again = await runCli(["--base-url", sandbox.url, "export", "cmp-otp-alerts", "--to", dir]);
    expect(again).toMatchObject({ code: 0, stdout: "" });
    expect(again.stderr).toMatch(/: 1 file written, \d+ unchanged\n$/);
    expect(Object.keys(dataFiles(dir))).toContain(other[0]);
  });
});
