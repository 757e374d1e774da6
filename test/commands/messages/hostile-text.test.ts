// Text from the server never reaches a terminal raw, and data formats keep it exact.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { blockSafe, inlineSafe } from "../../../src/core/text.js";
import { runCli } from "../../support/run-cli.js";

const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i));
const C1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i));
const HOSTILE: Array<[string, string]> = [
  ...C0.map((ch, i): [string, string] => [`C0 0x${i.toString(16)}`, `a${ch}b`]),
  ["DEL", "a\u007fb"],
  ...C1.map((ch, i): [string, string] => [`C1 0x${(0x80 + i).toString(16)}`, `a${ch}b`]),
  ["CSI colour", "\u001b[31mred\u001b[0m"],
  ["CSI clear screen", "\u001b[2J\u001b[H"],
  ["CSI cursor up and erase line", "ok\u001b[1A\u001b[2K"],
  ["OSC window title", "\u001b]0;pwned\u0007"],
  ["OSC 52 clipboard write", "\u001b]52;c;cm0gLXJmIH4=\u0007"],
  ["OSC 8 hyperlink", "\u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\"],
  ["DCS", "\u001bP1$r0m\u001b\\"],
  ["8-bit CSI", "\u009b31m"],
  ["right-to-left override", "abc\u202edcba"],
  ["bidi isolates", "\u2066x\u2069\u2067y\u2069"],
  ["NUL", "before\u0000after"],
  ["lone high surrogate", "x\ud800y"],
  ["lone low surrogate", "x\udfffy"],
  ["CR overwrite", "safe text\rEVIL"],
];

// What a terminal could act on: controls (tab and newline are checked separately), bidi controls, lone surrogates.
const ACTIONABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const SGR = /\u001b\[[0-9;]*m/g; // msgstat's own colours

function expectInert(output: string): void {
  expect(output.replace(SGR, "")).not.toMatch(ACTIONABLE);
}

describe("the sanitiser", () => {
  it.each(HOSTILE)("makes %s inert and visible", (_name, text) => {
    const layout = text === "a\nb"; // blocks keep newlines as they are
    for (const safe of layout ? [inlineSafe(text)] : [inlineSafe(text), blockSafe(text)]) {
      expect(safe).not.toMatch(ACTIONABLE);
      expect(safe).toMatch(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[trn])/);
    }
  });

  it("keeps newlines only in blocks; a tab is \\t in both, so one value reads the same everywhere", () => {
    expect(inlineSafe("a\nb\tc")).toBe("a\\nb\\tc");
    expect(blockSafe("a\nb\tc")).toBe("a\nb\\tc");
  });

  it("leaves ordinary text, emoji, combining marks and right-to-left scripts alone", () => {
    const text = "Olá José 👨‍👩‍👧‍👦 🏳️‍🌈 مرحبا שלום e\u0301";
    expect(inlineSafe(text)).toBe(text);
  });
});

describe("through every renderer", () => {
  let sandbox: Sandbox;
  const CAMPAIGN = "cmp-otp-alerts";
  const hostileOf = (index: number) => HOSTILE[index % HOSTILE.length]![1];

  beforeAll(async () => {
    sandbox = await startSandbox({
      seed: 11,
      messages: 4000,
      // Every message carries one hostile string, in its text, a value, and its latest error code.
      transform: (body) => {
        const rewrite = (m: Record<string, unknown>, index: number) => {
          const text = hostileOf(index);
          const attempts = (m.messageAttempts as Array<Record<string, unknown>> | undefined)?.map((a) => ({
            ...a,
            errorType: "server_error",
            errorCode: text,
          }));
          return {
            ...m,
            fullMessage: `msg ${text}`,
            values: { ...(m.values as object), hostile: text },
            recipient: `1555${index}`,
            ...(attempts ? { messageAttempts: attempts } : {}),
          };
        };
        const page = body as { data?: Array<Record<string, unknown>> };
        if (Array.isArray(page.data)) return { ...page, data: page.data.map((m, i) => rewrite(m, i)) };
        return rewrite(
          body as Record<string, unknown>,
          HOSTILE.findIndex(([name]) => name === "OSC 52 clipboard write"),
        );
      },
    });
  });
  afterAll(() => sandbox.close());

  const listing = (extra: string[], options: Parameters<typeof runCli>[1] = {}) =>
    runCli(
      [
        "--base-url",
        sandbox.url,
        "messages",
        CAMPAIGN,
        "-n",
        String(HOSTILE.length),
        "--page-size",
        String(HOSTILE.length),
        ...extra,
      ],
      options,
    );

  it("table on a terminal, with colour", async () => {
    const result = await listing([], { tty: true, columns: 200, env: { FORCE_COLOR: "1" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("\u001b[3"); // colour is on, so the check below is about server text
    expectInert(result.stdout);
    expect(result.stdout.split("\n")).toHaveLength(HOSTILE.length + 2); // header, rows, final newline: no row was split
  });

  it("table piped (tab-separated)", async () => {
    const result = await listing([]);
    expectInert(result.stdout);
    const rows = result.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(HOSTILE.length + 1);
    for (const row of rows) expect(row.split("\t")).toHaveLength(9);
  });

  it("the message view", async () => {
    const result = await runCli(["--base-url", sandbox.url, "message", CAMPAIGN, "msg-otp-0000001"], {
      tty: true,
      env: { FORCE_COLOR: "1" },
    });
    expect(result.code).toBe(0);
    expectInert(result.stdout);
    expect(result.stdout).toContain("\\x1b");
  });

  it("error messages and the verbose log", async () => {
    const evil = await startSandbox({
      faults: [
        {
          kind: "status",
          status: 400,
          body: JSON.stringify({ error: "bad\u001b]52;c;eA==\u0007", message: "no\u001b[2J\u202e" }),
        },
      ],
    });
    try {
      const result = await runCli(["--base-url", evil.url, "-v", "messages", "cmp\u001b[31m", "-n", "1"]);
      expect(result.code).toBe(1);
      expectInert(result.stderr);
      expect(result.stderr).toContain("no\\x1b[2J\\u202e");
    } finally {
      await evil.close();
    }
  });

  it("JSONL keeps every string exact", async () => {
    const result = await listing(["--jsonl", "--fields", "fullMessage,values.hostile"]);
    const rows = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((row) => row["values.hostile"])).toEqual(HOSTILE.map(([, text]) => text));
    expect(rows.map((row) => row.fullMessage)).toEqual(HOSTILE.map(([, text]) => `msg ${text}`));
  });

  it("JSON keeps every string exact", async () => {
    const result = await listing(["--json"]);
    const rows = JSON.parse(result.stdout) as Array<{ values: { hostile: string } }>;
    expect(rows.map((row) => row.values.hostile)).toEqual(HOSTILE.map(([, text]) => text));
  });

  it("CSV keeps every string exact inside quoted cells (UTF-8 has no lone surrogates: those become U+FFFD)", async () => {
    const result = await listing(["--csv", "--fields", "values.hostile", "--no-formula-guard"]);
    const rows = parse<Record<string, string>>(result.stdout, { columns: true, relax_quotes: false });
    const expected = HOSTILE.map(([, text]) => text.replace(/[\ud800-\udfff]/g, "\ufffd"));
    expect(rows.map((row) => row["values.hostile"])).toEqual(expected);
  });
});
