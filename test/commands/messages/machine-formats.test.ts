// Output for programs is never cut short without a word (issue 21): --json, --jsonl, --csv, --format tsv
// and -o read every message unless -n says otherwise; the default 50 is the table's, for a person; -n
// that leaves messages behind says so on stderr, exit 0. Against the sandbox's full-size data: every
// failure of cmp-spring-sale is more than one default page.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { NOW, serverListing } from "../../support/cli-helpers.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

let sandbox: Sandbox;
/** Every failure of cmp-spring-sale, newest first, as the server lists them. */
let failures: Message[];
let batchMessages: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ now: NOW });
  const listing = await serverListing(sandbox, "/campaigns/cmp-spring-sale/messages");
  failures = listing.filter((message) => message.latestStatus === "failure");
  batchMessages = await serverListing(sandbox, "/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages");
});
afterAll(() => sandbox.close());

const run = (args: string[]) => runCli(["--base-url", sandbox.url, ...args], { now: NOW });
const FAILURES = ["messages", "cmp-spring-sale", "--status", "failure"];
const lines = (text: string) => text.split("\n").filter((line) => line !== "");
const idsOfJsonl = (text: string) => lines(text).map((line) => (JSON.parse(line) as Message).id);
const idsOfCsv = (text: string) => parse<{ id: string }>(text, { columns: true }).map((row) => row.id);
const idsOfTsv = (text: string) =>
  lines(text)
    .slice(1)
    .map((line) => line.split("\t")[0]!);
const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

describe("without -n, a machine format has every message", () => {
  it("the data is larger than the default limit (what the tests below rely on)", () => {
    expect(failures.length).toBeGreaterThan(50);
    expect(batchMessages.length).toBeGreaterThan(50);
  });

  it.each<[string, string[], (stdout: string) => string[]]>([
    ["--json", ["--json"], (stdout) => (JSON.parse(stdout) as Message[]).map((message) => message.id)],
    ["--jsonl", ["--jsonl"], idsOfJsonl],
    ["--csv", ["--csv"], idsOfCsv],
    ["--format tsv", ["--format", "tsv"], idsOfTsv],
  ])("--status failure %s: every failure, nothing on stderr, exit 0", async (_name, flags, idsOf) => {
    const result = await run([...FAILURES, ...flags]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(idsOf(result.stdout)).toEqual(ids(failures));
  });

  it.each<[string, string, (text: string) => string[]]>([
    ["-o failures.csv", "failures.csv", idsOfCsv],
    ["-o failures.jsonl", "failures.jsonl", idsOfJsonl],
    ["-o failures (no extension: the table, tab-separated)", "failures", idsOfTsv],
  ])("%s: every failure in the file, and the line says how many", async (_name, name, idsOf) => {
    const file = path.join(scratchFolder("msgstat-machine-"), name);
    const result = await run([...FAILURES, "-o", file]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote ${failures.length} messages to ${file}\n` });
    expect(idsOf(readFileSync(file, "utf8"))).toEqual(ids(failures));
  });

  it("batch --csv: every message of the batch", async () => {
    const result = await run(["batch", "cmp-spring-sale", "bat-spring-w1", "--csv"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(idsOfCsv(result.stdout)).toEqual(ids(batchMessages));
  });

  it("several campaigns --jsonl: every failure of each", async () => {
    const loyalty = (await serverListing(sandbox, "/campaigns/cmp-loyalty-es/messages")).filter(
      (message) => message.latestStatus === "failure",
    );
    const result = await run(["messages", "cmp-spring-sale", "cmp-loyalty-es", "--status", "failure", "--jsonl"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(idsOfJsonl(result.stdout).sort()).toEqual([...ids(failures), ...ids(loyalty)].sort());
  });
});

describe("-n given, and more messages left: the output is cut at n, and stderr says so; exit 0", () => {
  it("-n 5 --json: five failures, and the note", async () => {
    const result = await run([...FAILURES, "-n", "5", "--json"]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Message[]).map((message) => message.id)).toEqual(ids(failures.slice(0, 5)));
    const said = lines(result.stderr);
    expect(said[0]).toBe("Showing 5 messages; more may follow. For the next ones, run:");
    expect(said.at(-1)).toBe("Or add --all for every message.");
  });

  it("-n 5 -o: five rows in the file, and the line says it was cut", async () => {
    const file = path.join(scratchFolder("msgstat-machine-"), "some.csv");
    const result = await run([...FAILURES, "-n", "5", "-o", file]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)[0]).toBe(`wrote 5 messages to ${file}, cut short by --limit 5: more may follow`);
    expect(idsOfCsv(readFileSync(file, "utf8"))).toEqual(ids(failures.slice(0, 5)));
  });

  it("several campaigns -n 5 --jsonl: five, and one line", async () => {
    const result = await run(["messages", "cmp-spring-sale", "cmp-loyalty-es", "-n", "5", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(5);
    expect(result.stderr).toBe(
      "Showing 5 messages; more may follow. One --after cursor cannot continue several campaigns: use --all, " +
        "or a larger --limit, for more.\n",
    );
  });

  it("find -n 2 --jsonl: two, and one line (find has no --after)", async () => {
    const result = await run(["find", "*5", "cmp-spring-sale", "-n", "2", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(2);
    expect(result.stderr).toBe("Showing 2 messages; more may follow: use --all, or a larger --limit, for more.\n");
  });
});

describe("the table, for a person, keeps the default 50", () => {
  it("piped: 50 rows, and the continuation hint on stderr", async () => {
    const result = await run(FAILURES);
    expect(result.code).toBe(0);
    expect(idsOfTsv(result.stdout)).toEqual(ids(failures.slice(0, 50)));
    expect(lines(result.stderr)[0]).toBe("Showing 50 messages; more may follow. For the next ones, run:");
  });
});
