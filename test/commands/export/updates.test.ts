// What a run of `msgstat export` does with what the service did since the last one: a message sent twice,
// a day whose messages are gone, a campaign that cannot be read; and the usage errors of the command.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type FaultRule, type Sandbox } from "../../../src/sandbox/index.js";
import type { Message } from "../../../src/core/message.js";
import { FIXED_NOW, pageForward } from "../../sandbox/http-helpers.js";
import { dataFiles, readJsonlDataset, utcDate } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

type Page = { data: Message[]; pageData: { hasNextPage: boolean } };
let sandbox: Sandbox;
/** What the service does to each page at the moment: nothing unless a test says. */
let rewrite: (page: Page, query: URLSearchParams, path: string) => void = () => undefined;

/** The sandbox of these tests; with `faults`, another one serving the same messages (same seed and now). */
const sandboxWith = (faults: FaultRule[] = []) =>
  startSandbox({
    seed: 5,
    messages: 5000,
    now: FIXED_NOW,
    faults,
    transform: (body, { query, path }) => {
      rewrite(body as Page, query, path);
      return body;
    },
  });

beforeAll(async () => {
  sandbox = await sandboxWith();
});
afterAll(() => sandbox.close());

function exportTo(dir: string, campaigns: string[], ...args: string[]) {
  return exportFrom(sandbox, dir, campaigns, ...args);
}

function exportFrom(from: Sandbox, dir: string, campaigns: string[], ...args: string[]) {
  return runCli(["--base-url", from.url, "export", ...campaigns, "--to", dir, "--format", "jsonl.gz", ...args], {
    env: { TZ: "UTC" },
  });
}

const sorted = (rows: Array<{ message: Record<string, unknown> }>) =>
  rows.map((row) => row.message.id as string).sort();

describe("msgstat export brings the dataset up to date", () => {
  it("a message the service sends twice, pages apart, is written once, with a warning", async () => {
    const dir = scratchFolder("export-");
    let first: Message | undefined;
    rewrite = (page, query) => {
      if (!query.has("after")) first = structuredClone(page.data[0]);
      else if (!page.pageData.hasNextPage && first) page.data.push(first);
    };
    try {
      const result = await exportTo(dir, ["cmp-spring-sale"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/^warning: the service sent 1 message again in this run; each was kept once\n/);
      const rows = await readJsonlDataset(dir);
      expect(rows).toHaveLength(5000);
      expect(new Set(sorted(rows)).size).toBe(5000);
    } finally {
      rewrite = () => undefined;
    }
  });

  it("a day whose messages are all gone from the service loses its partition", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    const all = (await pageForward(sandbox.url, "/campaigns/cmp-otp-alerts/messages", 1000)).messages;
    const gone = utcDate(all[0]!.createdAt);
    rewrite = (page) => {
      page.data = page.data.filter((message) => utcDate(message.createdAt) !== gone);
    };
    try {
      const result = await exportTo(dir, ["cmp-otp-alerts"]);
      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(result.stderr).toMatch(/: 0 files written, \d+ unchanged, 1 removed\n$/);
      expect(existsSync(path.join(dir, `campaign_id=cmp-otp-alerts/created_date=${gone}`))).toBe(false);
      const rows = await readJsonlDataset(dir);
      expect(sorted(rows)).toEqual(
        all
          .filter((m) => utcDate(m.createdAt) !== gone)
          .map((m) => m.id)
          .sort(),
      );
    } finally {
      rewrite = () => undefined;
    }
  });

  it("a campaign that cannot be read keeps its partitions as they were; the others are updated", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-loyalty-es", "cmp-otp-alerts"])).code).toBe(0);
    const before = dataFiles(dir);
    const failing = await sandboxWith([{ path: "/campaigns/cmp-otp-alerts/", kind: "status", status: 404 }]);
    rewrite = (page) => {
      for (const message of page.data) message.latestStatus = "failure";
    };
    try {
      const result = await exportFrom(failing, dir, ["cmp-loyalty-es", "cmp-otp-alerts"]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 3, stdout: "" });
      const lines = result.stderr.split("\n");
      expect(lines[0]).toMatch(/^warning: campaign cmp-otp-alerts: not found: /);
      expect(lines.slice(-3)).toEqual([
        expect.stringMatching(/^exported 1 of 2 campaigns, 1,000 messages: \d+ files written, 0 unchanged$/),
        "msgstat: 1 of 2 campaigns complete; not found: cmp-otp-alerts",
        "",
      ]);
      const after = dataFiles(dir);
      for (const name of Object.keys(before).filter((name) => name.startsWith("campaign_id=cmp-otp-alerts/")))
        expect(after[name]).toEqual(before[name]);
      const rows = await readJsonlDataset(dir);
      // The campaign read again has every message failed now; the other kept its successes.
      const failed = (campaign: string) =>
        rows.filter((row) => row.campaignId === campaign).every((row) => row.message.latestStatus === "failure");
      expect([failed("cmp-loyalty-es"), failed("cmp-otp-alerts")]).toEqual([true, false]);
      const manifest = JSON.parse(readFileSync(path.join(dir, "msgstat-export.json"), "utf8")) as {
        campaigns: Record<string, { lastFailure?: { reason: string } }>;
      };
      expect(manifest.campaigns["cmp-otp-alerts"]!.lastFailure?.reason).toMatch(/^not found: /);
      expect(manifest.campaigns["cmp-loyalty-es"]!.lastFailure).toBeUndefined();
    } finally {
      await failing.close();
      rewrite = () => undefined;
    }
  });
});

describe("msgstat export's usage errors", () => {
  it("a folder of the other format is refused when --format says the other, exit 2", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    const result = await runCli([
      "--base-url",
      sandbox.url,
      "export",
      "cmp-otp-alerts",
      "--to",
      dir,
      "--format",
      "parquet",
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --to ${dir} holds a jsonl.gz dataset, not parquet\n` +
        "  Leave out --format (or give --format jsonl.gz), or export to another folder.\n",
    });
  });

  it("without --format, a dataset is written in the format its manifest records", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    const result = await runCli(["--base-url", sandbox.url, "export", "cmp-otp-alerts", "--to", dir]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/^exported 1 of 1 campaign, [\d,]+ messages: 0 files written, \d+ unchanged\n$/);
    expect(Object.keys(dataFiles(dir)).every((name) => name.endsWith("/messages.jsonl.gz"))).toBe(true);
  });

  it("--to a file is refused, exit 2", async () => {
    const file = path.join(scratchFolder("export-"), "notes.txt");
    writeFileSync(file, "mine\n");
    const result = await exportTo(file, ["cmp-otp-alerts"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: --to ${file} is a file, not a folder\n  Give a fresh or empty folder, or an existing dataset's root.\n`,
    });
    expect(readFileSync(file, "utf8")).toBe("mine\n");
  });

  it("a folder holding other files and no manifest is refused, exit 2; an empty one is used", async () => {
    const dir = scratchFolder("export-");
    writeFileSync(path.join(dir, "report.csv"), "a,b\n");
    const result = await exportTo(dir, ["cmp-otp-alerts"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --to ${dir} holds other files and no msgstat-export.json: not a msgstat dataset\n` +
        "  Give a fresh or empty folder, or an existing dataset's root.\n",
    });
    expect(readdirSync(dir)).toEqual(["report.csv"]);
    const empty = scratchFolder("export-");
    expect((await exportTo(empty, ["cmp-otp-alerts"])).code).toBe(0);
  });

  it("a partition folder of a dataset is refused, exit 2", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    const partition = path.join(dir, "campaign_id=cmp-otp-alerts");
    const result = await exportTo(partition, ["cmp-otp-alerts"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --to ${partition} is a partition folder of a dataset, not its root\n` +
        "  Give the dataset's root (the folder holding msgstat-export.json), or a fresh or empty folder.\n",
    });
    expect(readdirSync(partition).every((name) => name.startsWith("created_date="))).toBe(true);
  });

  it("a campaign not found is named as not found in the last line, not as read in part", async () => {
    const dir = scratchFolder("export-");
    const result = await exportTo(dir, ["cmp-nope", "cmp-otp-alerts"]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n").slice(-2)).toEqual([
      "msgstat: 1 of 2 campaigns complete; not found: cmp-nope",
      "",
    ]);
  });

  it("a partition folder left empty (by a killed run of an older msgstat) is removed by the next run", async () => {
    const dir = scratchFolder("export-");
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    const empty = path.join(dir, "campaign_id=cmp-gone", "created_date=2026-01-01");
    mkdirSync(empty, { recursive: true });
    expect((await exportTo(dir, ["cmp-otp-alerts"])).code).toBe(0);
    expect(existsSync(path.join(dir, "campaign_id=cmp-gone"))).toBe(false);
  });

  it("without --to, exit 2", async () => {
    const result = await runCli(["--base-url", sandbox.url, "export", "cmp-otp-alerts"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--to <dir>/);
  });

  it("without campaigns, and none in the profile, exit 2 with the way to name them", async () => {
    const dir = scratchFolder("export-");
    const config = scratchFolder("export-config-");
    writeFileSync(path.join(config, "placeholder"), "");
    const result = await runCli(["--base-url", sandbox.url, "export", "--to", dir], {
      env: { MSGSTAT_CONFIG_DIR: config },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^msgstat: export needs the campaigns to export: name them, or save a list in the profile/,
    );
  });
});
