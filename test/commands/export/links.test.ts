// export never writes, renames or removes through a symbolic link planted inside its folder (a folder
// others can write, exported by root from cron): a link where a partition folder, a date folder, a data
// file, the manifest, the staging folder or the lock belongs is refused by name, exit 2, before anything
// changes; what the link points to is left as it was, and the dataset reads as before.
import { cpSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import type { Message } from "../../../src/core/message.js";
import { FIXED_NOW } from "../../sandbox/http-helpers.js";
import { dataFiles, query } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const CAMPAIGN = "cmp-otp-alerts";
let sandbox: Sandbox;
/** Set by a test: every message of the campaign changes status, so every partition would be written. */
let changed = false;

beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 11,
    messages: 200,
    now: FIXED_NOW,
    transform: (body) => {
      if (changed) for (const message of (body as { data: Message[] }).data) message.latestStatus = "changed";
      return body;
    },
  });
});
afterAll(() => sandbox.close());

const exportTo = (dir: string) =>
  runCli(["--base-url", sandbox.url, "export", CAMPAIGN, "--to", dir], { env: { TZ: "UTC" } });

/** A dataset of the campaign, exported before the service changed, and a folder outside it. */
async function dataset(): Promise<{ dir: string; outside: string; partition: string; day: string }> {
  changed = false;
  const dir = path.join(scratchFolder("export-links-"), "data");
  expect((await exportTo(dir)).code).toBe(0);
  changed = true;
  const partition = `campaign_id=${CAMPAIGN}`;
  const [day] = Object.keys(dataFiles(dir)).map((name) => name.split("/")[1]!);
  return { dir, outside: scratchFolder("export-outside-"), partition, day: day! };
}

const refused = (link: string) => ({
  code: 2,
  stdout: "",
  stderr:
    `msgstat: ${link} is a symbolic link: export never writes through a link in its dataset\n` +
    "  Remove the link (and find out who made it), or export to another folder.\n",
});

const statuses = async (dir: string) =>
  query(`SELECT latestStatus, count(*) AS n FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true)
         GROUP BY ALL ORDER BY ALL`);

/** Each file under `folder` with its bytes, as text (base64 for the binary ones). */
const contents = (folder: string) =>
  Object.fromEntries(
    Object.keys(dataFiles(folder)).map((name) => [name, readFileSync(path.join(folder, name)).toString("base64")]),
  );

describe("msgstat export refuses a symbolic link inside its folder", () => {
  it("a partition folder that links elsewhere: nothing is written there, exit 2", async () => {
    const { dir, outside, partition } = await dataset();
    const before = await statuses(dir);
    const elsewhere = path.join(outside, "target");
    renameSync(path.join(dir, partition), elsewhere);
    symlinkSync(elsewhere, path.join(dir, partition));
    const files = contents(elsewhere);
    expect(await exportTo(dir)).toEqual(refused(path.join(dir, partition)));
    expect(contents(elsewhere)).toEqual(files);
    // DuckDB's glob does not follow the link: the files are read where they are.
    expect(await statuses(elsewhere)).toEqual(before);
  });

  it("a date folder that links elsewhere: nothing is written there, exit 2", async () => {
    const { dir, outside, partition, day } = await dataset();
    const folder = path.join(dir, partition, day);
    cpSync(folder, outside, { recursive: true });
    const files = contents(outside);
    const manifest = readFileSync(path.join(dir, "msgstat-export.json"), "utf8");
    renameSync(folder, `${folder}.moved`);
    symlinkSync(outside, folder);
    expect(await exportTo(dir)).toEqual(refused(folder));
    expect(contents(outside)).toEqual(files);
    expect(readFileSync(path.join(dir, "msgstat-export.json"), "utf8")).toBe(manifest);
  });

  it("a data file that links to another file: neither is replaced, exit 2", async () => {
    const { dir, outside, partition, day } = await dataset();
    const file = path.join(dir, partition, day, "messages.parquet");
    const elsewhere = path.join(outside, "messages.parquet");
    renameSync(file, elsewhere);
    symlinkSync(elsewhere, file);
    const bytes = readFileSync(elsewhere);
    const before = await statuses(dir);
    expect(await exportTo(dir)).toEqual(refused(file));
    expect(readFileSync(elsewhere)).toEqual(bytes);
    expect(await statuses(dir)).toEqual(before);
  });

  it("a manifest that links to another file: that file is not replaced, exit 2", async () => {
    const { dir, outside } = await dataset();
    const manifest = path.join(dir, "msgstat-export.json");
    const elsewhere = path.join(outside, "passwd");
    renameSync(manifest, elsewhere);
    symlinkSync(elsewhere, manifest);
    const text = readFileSync(elsewhere, "utf8");
    const before = await statuses(dir);
    expect(await exportTo(dir)).toEqual(refused(manifest));
    expect(readFileSync(elsewhere, "utf8")).toBe(text);
    expect(await statuses(dir)).toEqual(before);
  });

  it("a staging folder that links elsewhere: nothing is spilled there, exit 2", async () => {
    const { dir, outside } = await dataset();
    const staging = path.join(dir, ".msgstat-staging");
    writeFileSync(path.join(outside, "keep.txt"), "mine\n");
    symlinkSync(outside, staging);
    const before = await statuses(dir);
    expect(await exportTo(dir)).toEqual(refused(staging));
    expect(contents(outside)).toEqual({ "keep.txt": Buffer.from("mine\n").toString("base64") });
    expect(await statuses(dir)).toEqual(before);
  });

  it("a lock that links to another file: it is not read, removed or taken over, exit 2", async () => {
    const { dir, outside } = await dataset();
    const lock = path.join(dir, ".msgstat-export.lock");
    const elsewhere = path.join(outside, "notes.txt");
    writeFileSync(elsewhere, "not a lock\n");
    symlinkSync(elsewhere, lock);
    const before = await statuses(dir);
    expect(await exportTo(dir)).toEqual(refused(lock));
    expect(readFileSync(elsewhere, "utf8")).toBe("not a lock\n");
    expect(await statuses(dir)).toEqual(before);
  });

  it("a partition folder that links elsewhere is refused even when no partition changed", async () => {
    const { dir, outside, partition } = await dataset();
    changed = false;
    const elsewhere = path.join(outside, "kept");
    mkdirSync(elsewhere);
    cpSync(path.join(dir, partition), elsewhere, { recursive: true });
    const files = contents(elsewhere);
    // A campaign folder of the manifest replaced by a link; the run has nothing to change, and still refuses.
    renameSync(path.join(dir, partition), path.join(outside, "moved"));
    symlinkSync(elsewhere, path.join(dir, partition));
    expect(await exportTo(dir)).toEqual(refused(path.join(dir, partition)));
    expect(contents(elsewhere)).toEqual(files);
  });
});
