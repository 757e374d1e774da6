// Every command that writes a file, walked through the same targets: a plain file, a .gz name, a
// symbolic link, a FIFO, and a failure midway. The one-shot commands (listings of messages, batch and
// find, stats reports, message) replace their file atomically; the live modes (--follow, stats
// --watch) write it in place; export prepares every partition and then commits each.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { FaultRule, Sandbox } from "../../src/sandbox/index.js";
import { cli, startTestSandbox, useTestSandbox } from "../support/cli-helpers.js";
import { startLive } from "../support/live-sandbox.js";
import { scratchFolder } from "../support/scratch.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

interface OneShot {
  command: string;
  args: string[];
  /** The extension that names the format the arguments ask for. */
  ext: string;
  /** A response cut off half-way through its body, after what was already written to the file. */
  fault: FaultRule;
  /**
   * Whether the error line says what became of the file: a listing's does; stats and message fail before
   * anything is written (a report is written once every page is read, a message once it arrived).
   */
  saysFate: boolean;
}

const ONE_SHOT: OneShot[] = [
  {
    command: "messages",
    args: ["messages", "cmp-spring-sale", "-n", "30", "--page-size", "10"],
    ext: ".csv",
    fault: { path: /after=/, kind: "close-early" },
    saysFate: true,
  },
  {
    command: "batch",
    args: ["batch", "cmp-spring-sale", "bat-spring-w1", "-n", "30", "--page-size", "10"],
    ext: ".csv",
    fault: { path: /after=/, kind: "close-early" },
    saysFate: true,
  },
  {
    command: "find",
    args: ["find", "447700900123", "cmp-spring-sale"],
    ext: ".csv",
    fault: { path: /messages/, kind: "close-early" },
    saysFate: true,
  },
  {
    command: "stats",
    args: ["stats", "cmp-spring-sale"],
    ext: ".json",
    fault: { path: /messages/, kind: "close-early" },
    saysFate: false,
  },
  {
    command: "message",
    args: ["message", "cmp-spring-sale", "msg-spring-0000005"],
    ext: ".txt",
    fault: { kind: "close-early" },
    saysFate: false,
  },
];

/** What the command writes to stdout (not a terminal): what every target must receive. */
async function expected(row: OneShot): Promise<string> {
  const format = row.ext === ".csv" ? ["--csv"] : row.ext === ".json" ? ["--json"] : [];
  const result = await cli(sandbox, [...row.args, ...format]);
  expect(result.code).toBe(0);
  expect(result.stdout.length).toBeGreaterThan(0);
  return result.stdout;
}

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.includes(".msgstat-"));

describe.each(ONE_SHOT)("$command -o", (row) => {
  it("a plain file: the bytes stdout gets, nothing on stdout, no temporary file", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const file = path.join(folder, `out${row.ext}`);
    const result = await cli(sandbox, [...row.args, "-o", file]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(file, "utf8")).toBe(await expected(row));
    expect(leftovers(folder)).toEqual([]);
  });

  it("a .gz name: gzipped, the format from the extension before it", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const file = path.join(folder, `out${row.ext}.gz`);
    const result = await cli(sandbox, [...row.args, "-o", file]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(gunzipSync(readFileSync(file)).toString("utf8")).toBe(await expected(row));
    expect(leftovers(folder)).toEqual([]);
  });

  it("a symbolic link: the file it points to is replaced, the link kept", async () => {
    const folder = scratchFolder("msgstat-targets-");
    mkdirSync(path.join(folder, "real"));
    const file = path.join(folder, "real", `out${row.ext}`);
    writeFileSync(file, "old\n");
    const link = path.join(folder, `latest${row.ext}`);
    symlinkSync(`real/out${row.ext}`, link);
    const result = await cli(sandbox, [...row.args, "-o", link]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(readlinkSync(link)).toBe(`real/out${row.ext}`);
    expect(readFileSync(file, "utf8")).toBe(await expected(row));
    expect(leftovers(folder)).toEqual([]);
    expect(leftovers(path.join(folder, "real"))).toEqual([]);
  });

  it("a FIFO: its reader gets the output, and it is still a FIFO", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const fifo = path.join(folder, "pipe");
    execFileSync("mkfifo", [fifo]);
    const reading = readFile(fifo, "utf8");
    const format = row.ext === ".csv" ? ["--csv"] : row.ext === ".json" ? ["--json"] : [];
    const result = await cli(sandbox, [...row.args, ...format, "-o", fifo]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(await reading).toBe(await expected(row));
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(folder)).toEqual(["pipe"]);
  });

  it.each(["", ".gz"])("a failure midway (%s): the file is left as it was, no temporary file", async (gz) => {
    const failing = await startTestSandbox({ faults: [row.fault] });
    try {
      const folder = scratchFolder("msgstat-targets-");
      const file = path.join(folder, `out${row.ext}${gz}`);
      writeFileSync(file, "previous run\n");
      const result = await cli(failing, [...row.args, "--retries", "0", "-o", file]);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe("");
      if (row.saysFate) expect(result.stderr).toContain(`${file} was left as it was`);
      expect(result.stderr).toMatch(/connection closed before the response was complete/);
      expect(readFileSync(file, "utf8")).toBe("previous run\n");
      expect(readdirSync(folder)).toEqual([path.basename(file)]);
    } finally {
      await failing.close();
    }
  });
});

interface LiveRow {
  command: string;
  args: string[];
  /** Each line of the file, checked: a whole record. */
  record: (line: string) => void;
}

const LIVE: LiveRow[] = [
  {
    command: "messages --follow",
    args: ["messages", "cmp-live", "--follow", "--jsonl"],
    record: (line) => expect((JSON.parse(line) as { id: string }).id).toMatch(/^msg-/),
  },
  {
    command: "stats --watch",
    args: ["stats", "cmp-live", "--watch", "--json"],
    record: (line) => expect((JSON.parse(line) as { watch: { round: number } }).watch.round).toBeGreaterThan(0),
  },
];

/** The file's lines, each a whole record, and how many. */
function records(text: string, row: LiveRow): number {
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.trimEnd().split("\n");
  for (const line of lines) row.record(line);
  return lines.length;
}

describe.each(LIVE)("$command -o", (row) => {
  /** Runs the live mode until its fourth sleep, then interrupts it as Ctrl-C would. */
  async function interrupted(target: string) {
    const { clock, run } = await startLive();
    return run([...row.args, "-o", target], { ...clock.interruptAfter(4) });
  }

  it("a plain file: written in place, whole records up to Ctrl-C", async () => {
    const file = path.join(scratchFolder("msgstat-targets-"), "live.jsonl");
    expect(await interrupted(file)).toMatchObject({ code: 130, stdout: "" });
    expect(records(readFileSync(file, "utf8"), row)).toBeGreaterThan(0);
  });

  it("a .gz name: a whole gzip file of whole records, though interrupted", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const file = path.join(folder, "live.jsonl.gz");
    expect(await interrupted(file)).toMatchObject({ code: 130, stdout: "" });
    expect(records(gunzipSync(readFileSync(file)).toString("utf8"), row)).toBeGreaterThan(0);
    execFileSync("gzip", ["-t", file]);
    expect(readdirSync(folder)).toEqual(["live.jsonl.gz"]);
  });

  it("a symbolic link: the file it points to is written, the link kept", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const file = path.join(folder, "real.jsonl");
    const link = path.join(folder, "link.jsonl");
    symlinkSync("real.jsonl", link);
    expect(await interrupted(link)).toMatchObject({ code: 130, stdout: "" });
    expect(readlinkSync(link)).toBe("real.jsonl");
    expect(records(readFileSync(file, "utf8"), row)).toBeGreaterThan(0);
  });

  it("a FIFO: its reader gets whole records, and it is still a FIFO", async () => {
    const folder = scratchFolder("msgstat-targets-");
    const fifo = path.join(folder, "pipe");
    execFileSync("mkfifo", [fifo]);
    const reading = readFile(fifo, "utf8");
    expect(await interrupted(fifo)).toMatchObject({ code: 130, stdout: "" });
    expect(records(await reading, row)).toBeGreaterThan(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("a failure midway (a full device): exit 1, one line saying what failed", async () => {
    const { clock, run } = await startLive();
    const result = await run([...row.args, "-o", "/dev/full"], { ...clock.interruptAfter(4) });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "msgstat: cannot write to /dev/full: no space left on device (ENOSPC); the output is incomplete\n",
    });
  });
});

describe("export --to", () => {
  /** Every file under `dir`, by its path relative to it, with its bytes. */
  function files(dir: string): Map<string, Buffer> {
    const found = new Map<string, Buffer>();
    for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort())
      if (lstatSync(path.join(dir, name)).isFile()) found.set(name, readFileSync(path.join(dir, name)));
    return found;
  }

  const dataFiles = (dir: string, ext: string) => [...files(dir)].filter(([name]) => name.endsWith(ext));

  it("parquet: each partition a whole Parquet file, committed in place; nothing left in staging", async () => {
    const dir = scratchFolder("msgstat-targets-");
    const result = await cli(sandbox, ["export", "cmp-spring-sale", "--to", dir]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    const parquet = dataFiles(dir, "messages.parquet");
    expect(parquet.length).toBeGreaterThan(0);
    for (const [, bytes] of parquet) {
      expect(bytes.subarray(0, 4).toString()).toBe("PAR1");
      expect(bytes.subarray(-4).toString()).toBe("PAR1");
    }
    expect([...files(dir).keys()].filter((name) => name.includes(".msgstat-"))).toEqual([]);
  });

  it("jsonl.gz: each partition gzipped, whole lines of JSON", async () => {
    const dir = scratchFolder("msgstat-targets-");
    const result = await cli(sandbox, ["export", "cmp-spring-sale", "--to", dir, "--format", "jsonl.gz"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    const jsonl = dataFiles(dir, "messages.jsonl.gz");
    expect(jsonl.length).toBeGreaterThan(0);
    for (const [, bytes] of jsonl) {
      const text = gunzipSync(bytes).toString("utf8");
      expect(text.endsWith("\n")).toBe(true);
      for (const line of text.trimEnd().split("\n")) expect(JSON.parse(line)).toHaveProperty("id");
    }
  });

  it.each(["parquet", "jsonl.gz"])(
    "a failure midway (%s): every data file as it was, nothing left in staging",
    async (format) => {
      const dir = scratchFolder("msgstat-targets-");
      expect((await cli(sandbox, ["export", "cmp-spring-sale", "--to", dir, "--format", format])).code).toBe(0);
      const before = files(dir);
      // The campaign's page cut off half-way: the run records the failure in its manifest; no data file changes.
      const failing = await startTestSandbox({ faults: [{ path: /messages/, kind: "close-early" }] });
      try {
        const result = await cli(failing, ["--retries", "0", "export", "cmp-spring-sale", "--to", dir]);
        expect(result.code).not.toBe(0);
        expect(result.stderr).toMatch(/connection closed before the response was complete/);
        const data = (all: Map<string, Buffer>) => [...all].filter(([name]) => name !== "msgstat-export.json");
        expect(data(files(dir))).toEqual(data(before));
      } finally {
        await failing.close();
      }
    },
  );
});
