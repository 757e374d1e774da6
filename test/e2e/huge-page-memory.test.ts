// A server that ignores `limit` and sends one 62 MB page of 775,000 messages: the export completes with
// every message, and memory stays under the figure docs/security.md gives (issue 11, item 13: it cost
// about 820 MB when the page was parsed whole).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListingServer, type ListingServer } from "../support/listing-server.js";
import { BIN } from "../support/run-cli.js";
import { spawn } from "node:child_process";

const MESSAGES = 775_000;
/** docs/security.md's figure for a page of this size ("Memory"). */
const LIMIT_MB = 400;
const PROBE = fileURLToPath(new URL("../../bench/lib/peak-rss.mjs", import.meta.url));

let server: ListingServer;
let url: string;
let bodyBytes = 0;
const scratch = mkdtempSync(path.join(os.tmpdir(), "msgstat-huge-page-"));

beforeAll(async () => {
  // 81 bytes a message, six objects and arrays in each: what makes a parsed page many times its size.
  const parts: string[] = [];
  for (let i = 0; i < MESSAGES; i++)
    parts.push(`{"id":"m${String(i).padStart(7, "0")}","values":{},"batches":[],"messageAttempts":[{}],"x":[],"y":10}`);
  const body = Buffer.from(`{"data":[${parts.join(",")}],"pageData":{"hasNextPage":false}}`);
  bodyBytes = body.length;
  server = await startListingServer(() => body, { outsideTest: true });
  url = server.url;
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the built msgstat; its stdout's line count and its peak RSS (the kernel's VmHWM) in MB. */
function runMeasured(args: string[]): Promise<{ code: number | null; lines: number; peakMb: number; stderr: string }> {
  const rssFile = path.join(scratch, `rss-${args.join("-").replace(/\W+/g, "_")}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", PROBE, BIN, "--base-url", url, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: "UTC", BENCH_PEAK_RSS_FILE: rssFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lines = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, lines, stderr, peakMb: Number(readFileSync(rssFile, "utf8")) / 1024 }));
  });
}

describe("one page of 775,000 messages (62 MB)", () => {
  it.each([
    ["--jsonl", MESSAGES],
    ["--csv", MESSAGES + 1],
  ])(
    `messages --all %s: every message, peak RSS under ${LIMIT_MB} MB`,
    async (format, lines) => {
      expect(bodyBytes).toBeGreaterThan(62_000_000);
      const result = await runMeasured(["messages", "c", "--all", format]);
      expect({ code: result.code, lines: result.lines, stderr: result.stderr }).toEqual({ code: 0, lines, stderr: "" });
      expect(result.peakMb).toBeLessThan(LIMIT_MB);
    },
    120_000,
  );
});
