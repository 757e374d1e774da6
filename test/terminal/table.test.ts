// The listing table on a terminal (src/terminal/table.ts), fed pages directly: its columns line up
// whatever the text (CJK, emoji and their ZWJ sequences, flags, combining marks, variation selectors,
// right-to-left scripts, the sandbox's hostile values), what gives way on a narrow terminal and what is
// never cut. Expected lines are written out by hand; a terminal's cells are counted here by a rule of
// this file's own (cellsOf), not by the code's width function.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { compileFields } from "../../src/formats/fields.js";
import { plainPalette, type Palette } from "../../src/terminal/palette.js";
import type { Sink } from "../../src/output/sink.js";
import { renderTable, type TableOptions } from "../../src/terminal/table.js";
import { TAGGED_ROWS } from "../../src/formats/chunks.js";
import type { Tagged } from "../../src/service/fan-out.js";
import { HOSTILE_VALUES } from "../../src/sandbox/hostile-text.js";

const UTC = TimeZone.named("UTC")!;
const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦
const FRANCE = "\u{1F1EB}\u{1F1F7}"; // 🇫🇷
const PARTY = HOSTILE_VALUES.find((value) => value.startsWith("Party"))!; // the sandbox's emoji, ZWJ sequences included

/** Each grapheme cluster with the cells a terminal gives it: two for wide and emoji-presented ones, else one. */
function cellsOf(line: string): { text: string; cells: number }[] {
  const wide =
    /\uFE0F|\p{Emoji_Presentation}|\p{Regional_Indicator}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;
  return [...new Intl.Segmenter().segment(line)].map(({ segment }) => ({
    text: segment,
    cells: wide.test(segment) ? 2 : 1,
  }));
}

/**
 * A line cut at the cells where the header's columns start; each piece trimmed. Fails when a column
 * start falls inside a wide character or its cell before is not a space: the column would not line up.
 */
function columnsAt(line: string, starts: number[]): string[] {
  const pieces: string[] = starts.map(() => "");
  let at = 0;
  let column = 0;
  let previous = " ";
  for (const { text, cells } of cellsOf(line)) {
    while (column + 1 < starts.length && at >= starts[column + 1]!) {
      expect(at, `${line}: column ${column + 1} starts at cell ${starts[column + 1]}`).toBe(starts[column + 1]);
      expect(previous, `${line}: a gap before cell ${at}`).toBe(" ");
      column++;
    }
    pieces[column] += text;
    previous = text;
    at += cells;
  }
  return pieces.map((piece) => piece.trim());
}

/** Where the header's names start (two spaces or more apart). */
function startsOf(header: string): number[] {
  const starts: number[] = [];
  let at = 0;
  let spaces = 2;
  for (const { text, cells } of cellsOf(header)) {
    if (text !== " " && spaces >= 2) starts.push(at);
    spaces = text === " " ? spaces + 1 : 0;
    at += cells;
  }
  return starts;
}

function collect(): Sink & { text: () => string } {
  let out = "";
  return {
    write: (text) => void (out += text),
    writeBytes: (bytes, start, end) => void (out += bytes.subarray(start, end).toString("utf8")),
    flush: async () => {},
    finish: async () => {},
    discard: async () => {},
    fate: "the output is incomplete",
    untouchedByFailure: false,
    text: () => out,
  };
}

async function table(pages: CheckedMessage[][], options: Partial<TableOptions>): Promise<string> {
  const sink = collect();
  async function* chunks() {
    for (const page of pages) yield page;
  }
  await renderTable(chunks(), sink, {
    tty: true,
    columns: 80,
    palette: plainPalette,
    timeZone: UTC,
    wide: false,
    headers: true,
    ...options,
  });
  return sink.text();
}

const failed = (code: string) => ({
  messageAttempts: [{ status: "failure", createdAt: "2025-05-01T10:16:00.000Z", errorType: "x", errorCode: code }],
  numAttempts: 1,
});

const HOSTILE_PAGE: CheckedMessage[] = [
  {
    id: "msg-01",
    recipient: "4915112345678",
    latestStatus: "success",
    numAttempts: 1,
    createdAt: "2025-05-01T10:15:00.000Z",
    fullMessage: PARTY,
    batches: [{ id: "bat-日本", originalFileName: "顧客リスト.csv" }],
  },
  {
    id: "msg-02",
    recipient: "33612345678",
    latestStatus: "failure",
    ...failed("recipient_unavailable"),
    createdAt: "2025-05-01T09:15:00.000Z",
    fullMessage: "مرحبا بك",
    batches: [{ id: "bat-w1", originalFileName: `${FRANCE} wave 1.csv` }],
  },
  {
    id: "msg-03",
    recipient: "15550001111",
    latestStatus: "queued\u001b[2J",
    createdAt: "2025-05-01T08:15:00.000Z",
    fullMessage: "invoice\u202Efdp.exe",
  },
  {
    id: "msg-04",
    recipient: "15550002222",
    latestStatus: "success",
    numAttempts: 2,
    createdAt: "2025-04-30T23:59:00.000Z",
    fullMessage: "Cafe\u0301 \u2705 \u2764\uFE0F",
    batches: [{ id: "bat-w1", originalFileName: `${FRANCE} wave 1.csv` }],
  },
  {
    id: "msg-05",
    recipient: "15550003333",
    latestStatus: "created",
    createdAt: "2025-04-30T22:00:00.000Z",
    fullMessage: "tab\tseparated, two\nlines",
  },
  {
    id: "msg-06",
    recipient: "4915112345679",
    latestStatus: "failure",
    ...failed("\u26A0\uFE0F_blocked_日本"),
    createdAt: "2025-04-30T21:00:00.000Z",
    fullMessage: `${FAMILY}${FAMILY}${FAMILY} שלום עולם`,
  },
];

describe("the columns line up whatever the text", () => {
  it("at 160 columns: every column, hostile text made inert", async () => {
    const text = await table([HOSTILE_PAGE], { columns: 160 });
    expect(text.split("\n")).toEqual([
      "ID      RECIPIENT      STATUS        TRIES  ERROR                   CREATED (UTC)     BATCH     FILE            MESSAGE",
      `msg-01  4915112345678  success       1                              2025-05-01 10:15  bat-日本  顧客リスト.csv  ${PARTY}`,
      `msg-02  33612345678    failure       1      recipient_unavailable   2025-05-01 09:15  bat-w1    ${FRANCE} wave 1.csv   مرحبا بك`,
      "msg-03  15550001111    queued\\x1b[…                                 2025-05-01 08:15                            invoice\\u202efdp.exe",
      `msg-04  15550002222    success       2                              2025-04-30 23:59  bat-w1    ${FRANCE} wave 1.csv   Cafe\u0301 \u2705 \u2764\uFE0F`,
      "msg-05  15550003333    created                                      2025-04-30 22:00                            tab\\tseparated, two\\nlines",
      `msg-06  4915112345679  failure       1      \u26A0\uFE0F_blocked_日本         2025-04-30 21:00                            ${FAMILY}${FAMILY}${FAMILY} שלום עולם`,
      "",
    ]);
    const [header, ...rows] = text.trimEnd().split("\n");
    const starts = startsOf(header!);
    expect(starts).toEqual([0, 8, 23, 37, 44, 68, 86, 96, 112]);
    expect(rows.map((row) => columnsAt(row, starts))).toEqual([
      ["msg-01", "4915112345678", "success", "1", "", "2025-05-01 10:15", "bat-日本", "顧客リスト.csv", PARTY],
      [
        "msg-02",
        "33612345678",
        "failure",
        "1",
        "recipient_unavailable",
        "2025-05-01 09:15",
        "bat-w1",
        `${FRANCE} wave 1.csv`,
        "مرحبا بك",
      ],
      ["msg-03", "15550001111", "queued\\x1b[…", "", "", "2025-05-01 08:15", "", "", "invoice\\u202efdp.exe"],
      [
        "msg-04",
        "15550002222",
        "success",
        "2",
        "",
        "2025-04-30 23:59",
        "bat-w1",
        `${FRANCE} wave 1.csv`,
        "Cafe\u0301 \u2705 \u2764\uFE0F",
      ],
      ["msg-05", "15550003333", "created", "", "", "2025-04-30 22:00", "", "", "tab\\tseparated, two\\nlines"],
      [
        "msg-06",
        "4915112345679",
        "failure",
        "1",
        "\u26A0\uFE0F_blocked_日本",
        "2025-04-30 21:00",
        "",
        "",
        `${FAMILY}${FAMILY}${FAMILY} שלום עולם`,
      ],
    ]);
  });

  it("at 80 columns: the error and the time join, the rest is left out", async () => {
    const text = await table([HOSTILE_PAGE], { columns: 80 });
    expect(text.split("\n")).toEqual([
      "ID      RECIPIENT      STATUS        ERROR                   CREATED (UTC)",
      "msg-01  4915112345678  success                               2025-05-01 10:15",
      "msg-02  33612345678    failure       recipient_unavailable   2025-05-01 09:15",
      "msg-03  15550001111    queued\\x1b[…                          2025-05-01 08:15",
      "msg-04  15550002222    success                               2025-04-30 23:59",
      "msg-05  15550003333    created                               2025-04-30 22:00",
      "msg-06  4915112345679  failure       \u26A0\uFE0F_blocked_日本         2025-04-30 21:00",
      "",
    ]);
    const [header, ...rows] = text.trimEnd().split("\n");
    const starts = startsOf(header!);
    expect(starts).toEqual([0, 8, 23, 37, 61]);
    for (const row of rows) expect(columnsAt(row, starts)).toHaveLength(5);
    expect(columnsAt(rows[5]!, starts)[3]).toBe("\u26A0\uFE0F_blocked_日本");
  });

  it("cuts text between grapheme clusters, with an ellipsis", async () => {
    const fields = compileFields(["id", "fullMessage", "latestStatus"]);
    const text = await table([HOSTILE_PAGE], { columns: 36, fields });
    expect(text.split("\n")).toEqual([
      "id      fullMessage    latestStatus",
      `msg-01  Party \u{1F389} ${FAMILY} …  success`,
      "msg-02  مرحبا بك       failure",
      "msg-03  invoice\\u202…  queued\\x1b[2J",
      "msg-04  Cafe\u0301 \u2705 \u2764\uFE0F     success",
      "msg-05  tab\\tseparat…  created",
      `msg-06  ${FAMILY}${FAMILY}${FAMILY} שלום …  failure`,
      "",
    ]);
    const [header, ...rows] = text.trimEnd().split("\n");
    for (const row of rows) expect(columnsAt(row, startsOf(header!))).toHaveLength(3);
  });

  it("colours the status without moving a column", async () => {
    const palette: Palette = { ...plainPalette, status: (status, text) => `<${status}>${text ?? status}</>` };
    const text = await table([HOSTILE_PAGE.slice(0, 2)], { columns: 60, palette });
    expect(text.split("\n")).toEqual([
      "ID      RECIPIENT      STATUS   TRIES  ERROR",
      "msg-01  4915112345678  <success>success</>  1",
      "msg-02  33612345678    <failure>failure</>  1      recipient_unavailable",
      "",
    ]);
  });
});

describe("what gives way on a narrow terminal", () => {
  const page = (id: string, recipient: string, batch: string): CheckedMessage => ({
    id,
    recipient,
    latestStatus: "failure",
    ...failed("delivery_unknown_error"),
    createdAt: "2025-05-01T10:15:00.000Z",
    fullMessage: "Your order has shipped",
    batches: [{ id: batch, originalFileName: "wave-1.csv" }],
  });
  const ids = [page("msg-spring-0000001", "4915112345678", "bat-spring-wave-1-uploaded-2025-05-01")];

  it.each([
    // Columns join in rank order while they fit: the error, the time, the tries, the batch, the file, the text.
    [200, ["ID", "RECIPIENT", "STATUS", "TRIES", "ERROR", "CREATED (UTC)", "BATCH", "FILE", "MESSAGE"]],
    [140, ["ID", "RECIPIENT", "STATUS", "TRIES", "ERROR", "CREATED (UTC)", "BATCH"]],
    // The batch id does not fit whole: it is left out, never cut, and the narrower file joins.
    [120, ["ID", "RECIPIENT", "STATUS", "TRIES", "ERROR", "CREATED (UTC)", "FILE", "MESSAGE"]],
    [100, ["ID", "RECIPIENT", "STATUS", "TRIES", "ERROR", "CREATED (UTC)"]],
    [90, ["ID", "RECIPIENT", "STATUS", "ERROR", "CREATED (UTC)"]],
    // The time in a narrower form: the zone under its name, no year.
    [80, ["ID", "RECIPIENT", "STATUS", "ERROR", "CREATED"]],
    [70, ["ID", "RECIPIENT", "STATUS", "ERROR"]],
  ])("at %i columns: %j", async (columns, names) => {
    const [header] = (await table([ids], { columns })).split("\n");
    expect(header!.trim().split(/ {2,}/)).toEqual(names);
  });

  it("ids and recipients are never cut, whatever the width: the status goes down to four cells", async () => {
    const text = await table([ids], { columns: 20 });
    expect(text.split("\n")).toEqual([
      "ID                  RECIPIENT      STA…",
      "msg-spring-0000001  4915112345678  fai…",
      "",
    ]);
  });

  it("a batch id asked for with --fields is never cut either; the other columns give way", async () => {
    const fields = compileFields(["id", "batchId", "fullMessage", "batchFile"]);
    const text = await table([ids], { columns: 70, fields });
    expect(text.split("\n")).toEqual([
      "id                  batchId                                ful…  batc…",
      "msg-spring-0000001  bat-spring-wave-1-uploaded-2025-05-01  You…  wave…",
      "",
    ]);
  });
});

describe("a merged listing", () => {
  async function merged(options: Partial<TableOptions>): Promise<string> {
    const sink = collect();
    // Frozen: the campaign travels beside each message, never written onto it.
    const rows: Array<Tagged<CheckedMessage>> = [
      { campaignId: "cmp-a", item: Object.freeze({ id: "msg-2", recipient: "+2", latestStatus: "success" }) },
      { campaignId: "cmp-b", item: Object.freeze({ id: "msg-1", recipient: "+1", latestStatus: "failure" }) },
    ];
    async function* chunks() {
      yield rows;
    }
    await renderTable(
      chunks(),
      sink,
      { tty: false, columns: 80, palette: plainPalette, timeZone: UTC, wide: false, headers: true, ...options },
      TAGGED_ROWS,
    );
    return sink.text();
  }

  it("names each row's campaign first, piped and on a terminal", async () => {
    expect(await merged({ campaignIds: ["cmp-a", "cmp-b"] })).toBe(
      "CAMPAIGN\tID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE\n" +
        "cmp-a\tmsg-2\t+2\tsuccess\t\t\t\t\t\t\n" +
        "cmp-b\tmsg-1\t+1\tfailure\t\t\t\t\t\t\n",
    );
    expect(await merged({ tty: true, campaignIds: ["cmp-a", "cmp-b"] })).toBe(
      "CAMPAIGN  ID     RECIPIENT  STATUS   ERROR\n" +
        "cmp-a     msg-2  +2         success\n" +
        "cmp-b     msg-1  +1         failure\n",
    );
  });

  it("with --fields, the campaign first unless they name campaignId (the message's own)", async () => {
    expect(await merged({ fields: compileFields(["id"]) })).toBe("campaignId\tid\ncmp-a\tmsg-2\ncmp-b\tmsg-1\n");
    expect(await merged({ fields: compileFields(["id", "campaignId"]) })).toBe("id\tcampaignId\nmsg-2\t\nmsg-1\t\n");
  });
});
