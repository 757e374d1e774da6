// messages --follow from the built executable, stopped with a real SIGINT.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
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
