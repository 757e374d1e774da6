// `npm run demo` (scripts/demo.mjs) ends its sandbox, and the command it shows, however it ends: a
// reader that closes early (`| head -5`), SIGINT or SIGTERM sent to it alone, or an error writing stdout.
// A survivor is found by pid: a process whose environment names the tour's config folder, which the
// tour makes in TMPDIR (a scratch folder here) and removes as it ends.
import { spawn, type ChildProcess } from "node:child_process";
import { openSync, closeSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { scratchFolder } from "../support/scratch.js";
import { waitFor } from "../support/wait-for.js";

const DEMO = fileURLToPath(new URL("../../scripts/demo.mjs", import.meta.url));

/** The pids of processes whose environment holds MSGSTAT_CONFIG_DIR under `folder`. */
function processesUnder(folder: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, "latin1");
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (environ.split("\0").some((variable) => variable.startsWith(`MSGSTAT_CONFIG_DIR=${folder}/`)))
      found.push(Number(entry));
  }
  return found;
}

/** Waits until no process of the tour is left and its config folder is gone; the survivors if some stay. */
async function leftBehind(folder: string): Promise<{ processes: number[]; files: string[] }> {
  await waitFor(() => processesUnder(folder).length === 0 && readdirSync(folder).length === 0).catch(() => undefined);
  return { processes: processesUnder(folder), files: readdirSync(folder) };
}

/** A TMPDIR for one run of the tour; whatever of it survives the test (a failing one) is killed. */
function tourFolder(): string {
  const folder = scratchFolder("msgstat-demo-");
  onTestFinished(() => {
    for (const pid of processesUnder(folder)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // ended meanwhile
      }
    }
  });
  return folder;
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
}

function collected(stream: NodeJS.ReadableStream | null): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => (text += chunk));
  return () => text;
}

const env = (tmp: string) => ({ PATH: process.env.PATH, TMPDIR: tmp, TZ: "UTC" });

describe("the demo ends its sandbox however it ends", () => {
  it("piped into head -5: the first lines, no EPIPE trace, exit 0, nothing left running", async () => {
    const tmp = tourFolder();
    const child = spawn(
      "bash",
      ["--norc", "--noprofile", "-c", `"${process.execPath}" "${DEMO}" | head -5; echo "exit=\${PIPESTATUS[0]}" >&2`],
      { env: env(tmp) },
    );
    const stdout = collected(child.stdout);
    const stderr = collected(child.stderr);
    expect(await ended(child)).toEqual({ code: 0, signal: null });
    expect(stdout().split("\n")[0]).toMatch(/^msgstat tour against the sandbox at http:\/\/127\.0\.0\.1:\d+, /);
    expect(stdout().split("\n")).toHaveLength(6);
    expect(stderr()).toBe("exit=0\n");
    expect(await leftBehind(tmp)).toEqual({ processes: [], files: [] });
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s to the demo alone, once the tour began: exit %i, nothing left running", async (signal, code) => {
    const tmp = tourFolder();
    const child = spawn(process.execPath, [DEMO], { env: env(tmp), stdio: ["ignore", "pipe", "pipe"] });
    const stdout = collected(child.stdout);
    const stderr = collected(child.stderr);
    const exit = ended(child);
    // The tour began: its sandbox runs, and the first command is being shown.
    await waitFor(() => stdout().includes("$ msgstat config list"), "the first command of the tour");
    child.kill(signal);
    expect(await exit).toEqual({ code, signal: null });
    expect(stderr()).toBe("");
    expect(await leftBehind(tmp)).toEqual({ processes: [], files: [] });
  });

  it("an error writing stdout (a full device): says so, exit 1, nothing left running", async () => {
    const tmp = tourFolder();
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, [DEMO], { env: env(tmp), stdio: ["ignore", full, "pipe"] });
      const stderr = collected(child.stderr);
      expect(await ended(child)).toEqual({ code: 1, signal: null });
      expect(stderr()).toMatch(/^demo: cannot write to stdout: .*ENOSPC.*\n$/);
      expect(await leftBehind(tmp)).toEqual({ processes: [], files: [] });
    } finally {
      closeSync(full);
    }
  });
});
