// -o x.csv.gz, x.jsonl.gz, x.json.gz (and the stats and message outputs): the same bytes stdout would get,
// gzip-compressed as they are written, atomic as every -o is; the extension before .gz names the format.
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { cli, cliWithRequests, serverListing, startTestSandbox, useTestSandbox } from "../../support/cli-helpers.js";
import { scratchFolder } from "../../support/scratch.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

/** A gzip member starts with 1f 8b and the deflate method (8). */
const isGzip = (bytes: Buffer) => bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8;

/** Runs `args` piped and again with -o <folder>/<name>: the gunzipped file must be stdout's bytes. */
async function pipedAndGzipped(args: string[], name: string) {
  const folder = scratchFolder("msgstat-gzip-");
  const target = path.join(folder, name);
  const piped = await cli(sandbox, args);
  expect(piped.code).toBe(0);
  const written = await cli(sandbox, [...args, "-o", target]);
  const bytes = readFileSync(target);
  expect(isGzip(bytes)).toBe(true);
  expect(readdirSync(folder)).toEqual([name]);
  return { piped, written, target, text: gunzipSync(bytes).toString("utf8") };
}

describe("-o with .gz: gzip-compressed, the format from the extension before it", () => {
  it("failures.csv.gz: one line on stderr, and csv-parse reads back the server's failures", async () => {
    const { piped, written, target, text } = await pipedAndGzipped(
      ["messages", "cmp-spring-sale", "--status", "failure", "--all", "--csv"],
      "failures.csv.gz",
    );
    const failures = (await serverListing(sandbox, "/campaigns/cmp-spring-sale/messages")).filter(
      (message) => message.latestStatus === "failure",
    );
    expect(written).toEqual({ code: 0, stdout: "", stderr: `wrote ${failures.length} messages to ${target}\n` });
    expect(text).toBe(piped.stdout);
    const rows = parse<Record<string, string>>(text, { columns: true });
    expect(rows.map((row) => [row.id, row.latestStatus])).toEqual(failures.map((m) => [m.id, "failure"]));
  });

  it.each([
    ["m.jsonl.gz", ["messages", "cmp-spring-sale", "--all", "--jsonl"]],
    ["m.json.gz", ["messages", "cmp-spring-sale", "--all", "--json"]],
    ["M.CSV.GZ", ["messages", "cmp-spring-sale", "--all", "--csv"]],
    ["m.tsv.gz", ["messages", "cmp-spring-sale", "--all", "--format", "tsv"]],
    ["b.jsonl.gz", ["batch", "cmp-spring-sale", "bat-spring-w1", "--all", "--jsonl"]],
    ["f.csv.gz", ["find", "447700900123", "cmp-spring-sale", "--csv"]],
    ["two.csv.gz", ["messages", "cmp-spring-sale", "cmp-loyalty-es", "--all", "--csv"]],
    ["s.json.gz", ["stats", "cmp-spring-sale", "--json"]],
    ["s.csv.gz", ["stats", "cmp-spring-sale", "--csv"]],
    ["s.txt.gz", ["stats", "cmp-spring-sale"]],
    ["one.json.gz", ["message", "cmp-spring-sale", "msg-spring-0000005", "--json"]],
  ])("%s: the gunzipped file is what stdout gets", async (name, args) => {
    const { piped, written, text } = await pipedAndGzipped(args, name);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe("");
    expect(text).toBe(piped.stdout);
    expect(text.length).toBeGreaterThan(0);
  });

  it("a name ending in .gz alone takes the format flag (or the table's tab-separated form without one)", async () => {
    const csv = await pipedAndGzipped(["messages", "cmp-spring-sale", "-n", "5", "--csv"], "export.gz");
    expect(csv.text).toBe(csv.piped.stdout);
    expect(csv.text.startsWith("id,recipient,")).toBe(true);
    const tsv = await pipedAndGzipped(["messages", "cmp-spring-sale", "-n", "5", "--format", "tsv"], "export.gz");
    const fallback = await pipedAndGzipped(["messages", "cmp-spring-sale", "-n", "5"], "export.gz");
    expect(fallback.text).toBe(tsv.piped.stdout);
  });

  it("the file is gzipped as it is written: 20,000 messages, far smaller than the CSV", async () => {
    const big = await startTestSandbox({ messages: 20_000 });
    try {
      const folder = scratchFolder("msgstat-gzip-");
      const target = path.join(folder, "all.csv.gz");
      const result = await cli(big, ["messages", "cmp-spring-sale", "--all", "--csv", "-o", target]);
      expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote 20,000 messages to ${target}\n` });
      const bytes = readFileSync(target);
      const text = gunzipSync(bytes).toString("utf8");
      expect(parse(text, { columns: true })).toHaveLength(20_000);
      expect(bytes.length).toBeLessThan(Buffer.byteLength(text) / 3);
    } finally {
      await big.close();
    }
  });

  it("a FIFO named .gz: its reader gets gzip, written straight through", async () => {
    const folder = scratchFolder("msgstat-gzip-fifo-");
    const fifo = path.join(folder, "feed.csv.gz");
    execFileSync("mkfifo", [fifo]);
    const args = ["messages", "cmp-spring-sale", "-n", "5", "--csv"];
    // Opening a FIFO waits for the other end: the reader opens first, msgstat's open completes it.
    const reading = readFile(fifo);
    const result = await cli(sandbox, [...args, "-o", fifo]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(`wrote 5 messages to ${fifo}, cut short by --limit 5: more may follow`);
    expect(gunzipSync(await reading).toString("utf8")).toBe((await cli(sandbox, args)).stdout);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(folder)).toEqual(["feed.csv.gz"]);
  });
});

describe("-o with .gz: refused as the other names are, before anything is sent", () => {
  it.each<[string, string[], string]>([
    [
      "m.xlsx.gz",
      ["messages", "cmp-spring-sale"],
      "no format for .xlsx.gz files; known: .csv, .json, .jsonl, .ndjson, .tsv and .parquet\n" +
        "  Rename the file, or choose a format with --format (any file name then works).\n",
    ],
    ["m.csv.gz", ["messages", "cmp-spring-sale", "--json"], ""],
  ])("%s", async (name, args, said) => {
    const folder = scratchFolder("msgstat-gzip-refused-");
    const file = path.join(folder, name);
    const result = await cliWithRequests(sandbox, [...args, "-o", file]);
    const expected =
      said === ""
        ? `msgstat: --json contradicts -o ${file}: a .csv.gz file is csv\n` +
          "  Leave out --json (the extension sets the format), or name the file for json.\n"
        : `msgstat: -o ${file}: ${said}`;
    expect(result).toEqual({ code: 2, stdout: "", stderr: expected, urls: [] });
    expect(readdirSync(folder)).toEqual([]);
  });

  it("a failure on the third page leaves x.csv.gz as it was, and no temporary file", async () => {
    const failing = await startTestSandbox({ faults: [{ path: /after=/, request: 3, kind: "status", status: 500 }] });
    try {
      const folder = scratchFolder("msgstat-gzip-fail-");
      const target = path.join(folder, "out.csv.gz");
      writeFileSync(target, "previous run\n");
      const args = ["messages", "cmp-spring-sale", "--all", "--page-size", "20", "--retries", "0", "-o", target];
      const result = await cli(failing, args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(readFileSync(target, "utf8")).toBe("previous run\n");
      expect(readdirSync(folder)).toEqual(["out.csv.gz"]);
    } finally {
      await failing.close();
    }
  });
});
