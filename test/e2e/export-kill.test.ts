// `msgstat export` killed (SIGKILL) at each step of a run, on the built program: the run is held at the
// step (the Context's `atStep` hook, given by test/support/held-bin.cjs) and says so on stderr, and only
// then is it killed, so where it dies does not depend on timing. DuckDB then reads every message exactly once, each in its
// old or its new state, and the next run completes the dataset and leaves nothing behind.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import type { Message } from "../../src/core/message.js";
import { EXPORT_STEPS } from "../../src/commands/export/run.js";
import { FIXED_NOW, pageForward } from "../sandbox/http-helpers.js";
import { query, readJsonlDataset } from "../support/dataset.js";
import { runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

/** The built program with a hook that holds the run at the step named first on its command line. */
const HELD_BIN = fileURLToPath(new URL("../support/held-bin.cjs", import.meta.url));
const CAMPAIGNS = ["cmp-loyalty-es", "cmp-otp-alerts"];
let sandbox: Sandbox;
/** The new state: every message whose id ends in 3 has failed since the first run. */
let changed = false;
const turnedFailed = (message: Message) => changed && message.id.endsWith("3");

beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 11,
    messages: 2000,
    now: FIXED_NOW,
    transform: (body) => {
      const page = body as { data?: Message[] };
      for (const message of page.data ?? []) if (turnedFailed(message)) message.latestStatus = "failure";
      return body;
    },
  });
});
afterAll(() => sandbox.close());

async function serverState(): Promise<Map<string, Message>> {
  const byId = new Map<string, Message>();
  for (const id of CAMPAIGNS)
    for (const message of (await pageForward(sandbox.url, `/campaigns/${id}/messages`, 1000)).messages)
      byId.set(message.id, message);
  return byId;
}

type Format = "parquet" | "jsonl.gz";
let format: Format = "jsonl.gz";
const exportArgs = (dir: string) => [
  "--base-url",
  sandbox.url,
  "export",
  ...CAMPAIGNS,
  "--to",
  dir,
  "--format",
  format,
];

/**
 * Each message as the dataset holds it, by id (an id read twice fails the test): for JSON lines the whole
 * message, for Parquet its status (what the new state changes), with its partition.
 */
async function datasetState(dir: string): Promise<Map<string, string>> {
  const rows =
    format === "jsonl.gz"
      ? (await readJsonlDataset(dir)).map((row) => ({ id: row.message.id as string, state: stateOf(row.message) }))
      : (
          await query(
            `SELECT id, campaign_id, CAST(created_date AS VARCHAR) AS created_date, latestStatus ` +
              `FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`,
          )
        ).map((row) => ({
          id: row.id as string,
          state: `${String(row.campaign_id)} ${String(row.created_date)} ${String(row.latestStatus)}`,
        }));
  const byId = new Map<string, string>();
  for (const { id, state } of rows) {
    expect(byId.has(id), `${id} read twice`).toBe(false);
    byId.set(id, state);
  }
  return byId;
}

/** What the dataset should hold for a message the server sent, as datasetState reads it. */
function stateOf(message: Record<string, unknown>): string {
  if (format === "jsonl.gz") return JSON.stringify(message);
  const m = message as unknown as Message;
  return `${m.campaignId} ${new Date(Date.parse(m.createdAt)).toISOString().slice(0, 10)} ${m.latestStatus}`;
}

/** Runs the export until it says it paused at `step`, then kills it. */
function killedAt(dir: string, step: string) {
  return runBin([step, ...exportArgs(dir)], {
    script: HELD_BIN,
    onSpawn: (child) => {
      let said = "";
      child.stderr!.on("data", (chunk: Buffer | string) => {
        said += String(chunk);
        if (said.includes(`msgstat export: paused at ${step}\n`)) child.kill("SIGKILL");
      });
    },
  });
}

/** Files a killed run may leave and the next run must remove: the staging folder, temporary files. */
function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
    (name) => name.startsWith(".msgstat-staging") || path.basename(name).endsWith(".tmp"),
  );
}

describe.each(["jsonl.gz", "parquet"] as const)("--format %s", (chosen) => {
  describe.each(EXPORT_STEPS)("msgstat export killed at %s", (step) => {
    it("leaves each message once, old or new; the next run completes the dataset", async () => {
      format = chosen;
      const dir = scratchFolder("export-kill-");
      changed = false;
      const old = await serverState();
      expect((await runBin(exportArgs(dir))).code).toBe(0);
      changed = true;
      const next = await serverState();
      const differing = [...next.values()].filter((m) => m.latestStatus !== old.get(m.id)!.latestStatus);
      expect(differing.length).toBeGreaterThan(10);

      const killed = await killedAt(dir, step);
      expect(killed).toMatchObject({ code: 128, stderr: `msgstat export: paused at ${step}\n` });
      const held = await datasetState(dir);
      expect([...held.keys()].sort()).toEqual([...old.keys()].sort());
      let renewed = 0;
      for (const [id, state] of held) {
        const isOld = state === stateOf(old.get(id)!);
        expect(isOld || state === stateOf(next.get(id)!), id).toBe(true);
        if (!isOld) renewed++;
      }
      // Before the renames nothing changed; at the manifest, everything had.
      if (step === "before-manifest") expect(renewed).toBe(differing.length);
      else if (step === "between-renames") expect(renewed).toBeGreaterThan(0);
      else expect(renewed).toBe(0);

      const resumed = await runBin(exportArgs(dir));
      expect(resumed).toMatchObject({ code: 0, stdout: "" });
      expect(await datasetState(dir)).toEqual(new Map([...next].map(([id, m]) => [id, stateOf(m)])));
      expect(leftovers(dir)).toEqual([]);
      expect(existsSync(path.join(dir, "msgstat-export.json"))).toBe(true);
      // The manifest now agrees with the files: a further run writes nothing.
      expect((await runBin(exportArgs(dir))).stderr).toMatch(/: 0 files written, \d+ unchanged\n$/);
    });
  });
});

describe("msgstat export killed after its renames, before its manifest", () => {
  it("writes those partitions again even when the service is back to the old state (their digest was pending)", async () => {
    format = "jsonl.gz";
    const dir = scratchFolder("export-kill-");
    changed = false;
    const old = await serverState();
    expect((await runBin(exportArgs(dir))).code).toBe(0);
    changed = true;
    expect((await killedAt(dir, "before-manifest")).code).toBe(128);
    // The files hold the new state; the manifest, the old state's digests with the changed ones pending.
    changed = false;
    const resumed = await runBin(exportArgs(dir));
    expect(resumed.code).toBe(0);
    expect(await datasetState(dir)).toEqual(new Map([...old].map(([id, m]) => [id, stateOf(m)])));
  });
});

describe("a first export killed before its renames", () => {
  it("leaves no partition folder and no manifest: the staging folder only, which the next run removes", async () => {
    format = "parquet";
    changed = false;
    const dir = scratchFolder("export-kill-");
    expect((await killedAt(dir, "encoded")).code).toBe(128);
    expect(
      readdirSync(dir)
        .filter((name) => !name.startsWith(".msgstat-"))
        .sort(),
    ).toEqual([]);
    const resumed = await runBin(exportArgs(dir));
    expect(resumed).toMatchObject({ code: 0, stdout: "" });
    expect(leftovers(dir)).toEqual([]);
  });
});

describe("two exports into one folder", () => {
  it("the second is refused (exit 2) while the first runs, and runs once the first was killed", async () => {
    format = "jsonl.gz";
    changed = false;
    const dir = scratchFolder("export-lock-");
    let second: Awaited<ReturnType<typeof runBin>> | undefined;
    const first = await runBin(["fetching", ...exportArgs(dir)], {
      script: HELD_BIN,
      onSpawn: (child) => {
        let said = "";
        child.stderr!.on("data", (chunk: Buffer | string) => {
          said += String(chunk);
          if (!said.includes("paused at fetching\n") || second !== undefined) return;
          void runBin(exportArgs(dir)).then((result) => {
            second = result;
            child.kill("SIGKILL");
          });
        });
      },
    });
    expect(first.code).toBe(128);
    expect(second).toMatchObject({ code: 2, stdout: "" });
    expect(second!.stderr).toMatch(
      new RegExp(`^msgstat: another msgstat export \\(pid \\d+ on .+\\) is writing ${dir}\\n  Wait for it to end\\.`),
    );
    const after = await runBin(exportArgs(dir));
    expect(after).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(path.join(dir, ".msgstat-export.lock"))).toBe(false);
  });
});
