// Time to first row: the rows of a page reach the reader at the page boundary when the next page is
// not there yet, not when 64 KB have piled up. Shown without timing: the second page is held back
// until the first page's rows have been seen on stdout, so a run that kept them buffered never ends
// (and fails on the wait), while one that flushes them completes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InterruptedError } from "../../src/core/errors.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { waitFor } from "../support/wait-for.js";
import { cli, startTestSandbox } from "./cli-helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  // Every listing request after the first is stalled far longer than any test runs.
  sandbox = await startTestSandbox({ messages: 3000, faults: [{ path: "after=", kind: "stall", ms: 600_000 }] });
});
afterAll(() => sandbox.close());

describe.each([
  ["csv", ["--csv"]],
  ["jsonl", ["--jsonl"]],
  ["the piped table", []],
  ["csv to a terminal", ["--csv"], true],
] as const)("%s", (_name, flags, tty?: boolean) => {
  it("shows a filtered page's rows while the next page is still on its way", async () => {
    const controller = new AbortController();
    let seen = "";
    const run = cli(sandbox, ["messages", "cmp-spring-sale", "--status", "failure", "--all", ...flags], {
      tty: tty === true,
      signal: controller.signal,
      onStdout: (text) => (seen += text),
    });
    // A few failures in the first 1000 messages make far less than 64 KB.
    await waitFor(() => seen.split("\n").filter((line) => line.includes("msg-spring-")).length >= 20, "the first page's rows on stdout");
    controller.abort(new InterruptedError("SIGINT"));
    const { code, stdout } = await run;
    expect(code).toBe(130);
    expect(stdout.startsWith(seen)).toBe(true);
  });
});
