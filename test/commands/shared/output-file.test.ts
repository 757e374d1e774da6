// -o, --output for every command: the file written whole or not at all, onto what is not a plain file
// (links, FIFOs, devices, open descriptors), write errors on -o and on stdout, long file names, and
// targets refused before anything is sent. -o must never destroy what it does not own.
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/core/errors.js";
import { temporaryName } from "../../../src/output/atomic-file.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import {
  cli,
  cliWithRequests,
  jsonlText,
  sandboxForTest,
  serverPage,
  startTestSandbox,
  useTestSandbox,
} from "../../support/cli-helpers.js";
import { BIN, runBin, runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import { waitFor } from "../../support/wait-for.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

const LISTING = ["messages", "cmp-spring-sale", "-n", "5", "--csv"];

/** What the listing writes to stdout: what every target below must receive. */
async function expectedCsv(): Promise<string> {
  const result = await cli(sandbox, LISTING);
  expect(result.code).toBe(0);
  return result.stdout;
}

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.includes(".msgstat-"));

/**
 * A character device like /dev/<name> (major 1). As root, a copy made with mknod in the test's folder, so
 * that a regression (a rename over the target) could only destroy the copy, never the machine's own
 * /dev/null; without root, /dev itself cannot be written to, and the real device is safe to use.
 */
function characterDevice(folder: string, name: "null" | "full"): string {
  if (process.getuid?.() === 0) {
    const copy = path.join(folder, name);
    try {
      execFileSync("mknod", [copy, "c", "1", name === "null" ? "3" : "7"]);
      return copy;
    } catch {
      // no mknod here (a container without CAP_MKNOD): fall through to the real device
    }
  }
  return `/dev/${name}`;
}

describe("-o onto a symbolic link", () => {
  it("replaces the file it points to, atomically in that file's folder, and keeps the link", async () => {
    const folder = scratchFolder("msgstat-link-");
    mkdirSync(path.join(folder, "exports"));
    mkdirSync(path.join(folder, "links"));
    const file = path.join(folder, "exports", "failures.csv");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o600);
    const link = path.join(folder, "links", "latest.csv");
    symlinkSync("../exports/failures.csv", link);

    const result = await cli(sandbox, [...LISTING, "-o", link]);
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("../exports/failures.csv");
    expect(readFileSync(file, "utf8")).toBe(await expectedCsv());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(folder, "links"))).toEqual(["latest.csv"]);
    expect(readdirSync(path.join(folder, "exports"))).toEqual(["failures.csv"]);
  });

  it("follows a chain of links to a file that does not exist yet, and creates it there", async () => {
    const folder = scratchFolder("msgstat-link-");
    mkdirSync(path.join(folder, "data"));
    symlinkSync("data/report.csv", path.join(folder, "second"));
    symlinkSync("second", path.join(folder, "first"));

    const result = await cli(sandbox, [...LISTING, "-o", path.join(folder, "first")]);
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(folder, "data", "report.csv"), "utf8")).toBe(await expectedCsv());
    expect(readlinkSync(path.join(folder, "first"))).toBe("second");
    expect(readlinkSync(path.join(folder, "second"))).toBe("data/report.csv");
    expect(leftovers(folder)).toEqual([]);
    expect(leftovers(path.join(folder, "data"))).toEqual([]);
  });

  it("a link to a folder is a usage error, found before anything is sent", async () => {
    const folder = scratchFolder("msgstat-link-");
    mkdirSync(path.join(folder, "a-folder"));
    const link = path.join(folder, "to-folder");
    symlinkSync("a-folder", link);
    const before = sandbox.requests.length;
    const result = await cli(sandbox, [...LISTING, "-o", link]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: `msgstat: -o ${link} is a folder; name a file\n` });
    expect(sandbox.requests.length).toBe(before);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("a loop of links is a usage error", async () => {
    const folder = scratchFolder("msgstat-link-");
    symlinkSync("b", path.join(folder, "a"));
    symlinkSync("a", path.join(folder, "b"));
    const result = await cli(sandbox, [...LISTING, "-o", path.join(folder, "a")]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: -o ${path.join(folder, "a")}: too many levels of symbolic links\n`,
    });
  });
});

describe("-o onto a FIFO or a device: written straight through, never replaced", () => {
  it("a FIFO: its reader gets the output, and it is still a FIFO with no temporary file beside it", async () => {
    const folder = scratchFolder("msgstat-fifo-");
    const fifo = path.join(folder, "pipe");
    execFileSync("mkfifo", [fifo]);
    // Opening a FIFO waits for the other end: the reader opens first, msgstat's open completes it.
    const reading = readFile(fifo, "utf8");
    const result = await cli(sandbox, [...LISTING, "-o", fifo]);
    expect(result.code).toBe(0);
    expect(await reading).toBe(await expectedCsv());
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(folder)).toEqual(["pipe"]);
  });

  it("a character device (/dev/null): written to, and still the same device afterwards", async () => {
    const folder = scratchFolder("msgstat-device-");
    const device = characterDevice(folder, "null");
    const before = statSync(device);
    const result = await cli(sandbox, [...LISTING, "-o", device]);
    expect(result.code).toBe(0);
    const after = lstatSync(device);
    expect(after.isCharacterDevice()).toBe(true);
    expect([after.rdev, after.ino]).toEqual([before.rdev, before.ino]);
    expect(leftovers(path.dirname(device))).toEqual([]);
  });

  it("/dev/stdout (a link to /proc/self/fd/1): the output goes to stdout", async () => {
    // A link of the test's own to the same place, so that a regression could only replace the copy.
    const folder = scratchFolder("msgstat-descriptor-");
    const link = path.join(folder, "stdout");
    symlinkSync("/proc/self/fd/1", link);
    const result = await cli(sandbox, [...LISTING, "-o", link]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(await expectedCsv());
    expect(readdirSync(folder)).toEqual(["stdout"]);
  });

  it("the same from the executable, whose stdout is a socket that cannot be opened by path", async () => {
    const folder = scratchFolder("msgstat-descriptor-");
    const link = path.join(folder, "stdout");
    symlinkSync("/proc/self/fd/1", link);
    const result = await runBin(["--base-url", sandbox.url, ...LISTING, "-o", link]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^id,recipient,latestStatus,/);
    expect(result.stdout.trimEnd().split("\r\n")).toHaveLength(6);
    expect(readlinkSync(link)).toBe("/proc/self/fd/1");
    expect(readdirSync(folder)).toEqual(["stdout"]);
  });
});

describe("write errors: one plain line saying what failed and what became of the target", () => {
  it("-o onto a full device (/dev/full): exit 1", async () => {
    const folder = scratchFolder("msgstat-full-");
    const device = characterDevice(folder, "full");
    const result = await cli(sandbox, [...LISTING, "-o", device]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `msgstat: cannot write to ${device}: no space left on device (ENOSPC); the output is incomplete\n`,
    });
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it("-o onto a file when the disk refuses more (a file size limit): the file is left as it was, no temporary file", async () => {
    const folder = scratchFolder("msgstat-efbig-");
    const target = path.join(folder, "export.csv");
    writeFileSync(target, "previous export\n");
    // ulimit -f in blocks of 1 KiB; SIGXFSZ ignored, so the write fails with EFBIG as it would with ENOSPC.
    const command = `trap '' XFSZ; ulimit -f 4; exec "${process.execPath}" "${BIN}" --base-url ${sandbox.url} messages cmp-spring-sale --all --csv -o "${target}"`;
    const result = await runShell(command);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `msgstat: cannot write to ${target}: file too large (EFBIG); ${target} was left as it was\n`,
    );
    expect(readFileSync(target, "utf8")).toBe("previous export\n");
    expect(readdirSync(folder)).toEqual(["export.csv"]);
  });

  it("stdout onto a full device: exit 1, not 'unexpected error'", async () => {
    const folder = scratchFolder("msgstat-full-");
    const device = characterDevice(folder, "full");
    const fd = openSync(device, "w");
    try {
      const result = await runWithStdout(["--base-url", sandbox.url, ...LISTING], fd);
      expect(result).toEqual({
        code: 1,
        stderr: "msgstat: cannot write to stdout: no space left on device (ENOSPC); the output is incomplete\n",
      });
    } finally {
      closeSync(fd);
    }
  });
});

describe("long file names", () => {
  it.each([244, 255])("-o with a %i-character name works and leaves no temporary file", async (length) => {
    const folder = scratchFolder("msgstat-long-");
    const target = path.join(folder, `${"x".repeat(length - 4)}.csv`);
    const result = await cli(sandbox, [...LISTING, "-o", target]);
    expect(result.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(await expectedCsv());
    expect(readdirSync(folder)).toEqual([path.basename(target)]);
  });

  it("the temporary name fits in 255 bytes and never cuts a character in two", () => {
    const name = `${"é".repeat(120)}.csv`; // 244 bytes
    const temporary = temporaryName(name);
    expect(Buffer.byteLength(temporary)).toBeLessThanOrEqual(255);
    expect(temporary).not.toContain("\ufffd");
    expect(Buffer.from(temporary).toString("utf8")).toBe(temporary);
    expect(temporary.startsWith(".éé")).toBe(true);
    expect(temporaryName("a.csv")).toMatch(/^\.a\.csv\.msgstat-\d+-[0-9a-z]+-[0-9a-z]+\.tmp$/);
  });
});

function runShell(command: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--norc", "--noprofile", "-c", command], {
      env: { PATH: process.env.PATH, TZ: "UTC" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/** The executable with stdout on the given file descriptor. */
function runWithStdout(args: string[], fd: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, TZ: "UTC" },
      stdio: ["ignore", fd, "pipe"],
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("-o targets", () => {
  // A folder of its own per test, removed when the test ends.
  const folder = () => scratchFolder("msgstat-edge-");

  it("a folder is a usage error before any request", async () => {
    const dir = folder();
    const s = await sandboxForTest();
    const target = path.join(dir, "a-folder");
    mkdirSync(target);
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "--csv", "-o", target]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: `msgstat: -o ${target} is a folder; name a file\n` });
    expect(s.requests).toHaveLength(0);
  });

  it("message -o into a folder that does not exist sends nothing", async () => {
    const dir = folder();
    const s = await sandboxForTest();
    const result = await runCli([
      "--base-url",
      s.url,
      "message",
      "cmp-spring-sale",
      "msg-spring-0000001",
      "-o",
      path.join(dir, "missing", "m.txt"),
    ]);
    expect(result.code).toBe(2);
    expect(s.requests).toHaveLength(0);
  });

  it("a replaced file keeps its permissions", async () => {
    const dir = folder();
    const s = await sandboxForTest();
    const target = path.join(dir, "private.csv");
    writeFileSync(target, "old\n");
    chmodSync(target, 0o600);
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "3", "--csv", "-o", target]);
    expect(result.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, "utf8")).toMatch(/^id,recipient,/);
    expect(readdirSync(dir).filter((name) => name.includes(".msgstat-"))).toEqual([]);
  });

  // Advice after a failure part way (the others are with the continuation hint, commands/messages/hints.test.ts).
  it("with -o, says the file is unchanged instead of offering a cursor past messages it never kept", async () => {
    const dir = folder();
    const s = await sandboxForTest({ faults: [{ path: "after=", kind: "status", status: 500 }] });
    const target = path.join(dir, "kept.csv");
    writeFileSync(target, "old\n");
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      "cmp-spring-sale",
      "--all",
      "--page-size",
      "100",
      "--csv",
      "-o",
      target,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[1]).toBe(
      `  ${target} was left as it was. Run the same command again once the service recovers.`,
    );
    expect(result.stderr).not.toContain("--after");
    expect(readFileSync(target, "utf8")).toBe("old\n");
  });
});

describe("what became of -o's file after a failure or an interrupt: left as it was, or not written", () => {
  const EXPORT = ["messages", "cmp-spring-sale", "--all", "--page-size", "100", "--csv"];

  /** The export into `target` (written before, or not) with its second page failing: HTTP 500, or a stall and Ctrl-C. */
  async function exportFailing(target: string, how: "500" | "interrupt") {
    const s = await sandboxForTest(
      how === "500"
        ? { faults: [{ path: "after=", kind: "status", status: 500 }] }
        : { faults: [{ request: 2, kind: "stall", ms: 60_000 }] },
    );
    const controller = new AbortController();
    if (how === "interrupt")
      void waitFor(() => s.requests.length >= 2, "the second page's request").then(() =>
        controller.abort(new InterruptedError("SIGINT")),
      );
    return runCli(["--base-url", s.url, "--retries", "0", ...EXPORT, "-o", target], { signal: controller.signal });
  }

  it.each([
    [
      "500",
      1,
      (target: string) => `  ${target} was not written. Run the same command again once the service recovers.`,
    ],
    ["interrupt", 130, (target: string) => `  ${target} was not written`],
  ] as const)("a new file (%s): says it was not written, and none is made", async (how, code, line) => {
    const dir = scratchFolder("msgstat-fate-");
    const target = path.join(dir, "down.csv");
    const result = await exportFailing(target, how);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    const lines = result.stderr.split("\n");
    expect(lines[0]).toEqual(how === "500" ? expect.stringMatching(/^msgstat: .*HTTP 500/) : "msgstat: interrupted");
    expect(lines.slice(1)).toEqual([line(target), ""]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an existing file, interrupted: says it was left as it was, and it is", async () => {
    const dir = scratchFolder("msgstat-fate-");
    const target = path.join(dir, "down.csv");
    writeFileSync(target, "previous export\n");
    const result = await exportFailing(target, "interrupt");
    expect(result).toEqual({ code: 130, stdout: "", stderr: `msgstat: interrupted\n  ${target} was left as it was\n` });
    expect(readFileSync(target, "utf8")).toBe("previous export\n");
    expect(readdirSync(dir)).toEqual(["down.csv"]);
  });

  it.each([
    ["a new file", false, "was not written"],
    ["an existing file", true, "was left as it was"],
  ])("%s, and a 404 before any page: the hints end with what became of it", async (_what, existed, fate) => {
    const dir = scratchFolder("msgstat-fate-");
    const target = path.join(dir, "missing.csv");
    if (existed) writeFileSync(target, "previous export\n");
    const result = await cli(sandbox, ["messages", "cmp-nope", "--csv", "-o", target]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "  Check the campaign id cmp-nope (ids are matched exactly, case included).",
      `  ${target} ${fate}`,
      "",
    ]);
    expect(readdirSync(dir)).toEqual(existed ? ["missing.csv"] : []);
    if (existed) expect(readFileSync(target, "utf8")).toBe("previous export\n");
  });

  it("a cursor the service refuses: the usage error ends with the file's fate too", async () => {
    const dir = scratchFolder("msgstat-fate-");
    const target = path.join(dir, "refused.csv");
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--after", "bogus", "--csv", "-o", target]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^msgstat: the service refused --after bogus with HTTP 400 /);
    expect(result.stderr.split("\n").slice(-2)).toEqual([`  ${target} was not written`, ""]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a device, and a 404 before any page: no line about it, since nothing was written to it", async () => {
    const result = await cli(sandbox, ["messages", "cmp-nope", "--csv", "-o", "/dev/null"]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "  Check the campaign id cmp-nope (ids are matched exactly, case included).",
      "",
    ]);
  });

  it("a new file the disk refuses: the error line says it was not written", async () => {
    const folder = scratchFolder("msgstat-efbig-");
    const target = path.join(folder, "export.csv");
    const command = `trap '' XFSZ; ulimit -f 4; exec "${process.execPath}" "${BIN}" --base-url ${sandbox.url} messages cmp-spring-sale --all --csv -o "${target}"`;
    const result = await runShell(command);
    expect(result).toEqual({
      code: 1,
      stderr: `msgstat: cannot write to ${target}: file too large (EFBIG); ${target} was not written\n`,
    });
    expect(readdirSync(folder)).toEqual([]);
  });
});

// From cli.test.ts (was cli/errors-and-requests.test.ts): -o on the plain path, and on a failure.
describe("-o, --output", () => {
  const folder = () => scratchFolder("msgstat-out-");

  it("writes the file (same bytes as stdout would get), nothing on stdout, no temporary file left", async () => {
    const dir = folder();
    const target = path.join(dir, "all.csv");
    writeFileSync(target, "old content\n");
    const piped = await cli(sandbox, ["messages", "cmp-spring-sale", "--all", "--csv", "--page-size", "60"]);
    const toFile = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--csv",
      "--page-size",
      "60",
      "-o",
      target,
    ]);
    expect(toFile).toEqual({ code: 0, stdout: "", stderr: `wrote 200 messages to ${target}\n` });
    expect(readFileSync(target, "utf8")).toBe(piped.stdout);
    expect(readdirSync(dir)).toEqual(["all.csv"]);
  });

  it("a listing with a hint still writes the file; the hint stays on stderr", async () => {
    const dir = folder();
    const target = path.join(dir, "some.jsonl");
    const page = await serverPage(sandbox, "/campaigns/cmp-spring-sale/messages", { limit: 4 });
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "4", "--jsonl", "-o", target]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(`wrote 4 messages to ${target}, cut short by --limit 4: more may follow`);
    expect(result.stderr).toContain(`--after ${page.pageData.endCursor}`);
    expect(readFileSync(target, "utf8")).toBe(jsonlText(page.data));
  });

  it.each<[string, (dir: string) => Promise<number>]>([
    [
      "a campaign that 404s",
      async (dir) => (await cli(sandbox, ["messages", "cmp-nope", "--csv", "-o", path.join(dir, "out.csv")])).code,
    ],
    [
      "a message that 404s",
      async (dir) =>
        (await cli(sandbox, ["message", "cmp-spring-sale", "msg-nope", "--json", "-o", path.join(dir, "out.csv")]))
          .code,
    ],
    [
      "a failure on the third page",
      async (dir) => {
        const failing = await startTestSandbox({
          faults: [{ path: /after=/, request: 3, kind: "status", status: 500 }],
        });
        try {
          return (
            await cli(failing, [
              "messages",
              "cmp-spring-sale",
              "--all",
              "--csv",
              "--page-size",
              "20",
              "--retries",
              "0",
              "-o",
              path.join(dir, "out.csv"),
            ])
          ).code;
        } finally {
          await failing.close();
        }
      },
    ],
  ])("on %s the target is untouched and no temporary file is left", async (_name, run) => {
    const dir = folder();
    writeFileSync(path.join(dir, "out.csv"), "previous run\n");
    const code = await run(dir);
    expect(code).not.toBe(0);
    expect(readFileSync(path.join(dir, "out.csv"), "utf8")).toBe("previous run\n");
    expect(readdirSync(dir)).toEqual(["out.csv"]);
  });

  it("message -o writes the view", async () => {
    const dir = folder();
    const target = path.join(dir, "one.json");
    const result = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000005", "--json", "-o", target]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote message msg-spring-0000005 to ${target}\n` });
    const sent = await (await fetch(`${sandbox.url}/campaigns/cmp-spring-sale/messages/msg-spring-0000005`)).text();
    expect(readFileSync(target, "utf8")).toBe(sent + "\n");
  });
});

describe("-o with an extension msgstat has no format for (issue 21, defect 4)", () => {
  const LISTING = [
    "known: .csv, .json, .jsonl, .ndjson, .tsv and .parquet",
    "  Rename the file, or choose a format with --format (any file name then works).",
  ];
  const STATS = [
    "known: .txt, .json, .csv, .html, .htm, .md and .prom",
    "  Rename it (.txt for the report, .html for a page), or choose a format with --format: any name then works.",
  ];
  const MESSAGE = ["known: .txt and .json", "  Rename it (.txt for the view), or add --json: any name then works."];
  it.each<[string, (file: string) => string[], string, string[]]>([
    ["messages m.xlsx", (file) => ["messages", "cmp-spring-sale", "-o", file], "m.xlsx", LISTING],
    ["messages m.txt", (file) => ["messages", "cmp-spring-sale", "-o", file], "m.txt", LISTING],
    ["batch m.XLSX", (file) => ["batch", "cmp-spring-sale", "bat-spring-w1", "-o", file], "m.XLSX", LISTING],
    ["find f.html", (file) => ["find", "447700900123", "cmp-spring-sale", "-o", file], "f.html", LISTING],
    ["stats r.pdf", (file) => ["stats", "cmp-spring-sale", "-o", file], "r.pdf", STATS],
    ["stats r.jsonl", (file) => ["stats", "cmp-spring-sale", "-o", file], "r.jsonl", STATS],
    ["message m.csv", (file) => ["message", "cmp-spring-sale", "msg-spring-0000005", "-o", file], "m.csv", MESSAGE],
  ])("%s: exit 2 before anything is sent, naming the extensions known; no file", async (_name, args, name, said) => {
    const folder = scratchFolder("msgstat-type-");
    const file = path.join(folder, name);
    const result = await cliWithRequests(sandbox, args(file));
    const extension = path.extname(name).toLowerCase();
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: -o ${file}: no format for ${extension} files; ${said[0]}\n${said[1]}\n`,
      urls: [],
    });
    expect(readdirSync(folder)).toEqual([]);
  });

  it.each<[string, string[], string, (text: string) => void]>([
    [
      "--format csv -o m.xlsx writes CSV",
      ["messages", "cmp-spring-sale", "-n", "2", "--format", "csv"],
      "m.xlsx",
      (text) => expect(text.split("\r\n")[0]).toMatch(/^id,recipient,latestStatus,/),
    ],
    [
      "--json -o m.txt writes JSON",
      ["messages", "cmp-spring-sale", "-n", "2", "--json"],
      "m.txt",
      (text) => expect((JSON.parse(text) as unknown[]).length).toBe(2),
    ],
    [
      "stats --json -o r.pdf writes JSON",
      ["stats", "cmp-spring-sale", "--json"],
      "r.pdf",
      (text) => expect(JSON.parse(text)).toHaveProperty("totals"),
    ],
    [
      "stats --json -o r.txt writes JSON (.txt takes any text)",
      ["stats", "cmp-spring-sale", "--json"],
      "r.txt",
      (text) => expect(JSON.parse(text)).toHaveProperty("totals"),
    ],
    [
      "stats -o r.txt writes the report",
      ["stats", "cmp-spring-sale"],
      "r.txt",
      (text) => expect(text.split("\n")[0]).toBe("Delivery report: campaign cmp-spring-sale, times in UTC"),
    ],
    [
      "message -o m.txt writes the view",
      ["message", "cmp-spring-sale", "msg-spring-0000005"],
      "m.txt",
      (text) => expect(text.split("\n")[0]).toMatch(/^Message msg-spring-0000005 /),
    ],
    [
      "a name without an extension keeps the default: the table, tab-separated",
      ["messages", "cmp-spring-sale", "-n", "2"],
      "failures",
      (text) => expect(text.split("\n")[0]).toBe("ID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE"),
    ],
    [
      "a date after the last dot is no extension: the default",
      ["messages", "cmp-spring-sale", "-n", "2"],
      "failures.2026-11-26",
      (text) => expect(text.split("\n")[0]).toBe("ID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE"),
    ],
  ])("%s", async (_name, args, name, check) => {
    const folder = scratchFolder("msgstat-type-");
    const file = path.join(folder, name);
    const result = await cli(sandbox, [...args, "-o", file]);
    expect(result.code).toBe(0);
    check(readFileSync(file, "utf8"));
  });
});
