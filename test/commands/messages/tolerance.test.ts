// The tolerance rule (docs/security.md, "What a response must hold"): a message needs only a string id;
// every other field may be missing, null or of another type, and the message still passes through:
// JSON and JSONL exactly as sent, empty table and CSV cells, "unknown" rows in stats.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { cli, jsonlText, NOW, PIPED_TABLE_HEADER, startTestSandbox } from "../../support/cli-helpers.js";

const OPTIONAL_FIELDS = Object.entries(MESSAGE.fields).filter(([name]) => name !== "id");
// For each kind the shape declares, values of other kinds.
const WRONG_KINDS: Record<string, unknown[]> = {
  string: [12345, true, ["a"], { nested: { deeper: [1, 2] } }],
  timestamp: [1746100800000, false, ["2025-05-01"], {}],
  integer: ["3", true, 1.5, { n: 1 }],
  map: ["first_name", 7, ["a", "b"], true],
  object: ["body", 7, [{ body: "x" }], false],
  list: ["sent", { 0: {} }, 7, true],
};

type Odd = "null" | "missing" | "wrong";

/** The listing's messages with every optional field made odd in one way, by index. */
function oddly(body: unknown, how: Odd): unknown {
  const page = body as { data?: Record<string, unknown>[] };
  if (!Array.isArray(page.data)) return body;
  page.data = page.data.map((message, index) => {
    const odd: Record<string, unknown> = { id: message.id };
    for (const [i, [name, shape]] of OPTIONAL_FIELDS.entries()) {
      const wrong = WRONG_KINDS[shape.kind]!;
      if (how === "null") odd[name] = null;
      else if (how === "wrong") odd[name] = wrong[(index + i) % wrong.length];
    }
    return odd;
  });
  return page;
}

let sandbox: Sandbox;
let mode: Odd | "no-id" = "null";
const sent: unknown[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({
    transform: (body, request) => {
      if (!request.path.endsWith("/messages")) return body;
      if (mode === "no-id") {
        const page = body as { data: Record<string, unknown>[] };
        delete page.data[3]!.id;
        return page;
      }
      const changed = oddly(body, mode) as { data: unknown[] };
      sent.push(...changed.data);
      return changed;
    },
  });
});
afterAll(() => sandbox.close());

async function listing(how: Odd, args: string[]) {
  mode = how;
  sent.length = 0;
  const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "12", ...args]);
  return { ...result, sent: [...sent] };
}

describe.each<Odd>(["null", "missing", "wrong"])("every optional field %s", (how) => {
  it("JSONL carries each message exactly as sent", async () => {
    const { code, stdout, stderr, sent } = await listing(how, ["--jsonl"]);
    expect(stderr).not.toContain("warning");
    expect(code).toBe(0);
    expect(sent).toHaveLength(12);
    expect(stdout).toBe(jsonlText(sent));
  });

  it("JSON carries them exactly as sent", async () => {
    const { code, stdout, sent } = await listing(how, ["--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(sent);
  });

  it("CSV has the id and an empty cell for every field the shape says is text", async () => {
    const { code, stdout } = await listing(how, [
      "--csv",
      "--fields",
      "id,recipient,latestStatus,createdAt,attemptCount,lastErrorCode,batchId,fullMessage,values.first_name,templateBody.body",
    ]);
    expect(code).toBe(0);
    const rows = parse<Record<string, string>>(stdout, { columns: true });
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.id).toMatch(/^msg-/);
      const { id: _id, ...rest } = row;
      expect(
        Object.values(rest).every((cell) => cell === ""),
        JSON.stringify(row),
      ).toBe(true);
    }
  });

  it("the piped table has the id and nothing else in each row", async () => {
    const { code, stdout } = await listing(how, []);
    expect(code).toBe(0);
    const [header, ...rows] = stdout.slice(0, -1).split("\n");
    expect(`${header}\n`).toBe(PIPED_TABLE_HEADER);
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(row).toMatch(/^msg-[\w-]+\t{8}$/);
  });

  it("the terminal table shows the rows too", async () => {
    mode = how;
    const { code, stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "12"], {
      tty: true,
      columns: 120,
    });
    expect(code).toBe(0);
    expect(stdout.split("\n").filter((line) => /^msg-/.test(line))).toHaveLength(12);
  });

  it("stats counts every message, the odd ones under unknown", async () => {
    mode = how;
    const { code, stdout } = await cli(sandbox, ["stats", "cmp-spring-sale", "--json"], { now: NOW });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      totals: { messages: number; undated: number };
      byStatus: { status: string | null; count: number }[];
      attempts: { buckets: { attempts: string; count: number }[] };
    };
    expect(report.totals.messages).toBeGreaterThan(100);
    expect(report.totals.undated).toBe(report.totals.messages);
    expect(report.byStatus).toEqual([{ status: null, count: report.totals.messages, share: 1, final: false }]);
    const unknown = report.attempts.buckets.find((bucket) => bucket.attempts === "unknown");
    expect(unknown?.count).toBe(report.totals.messages);
  });
});

it("a message without an id is a clear error naming where", async () => {
  mode = "no-id";
  const { code, stdout, stderr } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "12", "--jsonl"]);
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toContain(
    "the listing response is not the shape msgstat expects: data.3.id: expected a string, got nothing",
  );
});
