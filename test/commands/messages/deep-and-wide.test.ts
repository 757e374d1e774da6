// Input deep or wide enough to break recursive or spread-based code: a field nested 100,000 levels
// deep (JSON.parse takes any depth, JSON.stringify overflows the stack at a few thousand), a message
// with 200,000 values, and a page of 150,000 messages from a server that ignores `limit`. Each format
// handles them; none ends in "Maximum call stack size exceeded" after partial output.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { stringifyAtAnyDepth } from "../../../src/core/json-stringify.js";
import { NOW } from "../../support/cli-helpers.js";
import { startListingServer, type ListingServer } from "../../support/listing-server.js";
import { runCli, type CliOptions } from "../../support/run-cli.js";

const DEPTH = 100_000;
const deepArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const plain = (id: string) =>
  `{"id":"${id}","createdAt":"2025-05-01T10:00:00.000+00:00","latestStatus":"success","recipient":"15550100"}`;
// The same message but for one unchecked field and one placeholder value nested DEPTH levels deep.
const deepMessage = `{"id":"deep","createdAt":"2025-05-01T09:00:00.000+00:00","latestStatus":"failure","values":{"name":"Ana","nested":${deepArray}},"extra":{"tree":${deepArray}}}`;
const deepPage = `{"data":[${plain("m1")},${deepMessage},${plain("m2")}],"pageData":{"hasNextPage":false,"hasPreviousPage":false}}`;

const run = (server: ListingServer, args: string[], options: CliOptions = {}) =>
  runCli(["--base-url", server.url, "--retries", "0", ...args], { now: NOW, ...options });
const NO_CRASH = /Maximum call stack|unexpected error/;

describe(`a field nested ${DEPTH.toLocaleString("en-US")} levels deep`, () => {
  const serveDeep = () =>
    startListingServer((url) => (url.pathname.endsWith("/messages/deep") ? deepMessage : deepPage));

  it("JSONL carries it exactly as sent", async () => {
    const result = await run(await serveDeep(), ["messages", "cmp", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: `${plain("m1")}\n${deepMessage}\n${plain("m2")}\n`, stderr: "" });
  });

  it("JSON too, piped (one object a line) and on a terminal (the deep one on one line)", async () => {
    const server = await serveDeep();
    const piped = await run(server, ["messages", "cmp", "--json"]);
    expect(piped).toEqual({ code: 0, stdout: `[\n${plain("m1")},\n${deepMessage},\n${plain("m2")}\n]\n`, stderr: "" });
    const terminal = await run(server, ["messages", "cmp", "--json"], { tty: true });
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain(`,\n  ${deepMessage},\n`);
    expect((JSON.parse(terminal.stdout) as { id: string }[]).map((message) => message.id)).toEqual([
      "m1",
      "deep",
      "m2",
    ]);
  });

  it("CSV, table and the message view show it as JSON text", async () => {
    const server = await serveDeep();
    const csv = await run(server, ["messages", "cmp", "--csv", "--fields", "id,values"]);
    expect(csv.code).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { id: "m1", values: "" },
      { id: "deep", values: `{"name":"Ana","nested":${deepArray}}` },
      { id: "m2", values: "" },
    ]);
    for (const tty of [false, true]) {
      const table = await run(server, ["messages", "cmp", "--fields", "id,values"], { tty, columns: 80 });
      expect(table.code, `tty ${tty}`).toBe(0);
      expect(table.stdout).toMatch(/^deep\s+\{"name":"Ana","nested":\[\[\[/m);
    }
    const view = await run(server, ["message", "cmp", "deep"]);
    expect(view.code).toBe(0);
    expect(view.stdout).toContain(`  nested  ${deepArray}\n`);
    const json = await run(server, ["message", "cmp", "deep", "--json"]);
    expect(json).toEqual({ code: 0, stdout: `${deepMessage}\n`, stderr: "" });
  });

  it("stats counts the message", async () => {
    const result = await run(await serveDeep(), ["stats", "cmp", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(NO_CRASH);
    expect((JSON.parse(result.stdout) as { totals: { messages: number } }).totals.messages).toBe(3);
  });

  it("stringifyAtAnyDepth writes what JSON.stringify would, had it the stack", () => {
    const shallow = { a: [1, "x", null, true, { b: undefined, c: [] }], d: {}, "e\n": "\u2028" };
    const deep = { list: JSON.parse(deepArray) as unknown, shallow };
    expect(stringifyAtAnyDepth(shallow)).toBe(JSON.stringify(shallow));
    expect(stringifyAtAnyDepth(shallow, 2)).toBe(JSON.stringify(shallow, null, 2));
    expect(stringifyAtAnyDepth(deep)).toBe(`{"list":${deepArray},"shallow":${JSON.stringify(shallow)}}`);
    expect(stringifyAtAnyDepth([undefined, () => 1])).toBe("[null,null]");
  });
});

describe("a message with 200,000 values", () => {
  const KEYS = 200_000;
  const values: Record<string, string> = {};
  for (let i = 0; i < KEYS; i++) values[`k${i}`] = `v${i}`;
  const message = { id: "wide", createdAt: "2025-05-01T09:00:00.000+00:00", latestStatus: "success", values };
  const text = JSON.stringify(message);
  const serveWide = () =>
    startListingServer((url) =>
      url.pathname.endsWith("/messages/wide") ? text : `{"data":[${text}],"pageData":{"hasNextPage":false}}`,
    );

  it("the message view lists every value", async () => {
    const result = await run(await serveWide(), ["message", "cmp", "wide"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines.filter((line) => /^ {2}k\d+ +v\d+$/.test(line))).toHaveLength(KEYS);
    expect(lines).toContain("  k199999  v199999");
  });

  it("JSONL, CSV and the table carry it", async () => {
    const server = await serveWide();
    expect(await run(server, ["messages", "cmp", "--jsonl"])).toEqual({ code: 0, stdout: `${text}\n`, stderr: "" });
    const csv = await run(server, ["messages", "cmp", "--csv", "--fields", "id,values"]);
    expect(csv.code).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ id: "wide", values: JSON.stringify(values) }]);
    const table = await run(server, ["messages", "cmp", "--fields", "id,values.k199999"], { tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^wide\s+v199999$/m);
  });
});

describe("a page of 150,000 messages from a server that ignores limit", () => {
  const COUNT = 150_000;
  const body = `{"data":[${Array.from({ length: COUNT }, (_, i) => plain(`m${i}`)).join(",")}],"pageData":{"hasNextPage":false}}`;

  it("every format takes the whole page", async () => {
    const server = await startListingServer(() => body);
    for (const format of ["--jsonl", "--csv", "--json", "--format=table"]) {
      const result = await run(server, ["messages", "cmp", "--all", format]);
      expect(result.code, format).toBe(0);
      expect(result.stderr, format).toBe("");
      expect(result.stdout, format).toContain("m149999");
    }
    const stats = await run(server, ["stats", "cmp", "--json"]);
    expect(stats.code).toBe(0);
    expect((JSON.parse(stats.stdout) as { totals: { messages: number } }).totals.messages).toBe(COUNT);
    const report = await run(server, ["stats", "cmp"], { tty: true });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("150,000 messages");
  });

  it(
    "the table on a terminal too",
    async () => {
      const server = await startListingServer(() => body);
      // One column: the terminal table costs microseconds a cell (measured and padded), a second or more for this page.
      const table = await run(server, ["messages", "cmp", "--all", "--fields", "id", "--no-color"], {
        tty: true,
        columns: 120,
      });
      expect(table.code).toBe(0);
      expect(table.stderr).toBe("");
      const lines = table.stdout.trimEnd().split("\n");
      // A page this large is read in parts, each laid out as a page would be: the header comes again,
      // after a blank line, above a part whose ids are wider (m1000 after m999).
      expect(lines[0]).toBe("id");
      expect(lines.filter((line) => line !== "id" && line !== "")).toEqual(
        Array.from({ length: COUNT }, (_, i) => `m${i}`),
      );
    },
    // Work, not waiting: about 8 s on an idle two-core machine, a few times that on a loaded one.
    120_000,
  );

  it("with --limit, the first messages of it", async () => {
    const server = await startListingServer(() => body);
    const result = await run(server, ["messages", "cmp", "-n", "3", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${plain("m0")}\n${plain("m1")}\n${plain("m2")}\n`);
  });
});
