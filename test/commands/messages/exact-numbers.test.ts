// JSON and JSONL give every number exactly as the server wrote it, also those a double cannot hold
// (issue 11, item 5): every message is written from its own text, as sent (only the spaces and line
// breaks between tokens may change), its escapes included.
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { cursorPages, startListingServer, type ListingServer } from "../../support/listing-server.js";
import { runCli } from "../../support/run-cli.js";

const MESSAGE =
  '{"id":"m1","numAttempts":1e400,"latestStatus":"success","createdAt":"2026-11-20T10:00:00.000+00:00","values":{"n":9007199254740993},"big":123456789012345678901234567890,"tiny":-1.00000000000000000000001e-400,"messageAttempts":[{"status":"success","createdAt":"2026-11-20T10:00:00.000+00:00","metadata":{"cost":0.1000000000000000055511151231257827}}]}';
const SECOND = '{"id":"m2","escaped":"caf\\u00e9 \\/ \\ud83d\\ude00"}';
// The same messages as a server that pretty-prints would send them.
const PRETTY = '{\n  "id": "m3",\n  "n": [\n    9007199254740993,\n    1e400\n  ]\n}';

let server: ListingServer;
let url: string;
beforeAll(async () => {
  server = await startListingServer(
    (target) => {
      if (target.pathname.startsWith("/pretty/"))
        return `{\n"data": [\n${PRETTY},\n${PRETTY.replace('"m3"', '"m4"')}\n],\n"pageData": {"hasNextPage": false}\n}\n`;
      if (target.pathname.includes("/messages/")) return MESSAGE;
      return `{"data":[${MESSAGE},${SECOND}],"pageData":{"hasNextPage":false}}`;
    },
    { outsideTest: true },
  );
  url = server.url;
});
afterAll(() => server.close());

describe("numbers and strings exactly as sent", () => {
  // The second message has no number: its escapes come out as sent too (JSON.stringify would write é).
  const second = SECOND;

  it("--jsonl: a message with such numbers as its own text", async () => {
    expect(await runCli(["--base-url", url, "messages", "c", "--jsonl"])).toEqual({
      code: 0,
      stdout: `${MESSAGE}\n${second}\n`,
      stderr: "",
    });
  });

  it("--json, piped: the same, one message per line", async () => {
    expect(await runCli(["--base-url", url, "messages", "c", "--json"])).toEqual({
      code: 0,
      stdout: `[\n${MESSAGE},\n${second}\n]\n`,
      stderr: "",
    });
  });

  it("--json on a terminal: indented, every number and escape still as sent", async () => {
    const { code, stdout } = await runCli(["--base-url", url, "messages", "c", "--json"], { tty: true });
    expect(code).toBe(0);
    for (const text of [
      '"numAttempts": 1e400',
      '"n": 9007199254740993',
      '"big": 123456789012345678901234567890',
      '"tiny": -1.00000000000000000000001e-400',
      '"cost": 0.1000000000000000055511151231257827',
      '"escaped": "café / 😀"',
    ]) {
      expect(stdout).toContain(text);
    }
    expect(stdout.startsWith('[\n  {\n    "id": "m1",\n')).toBe(true);
  });

  it("message --json: the body as sent", async () => {
    expect(await runCli(["--base-url", url, "message", "c", "m1", "--json"])).toEqual({
      code: 0,
      stdout: `${MESSAGE}\n`,
      stderr: "",
    });
  });

  it("a pretty-printed page: one line per message in JSONL, the numbers untouched", async () => {
    const { code, stdout } = await runCli(["--base-url", `${url}/pretty`, "messages", "c", "--jsonl"]);
    expect(code).toBe(0);
    expect(stdout).toBe('{"id":"m3","n":[9007199254740993,1e400]}\n{"id":"m4","n":[9007199254740993,1e400]}\n');
  });

  it("stats reads no infinite attempt count from 1e400", async () => {
    const { code, stdout } = await runCli(["--base-url", url, "stats", "c", "--json"]);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/Infinity|∞/);
    expect((JSON.parse(stdout) as { totals: { messages: number } }).totals.messages).toBe(2);
  });
});

describe("over several pages, each freed once its messages are written", () => {
  // Bodies with a Content-Length are read into buffers of their own, the ones a listing frees as it goes
  // (service/paging.ts, freeEachPage): every message must still come out as its own text.
  const texts = Array.from(
    { length: 6 },
    (_, k) => `{"id":"m${k}","createdAt":"2026-11-20T10:0${9 - k}:00.000+00:00","n":900719925474099${k},"x":1e400}`,
  );
  /** The messages newest first, in pages of what is asked (`--page-size 2` below). */
  async function pagedServer(): Promise<string> {
    return (await startListingServer(cursorPages(texts))).url;
  }

  it("--jsonl --all and --json --all: every message as sent, in order", async () => {
    const base = await pagedServer();
    const jsonl = await runCli(["--base-url", base, "messages", "c", "--all", "--jsonl", "--page-size", "2"]);
    expect(jsonl).toEqual({ code: 0, stdout: `${texts.join("\n")}\n`, stderr: "" });
    const json = await runCli(["--base-url", base, "messages", "c", "--all", "--json", "--page-size", "2"]);
    expect(json).toEqual({ code: 0, stdout: `[\n${texts.join(",\n")}\n]\n`, stderr: "" });
  });

  it("--json on a terminal, indented from each message's own text", async () => {
    const base = await pagedServer();
    const { code, stdout } = await runCli(
      ["--base-url", base, "messages", "c", "--all", "--json", "--page-size", "2"],
      {
        tty: true,
      },
    );
    expect(code).toBe(0);
    for (let k = 0; k < texts.length; k++) expect(stdout).toContain(`"n": 900719925474099${k},`);
  });

  it("a listing frees each of its pages (three of two messages) as it goes, a walk back none", async () => {
    // releaseBody hands a freed page's memory to a throwaway structuredClone (src/http/json-body.ts).
    const clone = vi.spyOn(globalThis, "structuredClone");
    const freed = () => clone.mock.calls.filter(([, options]) => options?.transfer !== undefined).length;
    onTestFinished(() => clone.mockRestore());
    const base = await pagedServer();
    await runCli(["--base-url", base, "messages", "c", "--all", "--jsonl", "--page-size", "2"]);
    expect(freed()).toBe(3);
    clone.mockClear();
    await runCli(["--base-url", base, "messages", "c", "--before", "m5", "-n", "5", "--jsonl", "--page-size", "2"]);
    expect(freed()).toBe(0);
  });

  it("--before, a walk back over pages it holds until the end: the messages before the cursor, as sent", async () => {
    const base = await pagedServer();
    const result = await runCli([
      "--base-url",
      base,
      "messages",
      "c",
      "--before",
      "m5",
      "-n",
      "5",
      "--jsonl",
      "--page-size",
      "2",
    ]);
    expect(result).toEqual({ code: 0, stdout: `${texts.slice(0, 5).join("\n")}\n`, stderr: "" });
  });
});
