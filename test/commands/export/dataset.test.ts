// `msgstat export` over real HTTP against the sandbox: DuckDB reads the dataset back, and every row is
// compared with what the server sent.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../../src/commands/export/manifest.js";
import packageJson from "../../../package.json" with { type: "json" };
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, pageForward } from "../../sandbox/http-helpers.js";
import type { Message } from "../../../src/core/message.js";
import { dataFiles, readJsonlDataset, utcDate } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const CAMPAIGNS = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts", "cmp-empty"];
let sandbox: Sandbox;
const sent = new Map<string, Message[]>();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, messages: 2000, now: FIXED_NOW });
  for (const id of CAMPAIGNS)
    sent.set(id, (await pageForward(sandbox.url, `/campaigns/${id}/messages`, 1000)).messages);
});
afterAll(() => sandbox.close());

const exportTo = (dir: string, ...args: string[]) =>
  runCli(["--base-url", sandbox.url, "export", ...CAMPAIGNS, "--to", dir, "--format", "jsonl.gz", ...args], {
    env: { TZ: "UTC" },
  });

describe("msgstat export --format jsonl.gz", () => {
  it("writes every message once, in its campaign and UTC day, as the server sent it", async () => {
    const dir = scratchFolder("export-");
    const { code, stdout, stderr } = await exportTo(dir);
    expect({ code, stdout }).toEqual({ code: 0, stdout: "" });
    const partitions = new Set(
      [...sent].flatMap(([id, messages]) => messages.map((m) => `${id}/${utcDate(m.createdAt)}`)),
    );
    const total = [...sent.values()].reduce((sum, messages) => sum + messages.length, 0);
    expect(stderr).toBe(
      `exported 4 of 4 campaigns, ${total.toLocaleString("en-US")} messages: ${partitions.size} files written, 0 unchanged\n`,
    );
    const rows = await readJsonlDataset(dir);
    const expected = [...sent].flatMap(([campaignId, messages]) =>
      messages.map((message) => ({ campaignId, createdDate: utcDate(message.createdAt), message })),
    );
    const byId = (a: { message: Record<string, unknown> }, b: { message: Record<string, unknown> }) =>
      String(a.message.id).localeCompare(String(b.message.id));
    expect(rows.sort(byId)).toEqual(expected.sort(byId));
  });

  it("records the run in the manifest: msgstat's version, the format, counts, each partition's digest", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir)).code).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(dir, "msgstat-export.json"), "utf8")) as Manifest;
    const total = [...sent.values()].reduce((sum, messages) => sum + messages.length, 0);
    expect(manifest).toMatchObject({
      manifestVersion: 1,
      msgstatVersion: packageJson.version,
      format: "jsonl.gz",
      lastRun: { campaigns: CAMPAIGNS, messages: total, partitionsRemoved: 0, partitionsUnchanged: 0 },
    });
    const partitions = Object.entries(manifest.partitions);
    expect(partitions.length).toBe(manifest.lastRun!.partitionsWritten);
    expect(Object.keys(dataFiles(dir)).sort()).toEqual(partitions.map(([key]) => `${key}/messages.jsonl.gz`).sort());
    expect(partitions.reduce((sum, [, entry]) => sum + entry.messages, 0)).toBe(total);
    for (const [, entry] of partitions) expect(entry.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.campaigns["cmp-spring-sale"]).toEqual({
      lastComplete: manifest.lastRun!.finishedAt,
      messages: sent.get("cmp-spring-sale")!.length,
    });
  });

  it("a second run against the unchanged service touches no data file", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir)).code).toBe(0);
    const before = dataFiles(dir);
    const again = await exportTo(dir);
    expect(again).toMatchObject({ code: 0, stdout: "" });
    expect(again.stderr).toMatch(/: 0 files written, \d+ unchanged\n$/);
    expect(dataFiles(dir)).toEqual(before);
  });

  it("shows progress on a terminal: campaigns done, pages, messages; the partitions written; then the summary", async () => {
    const dir = scratchFolder("export-");
    const { code, stderr } = await runCli(
      ["--base-url", sandbox.url, "export", ...CAMPAIGNS, "--to", dir, "--format", "jsonl.gz", "--concurrency", "1"],
      { stderrTty: true, env: { TZ: "UTC" } },
    );
    expect(code).toBe(0);
    expect(stderr).toContain("Exporting… 0 of 4 campaigns done, 1 page, 1,000 seen");
    // cmp-empty is one empty page.
    expect(stderr).toContain("Exporting… 3 of 4 campaigns done, 5 pages, 2,440 seen");
    // After the last page, the partitions as each is digested and written, then as each is moved into place.
    const partitions = (stderr.match(/Writing partitions… (\d+) of \1\b/) ?? [])[1];
    expect(Number(partitions)).toBeGreaterThan(4);
    expect(stderr).toContain(`Moving partitions into place… ${partitions} of ${partitions}`);
    expect(stderr).toMatch(
      new RegExp(`exported 4 of 4 campaigns, 2,440 messages: ${partitions} files written, 0 unchanged\n$`),
    );
  });

  it("with --quiet says nothing at all when it went well, on a terminal too", async () => {
    const dir = scratchFolder("export-");
    const result = await runCli(
      ["--base-url", sandbox.url, "--quiet", "export", ...CAMPAIGNS, "--to", dir, "--format", "jsonl.gz"],
      { stderrTty: true, env: { TZ: "UTC" } },
    );
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(Object.keys(dataFiles(dir)).length).toBeGreaterThan(4);
  });
});
