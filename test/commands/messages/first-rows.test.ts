// Time to first row: the rows of a page reach the reader at the page boundary when the next page is
// not there yet, not when 64 KB have piled up. Shown without timing: the second page is held back
// until the first page's rows have been seen on stdout, so a run that kept them buffered never ends
// (and fails on the wait), while one that flushes them completes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/core/errors.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { waitFor } from "../../support/wait-for.js";
import { cli, startTestSandbox } from "../../support/cli-helpers.js";

let sandbox: Sandbox;
beforeAll(async () => {
  // Every listing request after the first is stalled far longer than any test runs.
  sandbox = await startTestSandbox({ messages: 3000, faults: [{ path: "after=", kind: "stall", ms: 600_000 }] });
});
afterAll(() => sandbox.close());

describe.each([
  ["csv", ["--csv"], false],
  ["jsonl", ["--jsonl"], false],
  ["the piped table", [], false],
  ["csv to a terminal", ["--csv"], true],
  ["the table on a terminal", [], true],
] as const)("%s", (_name, flags, tty) => {
  it("shows a filtered page's rows while the next page is still on its way", async () => {
    const controller = new AbortController();
    let seen = "";
    const run = cli(sandbox, ["messages", "cmp-spring-sale", "--status", "failure", "--all", ...flags], {
      tty,
      signal: controller.signal,
      onStdout: (text) => (seen += text),
    });
    // A few failures in the first 1000 messages make far less than 64 KB.
    await waitFor(
      () => seen.split("\n").filter((line) => line.includes("msg-spring-")).length >= 20,
      "the first page's rows on stdout",
    );
    controller.abort(new InterruptedError("SIGINT"));
    const { code, stdout } = await run;
    expect(code).toBe(130);
    expect(stdout.startsWith(seen)).toBe(true);
  });
});

describe("the table on a terminal", () => {
  it("shows a page's first rows before the rest of that page is drawn", async () => {
    const controller = new AbortController();
    const writes: string[] = [];
    const rowsIn = (text: string) => text.split("\n").filter((line) => line.includes("msg-spring-")).length;
    const run = cli(sandbox, ["messages", "cmp-spring-sale", "--all", "--no-color"], {
      tty: true,
      columns: 160,
      signal: controller.signal,
      onStdout: (text) => writes.push(text),
    });
    await waitFor(() => rowsIn(writes.join("")) >= 1000, "the first page's 1000 rows on stdout");
    controller.abort(new InterruptedError("SIGINT"));
    const { code, stdout } = await run;
    expect(code).toBe(130);
    // The page went out in slices of rows, each whole lines, the first one with the header.
    const withRows = writes.filter((text) => rowsIn(text) > 0);
    expect(withRows.length).toBeGreaterThanOrEqual(10);
    expect(rowsIn(withRows[0]!)).toBeLessThanOrEqual(50);
    expect(withRows[0]!.startsWith("ID ")).toBe(true);
    for (const text of withRows) expect(text.endsWith("\n")).toBe(true);
    expect(stdout.startsWith(writes.join(""))).toBe(true);
  });
});
