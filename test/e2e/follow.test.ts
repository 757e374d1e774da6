// messages --follow from the built executable, stopped with a real SIGINT.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startListingServer } from "../support/listing-server.js";
import { runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { waitFor } from "../support/wait-for.js";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe("the built executable, with real signals", () => {
  it("messages --follow --jsonl -o file, stopped with SIGINT: exit 130, complete lines only, in order", async () => {
    // A live sandbox on the real clock, at a brisk rate; nothing is timed: the signal is sent once the
    // file holds enough lines.
    sandbox = await startSandbox({ live: { ratePerSecond: 50 } });
    const dir = scratchFolder("msgstat-follow-bin-");
    const file = path.join(dir, "live.jsonl");
    const lines = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);
    const result = await runBin(
      ["--base-url", sandbox.url, "messages", "cmp-live", "--follow", "--every", "1s", "-o", file],
      {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          void waitFor(() => lines() >= 60, "60 lines in the file").then(
            () => child.kill("SIGINT"),
            () => child.kill("SIGKILL"),
          );
        },
      },
    );
    expect(result.code).toBe(130);
    expect(result.stderr).toBe("msgstat: interrupted\n");
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const serials = text
      .trimEnd()
      .split("\n")
      .map((line) => Number((JSON.parse(line) as Message).id.slice("msg-live-".length)));
    expect(serials.length).toBeGreaterThanOrEqual(60);
    expect(serials).toEqual(serials.map((_, i) => serials[0]! + i));
  });
});

describe("SIGINT while large records are being written to -o (issue 25, 17)", () => {
  it("never leaves a cut last record: 24 runs, each interrupted at a different point of the writing", async () => {
    // A listing of large records (about 30 kB each, fresh ones for each request), so the first chunk
    // alone (-n 600) is some 18 MB written in many pieces; each run is interrupted once the file has
    // grown past a different size (watched closely: the writing takes a fraction of a second), so the
    // signal lands all along the writing. Nothing is timed.
    const pad = "y".repeat(30_000);
    let serial = 0;
    const record = () => ({
      id: `m${++serial}`,
      createdAt: new Date(Date.parse("2026-11-22T09:00:00.000Z") + serial).toISOString().replace("Z", "+00:00"),
      latestStatus: "success",
      recipient: "4915112345678",
      messageAttempts: [{ status: "success", creator: { email: "a@b.c" } }],
      fullMessage: pad,
      language: "english",
    });
    const { url } = await startListingServer((target) => {
      const limit = Number(target.searchParams.get("limit") ?? "10");
      const data = Array.from({ length: Math.min(limit, 600) }, record).reverse();
      return { data, pageData: { hasNextPage: false, hasPreviousPage: false } };
    });
    const dir = scratchFolder("msgstat-follow-cut-");
    const runs = 24;
    for (let run = 0; run < runs; run++) {
      const file = path.join(dir, `live-${run}.jsonl`);
      const size = () => (existsSync(file) ? statSync(file).size : 0);
      const threshold = Math.round(((run + 1) / (runs + 1)) * 16_000_000);
      const result = await runBin(["--base-url", url, "messages", "cmp", "--follow", "-n", "600", "-o", file], {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          void waitFor(() => size() > threshold, `the file past ${threshold} bytes`, 20_000, 1).then(
            () => child.kill("SIGINT"),
            () => child.kill("SIGKILL"),
          );
        },
      });
      const what = `run ${run}, interrupted past ${threshold} bytes`;
      expect(result.code, what).toBe(130);
      expect(result.stderr, what).toBe("msgstat: interrupted\n");
      const text = readFileSync(file, "utf8");
      expect(text.endsWith("\n"), `${what}: the file ends with a whole line`).toBe(true);
      const ids = text
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as Message).id);
      expect(new Set(ids).size, what).toBe(ids.length);
    }
  }, 120_000);
});
