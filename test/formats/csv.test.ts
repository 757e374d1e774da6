// The CSV renderer on its own: RFC 4180 quoting, the formula-injection guard, and when the header goes out.
// Expected text is written out by hand; the listing tests read it back with csv-parse against the server.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { csvCell, csvRow, fieldsInZone, renderCsv } from "../../src/formats/csv.js";
import { TimeZone } from "../../src/core/time.js";
import { taggedFields, type Field } from "../../src/formats/fields.js";
import type { Tagged } from "../../src/service/fan-out.js";
import type { Sink } from "../../src/output/sink.js";

/** A sink that keeps every write, in order. */
function recordingSink(): Sink & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    write: (text) => void writes.push(text),
    writeBytes: (bytes, start, end) => void writes.push(bytes.subarray(start, end).toString("utf8")),
    flush: async () => undefined,
    finish: async () => undefined,
    discard: async () => undefined,
    fate: "the output is incomplete",
    untouchedByFailure: false,
  };
}

async function* chunksOf(...chunks: CheckedMessage[][]): AsyncGenerator<CheckedMessage[]> {
  for (const chunk of chunks) yield chunk;
}

const FIELDS: Field[] = [
  { name: "id", get: (message) => message.id },
  { name: "recipient", get: (message) => message.recipient },
];

describe("csvCell", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["crlf\r\nline", '"crlf\r\nline"'],
    ["lone\rcr", '"lone\rcr"'],
    ["", ""],
    ["naïve 日本 ✅", "naïve 日本 ✅"],
  ])("quotes %j only when it must: %j", (value, expected) => {
    expect(csvCell(value, false)).toBe(expected);
  });

  it("writes nothing for null and undefined, numbers and booleans as text, objects as JSON", () => {
    expect(csvCell(null, true)).toBe("");
    expect(csvCell(undefined, true)).toBe("");
    expect(csvCell(42, true)).toBe("42");
    expect(csvCell(1.5e300, true)).toBe("1.5e+300");
    expect(csvCell(false, true)).toBe("false");
    expect(csvCell({ a: 1, b: ["x", null] }, false)).toBe('"{""a"":1,""b"":[""x"",null]}"');
    expect(csvCell([], false)).toBe("[]");
  });

  it.each([
    ["=1+1", "'=1+1"],
    ["+15550100", "'+15550100"],
    ["-2", "'-2"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", '"\'\rcmd"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
  ])("guards %j, which a spreadsheet would run, as %j", (value, expected) => {
    expect(csvCell(value, true)).toBe(expected);
  });

  it("leaves the same cells alone when the guard is off, and guards only the first character", () => {
    expect(csvCell("=1+1", false)).toBe("=1+1");
    expect(csvCell("-2", false)).toBe("-2");
    expect(csvCell("a=1", true)).toBe("a=1");
    expect(csvCell(" =1", true)).toBe(" =1");
    expect(csvCell("'=1", true)).toBe("'=1");
  });

  it("guards a number's text too: -2 as a number starts with a minus", () => {
    expect(csvCell(-2, true)).toBe("'-2");
  });
});

describe("csvRow", () => {
  it("joins cells with commas and ends the record with CRLF", () => {
    expect(csvRow(["a", "b,c", null, 3], true)).toBe('a,"b,c",,3\r\n');
    expect(csvRow([], true)).toBe("\r\n");
  });
});

describe("renderCsv", () => {
  const messages = [
    { id: "m1", recipient: "=cmd|' /C calc'!A0" },
    { id: "m2", recipient: "line\nbreak" },
  ] as unknown as CheckedMessage[];

  it("writes the header with the first row, then a record per message, across chunks", async () => {
    const sink = recordingSink();
    await renderCsv(chunksOf([messages[0]!], [], [messages[1]!]), sink, { fields: FIELDS, guardFormulas: true });
    expect(sink.writes).toEqual(["id,recipient\r\nm1,'=cmd|' /C calc'!A0\r\n", 'm2,"line\nbreak"\r\n']);
  });

  it("without the guard the formula is written as sent", async () => {
    const sink = recordingSink();
    await renderCsv(chunksOf(messages), sink, { fields: FIELDS, guardFormulas: false });
    expect(sink.writes.join("")).toBe("id,recipient\r\nm1,=cmd|' /C calc'!A0\r\n" + 'm2,"line\nbreak"\r\n');
  });

  it("never guards the header: a field named like a formula is written as it is", async () => {
    const sink = recordingSink();
    await renderCsv(chunksOf(messages), sink, { fields: [{ name: "-id", get: (m) => m.id }], guardFormulas: true });
    expect(sink.writes.join("")).toBe("-id\r\nm1\r\nm2\r\n");
  });

  it("an empty listing is the header alone, written at the end", async () => {
    const sink = recordingSink();
    await renderCsv(chunksOf([], []), sink, { fields: FIELDS, guardFormulas: true });
    expect(sink.writes).toEqual(["id,recipient\r\n"]);
  });

  it("a listing that fails before its first message leaves nothing written, not a header", async () => {
    const sink = recordingSink();
    async function* failing(): AsyncGenerator<CheckedMessage[]> {
      yield [];
      throw new Error("page 1 failed");
    }
    await expect(renderCsv(failing(), sink, { fields: FIELDS, guardFormulas: true })).rejects.toThrow("page 1 failed");
    expect(sink.writes).toEqual([]);
  });

  it("waits for a write that flushes before the next record", async () => {
    const order: string[] = [];
    const sink = recordingSink();
    sink.write = (text) => {
      order.push(`write ${text.trim().split("\r\n").pop()}`);
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          order.push("flushed");
          resolve();
        }),
      );
    };
    await renderCsv(chunksOf(messages), sink, { fields: [FIELDS[0]!], guardFormulas: true });
    expect(order).toEqual(["write m1", "flushed", "write m2", "flushed"]);
  });
});

describe("--bom and --csv-times (issue 21)", () => {
  it("an empty listing with --bom is the mark and the header", async () => {
    const sink = recordingSink();
    await renderCsv(chunksOf([]), sink, { fields: FIELDS, guardFormulas: true, bom: true });
    expect(sink.writes).toEqual(["\ufeffid,recipient\r\n"]);
  });

  it("fieldsInZone converts readable timestamps only: other text is written as the service sent it", () => {
    const [createdAt, id] = fieldsInZone(
      [
        { name: "createdAt", get: (m) => (m as unknown as { createdAt: unknown }).createdAt, time: true },
        { name: "id", get: (m) => m.id },
      ],
      TimeZone.named("Asia/Kolkata")!,
    );
    const message = (at: unknown) => ({ id: "2026-01-01T00:00:00Z", createdAt: at }) as unknown as CheckedMessage;
    expect(createdAt!.get(message("2026-01-01T00:00:00.000Z"))).toBe("2026-01-01T05:30:00.000+05:30");
    expect(createdAt!.get(message("not a time"))).toBe("not a time");
    expect(createdAt!.get(message(null))).toBeNull();
    // Not a time field: untouched, even when it looks like one.
    expect(id!.get(message("x"))).toBe("2026-01-01T00:00:00Z");
  });
});

describe("renderCsv of a merged listing", () => {
  // Frozen: the campaign travels beside each message, never written onto it.
  const rows: Array<Tagged<CheckedMessage>> = [
    { campaignId: "cmp-a", item: Object.freeze({ id: "m2", recipient: "+2", campaignId: "own-a" }) },
    { campaignId: "cmp-b", item: Object.freeze({ id: "m1", recipient: "+1", campaignId: "own-b" }) },
  ];
  async function* merged(): AsyncGenerator<Array<Tagged<CheckedMessage>>> {
    yield rows;
  }

  it("puts the campaign each row was listed under first, and leaves the messages untouched", async () => {
    const sink = recordingSink();
    await renderCsv(merged(), sink, { fields: taggedFields(FIELDS), guardFormulas: false });
    expect(sink.writes.join("")).toBe("campaignId,id,recipient\r\ncmp-a,m2,+2\r\ncmp-b,m1,+1\r\n");
    expect(rows.map((row) => Reflect.ownKeys(row.item))).toEqual([
      ["id", "recipient", "campaignId"],
      ["id", "recipient", "campaignId"],
    ]);
  });

  it("where --fields name campaignId, writes the message's own there, with no column added", async () => {
    const sink = recordingSink();
    const own: Field = { name: "campaignId", get: (message) => message.campaignId };
    await renderCsv(merged(), sink, { fields: taggedFields([FIELDS[0]!, own]), guardFormulas: true });
    expect(sink.writes.join("")).toBe("id,campaignId\r\nm2,own-a\r\nm1,own-b\r\n");
  });
});
