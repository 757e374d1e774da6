// Tier 2: the table, piped (tab-separated, whole values as the server wrote them, no colour) and on a
// terminal (fitted to 80 and 160 columns page by page, ids and recipients whole, the error code kept,
// empty columns left out, times in --tz with the zone in the header, coloured only when wanted), and
// the spinner beside it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../../support/scratch.js";
import type { Message } from "../../../src/core/message.js";
import { inlineSafe } from "../../../src/core/text.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import {
  cli,
  moreHint,
  newestFailedAttempt,
  PIPED_TABLE_HEADER,
  serverListing,
  serverPage,
  startTestSandbox,
  useListingSandbox,
} from "../../support/cli-helpers.js";

const CAMPAIGN = "/campaigns/cmp-spring-sale/messages";
const ANSI = /\u001b\[[0-9;]*m/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/;
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u;
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Cells a line takes on a terminal that draws each grapheme cluster (an emoji ZWJ sequence, a flag) as one glyph. */
function terminalWidth(line: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(line)) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

const batchIdOf = (m: Message) => m.batchId ?? m.batches?.[0]?.id ?? "";
/** The table's rows: the lines that start with a message id. */
const rowsOf = (stdout: string) => stdout.split("\n").filter((line) => /^msg-/.test(line));
/** A header line's column names (two spaces or more apart). */
const names = (line: string) => line.trim().split(/ {2,}/);

let sandbox: Sandbox;
let all: Message[];

useListingSandbox(CAMPAIGN, (started, messages) => {
  sandbox = started;
  all = messages;
});

describe("piped", () => {
  it("tab-separated rows under a header, every value whole and as the server wrote it, no colour (even with FORCE_COLOR)", async () => {
    const { code, stdout, stderr } = await cli(
      sandbox,
      ["messages", "cmp-spring-sale", "--all", "--tz", "Europe/Paris"],
      { env: { FORCE_COLOR: "1" } },
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.startsWith(PIPED_TABLE_HEADER)).toBe(true);
    expect(stdout).not.toMatch(ANSI);
    const rows = stdout.slice(PIPED_TABLE_HEADER.length).split("\n");
    expect(rows.pop()).toBe("");
    expect(rows).toHaveLength(all.length);
    rows.forEach((row, i) => {
      const m = all[i]!;
      const cells = row.split("\t");
      expect(cells).toHaveLength(9);
      const [id, recipient, status, attempts, error, created, batch, file, text] = cells;
      expect({ id, recipient, status, attempts, error, created, batch, file }).toEqual({
        id: m.id,
        recipient: m.recipient,
        status: m.latestStatus,
        attempts: String(m.numAttempts),
        error: newestFailedAttempt(m)?.errorCode ?? "",
        // The server's text, whatever --tz says: a pipe is for programs.
        created: m.createdAt,
        batch: batchIdOf(m),
        file: m.batches?.[0]?.originalFileName ?? "",
      });
      // Control characters (newlines, tabs, escapes) become visible escapes; other text is never cut.
      if (CONTROL.test(m.fullMessage)) expect(text!.length).toBeGreaterThan(m.fullMessage.length);
      else expect(text).toBe(m.fullMessage);
      expect(text).not.toMatch(CONTROL);
    });
    expect(all.some((m) => CONTROL.test(m.fullMessage))).toBe(true);
    expect(all.some((m) => batchIdOf(m) !== "")).toBe(true);
  });

  it("--no-headers: the rows alone", async () => {
    const withHeader = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "5"]);
    const without = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "5", "--no-headers"]);
    // The next command repeats the flags given, --no-headers included.
    expect(without).toEqual({
      ...withHeader,
      stdout: withHeader.stdout.slice(PIPED_TABLE_HEADER.length),
      stderr: withHeader.stderr.replace(" -n 5 --after ", " -n 5 --no-headers --after "),
    });
    expect(without.stdout.split("\n")[0]).toMatch(/^msg-/);
  });

  it("--fields chooses the columns; the header names them", async () => {
    const page = await serverPage(sandbox, CAMPAIGN, { limit: 3 });
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "-n",
      "3",
      "--fields",
      "id,values.first_name,lastAttemptStatus",
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        "id\tvalues.first_name\tlastAttemptStatus\n" +
        page.data.map((m) => `${m.id}\t${m.values.first_name ?? ""}\t${m.messageAttempts!.at(-1)!.status}\n`).join(""),
      stderr: moreHint(
        [
          "--base-url",
          sandbox.url,
          "messages",
          "cmp-spring-sale",
          "-n",
          "3",
          "--fields",
          "id,values.first_name,lastAttemptStatus",
        ],
        3,
        "after",
        page.pageData.endCursor!,
      ),
    });
  });
});

describe("on a terminal", () => {
  it("exact layout for a small table: columns as wide as their content, two spaces apart", async () => {
    const otp = await serverListing(sandbox, "/campaigns/cmp-otp-alerts/messages");
    const width = Math.max(2, ...otp.map((m) => m.id.length));
    const expected =
      ["id".padEnd(width + 2) + "latestStatus", ...otp.map((m) => m.id.padEnd(width + 2) + m.latestStatus)].join("\n") +
      "\n";
    const result = await cli(sandbox, ["messages", "cmp-otp-alerts", "--fields", "id,latestStatus", "--no-color"], {
      tty: true,
      columns: 80,
    });
    expect(result).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  // Issue 25, a suspected item decided: at a width where ERROR (rank 1, at least 12 cells) and CREATED (rank 2)
  // cannot fit, the narrow TRIES (rank 3) takes the room left rather than leaving it empty. It never displaces
  // them: as soon as ERROR fits, it is there and TRIES is the one left out. Kept as designed.
  it.each([
    [40, ["ID", "RECIPIENT", "STATUS"]],
    [50, ["ID", "RECIPIENT", "STATUS", "TRIES"]],
    [60, ["ID", "RECIPIENT", "STATUS", "ERROR"]],
  ])(
    "at %i columns the failures show %j: a lower-ranked column only takes room a higher one could not use",
    async (columns, header) => {
      const { stdout } = await cli(
        sandbox,
        ["messages", "cmp-spring-sale", "-n", "4", "--status", "failure", "--no-color"],
        {
          tty: true,
          columns,
        },
      );
      expect(names(stdout.split("\n")[0]!)).toEqual(header);
    },
  );

  describe.each([80, 160])("at %i columns", (columns) => {
    it.each<[string, string[], (m: Message) => boolean]>([
      ["without filters", [], () => true],
      ["with --status failure", ["--status", "failure"], (m) => m.latestStatus === "failure"],
      ["with --status created", ["--status", "created"], (m) => m.latestStatus === "created"],
    ])(
      "%s: no line wider, ids and recipients whole, every error code whole, the zone in the header",
      async (_name, args, keep) => {
        const expected = all.filter(keep).slice(0, 30);
        const { code, stdout } = await cli(
          sandbox,
          ["messages", "cmp-spring-sale", "-n", "30", "--tz", "America/New_York", "--no-color", ...args],
          { tty: true, columns },
        );
        expect(code).toBe(0);
        const lines = stdout.trimEnd().split("\n");
        for (const line of lines) {
          expect(terminalWidth(line), line).toBeLessThanOrEqual(columns);
          expect(line).not.toMatch(CONTROL);
        }
        const rows = rowsOf(stdout);
        expect(rows).toHaveLength(expected.length);
        rows.forEach((row, i) => {
          const m = expected[i]!;
          expect(row).toMatch(new RegExp(`^${m.id} +${m.recipient} +${m.latestStatus} `));
          // The error of a failed message, whole; beside any other status no code (issue 21, defect 6).
          const error = newestFailedAttempt(m)?.errorCode;
          if (error && m.latestStatus === "failure") expect(row).toContain(` ${error} `);
          if (error && m.latestStatus !== "failure") expect(row).not.toContain(error);
        });
        // The zone is named in the header: beside CREATED when there is room, else on the line under it.
        const header = lines.slice(0, lines.indexOf(rows[0]!)).join("\n");
        expect(header).toMatch(/CREATED \(America\/New_York\)|CREATED\n.*America\/New_York|CREATED\n.* New_York/);
      },
    );
  });

  it("a wider terminal shows more: message text and files at 160, not at 80", async () => {
    const narrow = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--no-color"], {
      tty: true,
      columns: 80,
    });
    const wide = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--no-color"], {
      tty: true,
      columns: 160,
    });
    expect(names(wide.stdout.split("\n")[0]!)).toEqual([
      "ID",
      "RECIPIENT",
      "STATUS",
      "TRIES",
      "ERROR",
      "CREATED (UTC)",
      "BATCH",
      "FILE",
      "MESSAGE",
    ]);
    expect(names(narrow.stdout.split("\n")[0]!)).toEqual(["ID", "RECIPIENT", "STATUS", "ERROR", "CREATED"]);
    expect(narrow.stdout.split("\n")[1]!.trim()).toBe("UTC");
  });

  it("a column with nothing in it on the page is left out", async () => {
    const otp = await serverListing(sandbox, "/campaigns/cmp-otp-alerts/messages");
    expect(otp.every((m) => batchIdOf(m) === "")).toBe(true);
    const { stdout } = await cli(sandbox, ["messages", "cmp-otp-alerts", "--no-color"], { tty: true, columns: 160 });
    const header = names(stdout.split("\n")[0]!);
    expect(header).not.toContain("BATCH");
    expect(header).not.toContain("FILE");
    expect(header.includes("ERROR")).toBe(otp.some((m) => newestFailedAttempt(m)?.errorCode));
  });

  it("BATCH is the batch id in both listings, so it can be copied from one into the other; the file name beside it", async () => {
    const member = all.find((m) => m.batches?.length)!;
    const batch = member.batches![0]!;
    const campaignRow = rowsOf(
      (await cli(sandbox, ["messages", "cmp-spring-sale", "--all", "--no-color"], { tty: true, columns: 200 })).stdout,
    ).find((row) => row.startsWith(`${member.id} `))!;
    const batchRow = rowsOf(
      (await cli(sandbox, ["batch", "cmp-spring-sale", batch.id, "--all", "--no-color"], { tty: true, columns: 200 }))
        .stdout,
    ).find((row) => row.startsWith(`${member.id} `))!;
    expect(campaignRow).toMatch(new RegExp(` ${batch.id} +${batch.originalFileName} `));
    expect(batchRow).toContain(` ${batch.id} `);
  });

  it("--wide: every column and every text whole, however narrow the terminal", async () => {
    const { code, stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--wide", "--no-color"], {
      tty: true,
      columns: 80,
    });
    expect(code).toBe(0);
    expect(names(stdout.split("\n")[0]!)).toEqual([
      "ID",
      "RECIPIENT",
      "STATUS",
      "TRIES",
      "ERROR",
      "CREATED (UTC)",
      "BATCH",
      "FILE",
      "MESSAGE",
    ]);
    // Empty columns too: cmp-otp-alerts has no batches.
    const otp = await cli(sandbox, ["messages", "cmp-otp-alerts", "--wide", "--no-color"], { tty: true, columns: 80 });
    expect(names(otp.stdout.split("\n")[0]!)).toContain("FILE");
    expect(stdout).not.toContain("…");
    rowsOf(stdout).forEach((row, i) =>
      expect(row.endsWith(`  ${inlineSafe(all[i]!.fullMessage)}`.trimEnd())).toBe(true),
    );
  });

  it("--fields at 80 columns cuts other text, never an id", async () => {
    const { stdout } = await cli(
      sandbox,
      [
        "messages",
        "cmp-spring-sale",
        "-n",
        "20",
        "--fields",
        "id,recipient,batchId,templateBody.body,fullMessage",
        "--no-color",
      ],
      { tty: true, columns: 80 },
    );
    const rows = rowsOf(stdout);
    expect(rows).toHaveLength(20);
    rows.forEach((row, i) => {
      expect(terminalWidth(row)).toBeLessThanOrEqual(80);
      expect(row).toMatch(new RegExp(`^${all[i]!.id} +${all[i]!.recipient} +${batchIdOf(all[i]!)}`));
    });
    expect(stdout).toContain("…");
  });

  it("--no-headers: rows only", async () => {
    const { stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "5", "--no-headers", "--no-color"], {
      tty: true,
      columns: 80,
    });
    expect(
      stdout
        .split("\n")
        .filter(Boolean)
        .every((line) => /^msg-/.test(line)),
    ).toBe(true);
  });

  it.each<[string, string[], Record<string, string>, boolean]>([
    ["by default", [], {}, true],
    ["with FORCE_COLOR=1", [], { FORCE_COLOR: "1" }, true],
    ["with FORCE_COLOR=1 over --no-color", ["--no-color"], { FORCE_COLOR: "1" }, true],
    ["not with NO_COLOR=1", [], { NO_COLOR: "1" }, false],
    ["not with --no-color", ["--no-color"], {}, false],
    ["not with FORCE_COLOR=0", [], { FORCE_COLOR: "0" }, false],
    ["not with TERM=dumb", [], { TERM: "dumb" }, false],
  ])("status is coloured %s", async (_name, args, env, coloured) => {
    const { code, stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "10", ...args], {
      tty: true,
      columns: 160,
      env,
    });
    expect(code).toBe(0);
    if (coloured) {
      expect(stdout).toContain("\u001b[32msuccess\u001b[39m");
      expect(stdout).toContain("\u001b[33mcreated\u001b[39m");
    } else {
      expect(stdout).not.toMatch(ANSI);
    }
  });

  it.each([80, 160])(
    "an empty result at %i columns: no header, only the note on stderr (issue 21, defect 12)",
    async (columns) => {
      const result = await cli(sandbox, ["messages", "cmp-empty", "--no-color"], { tty: true, columns });
      expect(result).toEqual({ code: 0, stdout: "", stderr: "No messages found.\n" });
    },
  );

  it("a filter that matches nothing: no header either, and the statuses seen on stderr", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--status", "bounced", "--no-color"], {
      tty: true,
    });
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr:
        "warning: --status bounced: not a status the service is known to send (created, success, failure); " +
        "filtering on it anyway\nNo messages matched. Statuses of the messages read: success 178, failure 17, " +
        "created 5.\n",
    });
  });
});

describe("page by page", () => {
  const PAGE = 10;
  /** A sandbox whose pages after the first are changed by `later`. */
  async function withLaterPages(
    later: (m: Record<string, unknown>, index: number) => Record<string, unknown>,
    first: (m: Record<string, unknown>) => Record<string, unknown> = (m) => m,
  ): Promise<Sandbox> {
    return startTestSandbox({
      transform: (body, request) => {
        const page = body as { data?: Array<Record<string, unknown>> };
        if (!Array.isArray(page.data)) return body;
        const change = request.query.has("after") ? later : first;
        return { ...page, data: page.data.map((m, i) => change(m, i)) };
      },
    });
  }

  it("a longer recipient on a later page is whole, under the one header: it runs past its column", async () => {
    const long = "123456789012345678901234";
    const changed = await withLaterPages((m, i) => (i === 3 ? { ...m, recipient: long } : m));
    try {
      const { code, stdout } = await cli(
        changed,
        ["messages", "cmp-spring-sale", "-n", String(2 * PAGE), "--page-size", String(PAGE), "--no-color"],
        { tty: true, columns: 80 },
      );
      expect(code).toBe(0);
      const rows = rowsOf(stdout);
      expect(rows).toHaveLength(2 * PAGE);
      expect(stdout.split("\n").filter((line) => line.startsWith("ID "))).toHaveLength(1);
      const longRow = rows.find((row) => row.includes(` ${long} `))!;
      expect(longRow).toMatch(/^msg-spring-0000013 {2}123456789012345678901234 {2}success /);
      // The rows around it keep the header's columns.
      const status = stdout.indexOf("STATUS");
      for (const row of rows.filter((row) => row.split(/ +/)[1]!.length <= 12))
        expect(row.slice(status - 2, status + 7)).toMatch(/^ {2}[a-z]+ *$/);
    } finally {
      await changed.close();
    }
  });

  // A later page cannot add a column without a second header: what it has in a column not shown is
  // named on stderr, once the table ends.
  const LATER: Record<number, string> = {
    80: "Hidden at 80 columns: TRIES, MESSAGE (--wide shows all)",
    160: "Hidden at 160 columns: TRIES (--wide shows all)",
  };
  it.each([80, 160])("at %i columns, TRIES that only a later page has is named on stderr", async (columns) => {
    const bare = (m: Record<string, unknown>) => {
      const { numAttempts: _n, messageAttempts: _a, ...rest } = m;
      return rest;
    };
    const changed = await withLaterPages((m) => m, bare);
    try {
      const result = await cli(
        changed,
        ["messages", "cmp-spring-sale", "-n", "12", "--page-size", String(PAGE), "--no-color"],
        { tty: true, columns },
      );
      expect(result.code).toBe(0);
      expect(names(result.stdout.split("\n")[0]!)).not.toContain("TRIES");
      expect(result.stdout.split("\n").filter((line) => line.startsWith("ID "))).toHaveLength(1);
      expect(result.stderr.split("\n")[0]).toBe(LATER[columns]);
    } finally {
      await changed.close();
    }
  });
});

// Columns give way by what was asked: the error when failures are asked for or listed (kept for one, when
// the first page had none, so a later failure has its code), the time with --since; what is hidden is named.
describe("one table, its columns fixed on the first page", () => {
  const SCREENS: Record<string, string[]> = {
    // The error goes before the time, in its short form, so that a code to come has the room of the longest.
    "later 80": [
      "ID                  RECIPIENT     STATUS   ERROR                   CREATED",
      "                                                                   UTC",
      "msg-spring-0000000  34522899864   created                          05-01 11:58",
      "msg-spring-0000001  33318471261   success                          05-01 07:57",
      "msg-spring-0000002  529516123395  success                          05-01 03:57",
      "msg-spring-0000003  445124772744  success                          05-01 00:02",
      "msg-spring-0000004  34514996244   success                          04-30 20:14",
      "msg-spring-0000005  971658247374  success                          04-30 16:34",
      "msg-spring-0000006  528102063398  success                          04-30 13:04",
      "msg-spring-0000007  916403937620  success                          04-30 09:45",
      "msg-spring-0000008  971623922093  success                          04-30 06:39",
      "msg-spring-0000009  12991777411   success                          04-30 03:47",
      "msg-spring-0000010  16104684385   success                          04-30 01:09",
      "msg-spring-0000011  33259814278   success                          04-30 01:09",
      "msg-spring-0000012  912440553036  success                          04-29 20:35",
      "msg-spring-0000013  18049610986   success                          04-29 18:38",
      "msg-spring-0000014  33750934133   success                          04-29 16:54",
      "msg-spring-0000015  2348749574100  success                         04-29 15:22",
      "msg-spring-0000016  33728868986   success                          04-29 14:00",
      "msg-spring-0000017  15424518040   success                          04-29 12:46",
      "msg-spring-0000018  17209703582   failure  server_unknown_error    04-29 11:38",
      "msg-spring-0000019  912541208949  success                          04-29 10:35",
    ],
    "later 160": [
      "ID                  RECIPIENT     STATUS   TRIES  ERROR                   CREATED (UTC)     MESSAGE",
      "msg-spring-0000000  34522899864   created  1                              2025-05-01 11:58  Priya, your order ORD-985378 ships on Friday. Track it: https://sho…",
      "msg-spring-0000001  33318471261   success  1                              2025-05-01 07:57  Fatima, your order Party 🎉 👨‍👩‍👧‍👦 🏳️‍🌈 ships on Monday. Track it: https:…",
      "msg-spring-0000002  529516123395  success  1                              2025-05-01 03:57  ¡Hola José! Rebajas de primavera: 15% de descuento hasta el 15 May.…",
      "msg-spring-0000003  445124772744  success  1                              2025-05-01 00:02  ¡Hola Mateo! Rebajas de primavera: 15% de descuento hasta el 31 May…",
      "msg-spring-0000004  34514996244   success  1                              2025-04-30 20:14  Hi Fatima, our Spring Sale is on: 10% off everything until 30 April…",
      "msg-spring-0000005  971658247374  success  1                              2025-04-30 16:34  Hi Fatima, our Spring Sale is on: 50% off everything until 30 April…",
      "msg-spring-0000006  528102063398  success  3                              2025-04-30 13:04  O'Neil, your order ORD-905230 ships tomorrow. Track it: https://sho…",
      "msg-spring-0000007  916403937620  success  2                              2025-04-30 09:45  Hi Kenji, our Spring Sale is on: 10% off everything until 15 May. S…",
      "msg-spring-0000008  971623922093  success  2                              2025-04-30 06:39  Liam, your order ORD-962543 ships today. Track it: https://sho.rt/1…",
      "msg-spring-0000009  12991777411   success  1                              2025-04-30 03:47  Hi O'Neil, our Spring Sale is on: 50% off everything until 15 May. …",
      "msg-spring-0000010  16104684385   success  1                              2025-04-30 01:09  Hi Fatima, our Spring Sale is on: 25% off everything until 31 May. …",
      "msg-spring-0000011  33259814278   success  1                              2025-04-30 01:09  ¡Hola Lucía! Rebajas de primavera: 30% de descuento hasta el 2 May.…",
      "msg-spring-0000012  912440553036  success  2                              2025-04-29 20:35  Hi Björn, our Spring Sale is on: 10% off everything until 2 May. Sh…",
      "msg-spring-0000013  18049610986   success  1                              2025-04-29 18:38  Hi Mateo, our Spring Sale is on: 40% off everything until 15 May. S…",
      "msg-spring-0000014  33750934133   success  1                              2025-04-29 16:54  ¡Hola O'Neil! Rebajas de primavera: 15% de descuento hasta el 15 Ma…",
      "msg-spring-0000015  2348749574100  success  1                             2025-04-29 15:22  Björn, your order ORD-025654 ships today. Track it: https://sho.rt/…",
      "msg-spring-0000016  33728868986   success  1                              2025-04-29 14:00  Fatima, your order ORD-222857 ships today. Track it: https://sho.rt…",
      "msg-spring-0000017  15424518040   success  1                              2025-04-29 12:46  Priya, your order ORD-320453 ships tomorrow. Track it: https://sho.…",
      "msg-spring-0000018  17209703582   failure  1      server_unknown_error    2025-04-29 11:38  O'Neil, your order ORD-432638 ships today. Track it: https://sho.rt…",
      "msg-spring-0000019  912541208949  success  1                              2025-04-29 10:35  ¡Hola Fatima! Rebajas de primavera: 50% de descuento hasta el 30 Ap…",
    ],
    "merged 80": [
      "CAMPAIGN         ID                   RECIPIENT     STATUS   CREATED (UTC)",
      "cmp-spring-sale  msg-spring-0000000   34522899864   created  2025-05-01 11:58",
      "cmp-loyalty-es   msg-loyalty-0000000  34747213738   created  2025-05-01 11:57",
      "cmp-spring-sale  msg-spring-0000001   33318471261   success  2025-05-01 07:57",
      "cmp-spring-sale  msg-spring-0000002   529516123395  success  2025-05-01 03:57",
      "cmp-spring-sale  msg-spring-0000003   445124772744  success  2025-05-01 00:02",
      "cmp-spring-sale  msg-spring-0000004   34514996244   success  2025-04-30 20:14",
      "cmp-spring-sale  msg-spring-0000005   971658247374  success  2025-04-30 16:34",
      "cmp-loyalty-es   msg-loyalty-0000001  2341269704698  failure  2025-04-30 16:33",
      "cmp-spring-sale  msg-spring-0000006   528102063398  success  2025-04-30 13:04",
      "cmp-spring-sale  msg-spring-0000007   916403937620  success  2025-04-30 09:45",
      "cmp-spring-sale  msg-spring-0000008   971623922093  success  2025-04-30 06:39",
      "cmp-spring-sale  msg-spring-0000009   12991777411   success  2025-04-30 03:47",
    ],
    "merged 160": [
      "CAMPAIGN         ID                   RECIPIENT     STATUS   TRIES  ERROR                   CREATED (UTC)     MESSAGE",
      "cmp-spring-sale  msg-spring-0000000   34522899864   created  1                              2025-05-01 11:58  Priya, your order ORD-985378 ships on Friday. Tra…",
      "cmp-loyalty-es   msg-loyalty-0000000  34747213738   created  1                              2025-05-01 11:57  Chloé, you have 1074 points. Your code: 493168. R…",
      "cmp-spring-sale  msg-spring-0000001   33318471261   success  1                              2025-05-01 07:57  Fatima, your order Party 🎉 👨‍👩‍👧‍👦 🏳️‍🌈 ships on Monday…",
      "cmp-spring-sale  msg-spring-0000002   529516123395  success  1                              2025-05-01 03:57  ¡Hola José! Rebajas de primavera: 15% de descuent…",
      "cmp-spring-sale  msg-spring-0000003   445124772744  success  1                              2025-05-01 00:02  ¡Hola Mateo! Rebajas de primavera: 15% de descuen…",
      "cmp-spring-sale  msg-spring-0000004   34514996244   success  1                              2025-04-30 20:14  Hi Fatima, our Spring Sale is on: 10% off everyth…",
      "cmp-spring-sale  msg-spring-0000005   971658247374  success  1                              2025-04-30 16:34  Hi Fatima, our Spring Sale is on: 50% off everyth…",
      "cmp-loyalty-es   msg-loyalty-0000001  2341269704698  failure  1     recipient_unavailable   2025-04-30 16:33  Priya, tienes 1595 puntos. Tu código: 514573. Can…",
      "cmp-spring-sale  msg-spring-0000006   528102063398  success  3                              2025-04-30 13:04  O'Neil, your order ORD-905230 ships tomorrow. Tra…",
      "cmp-spring-sale  msg-spring-0000007   916403937620  success  2                              2025-04-30 09:45  Hi Kenji, our Spring Sale is on: 10% off everythi…",
      "cmp-spring-sale  msg-spring-0000008   971623922093  success  2                              2025-04-30 06:39  Liam, your order ORD-962543 ships today. Track it…",
      "cmp-spring-sale  msg-spring-0000009   12991777411   success  1                              2025-04-30 03:47  Hi O'Neil, our Spring Sale is on: 50% off everyth…",
    ],
  };
  const HIDDEN: Record<string, string> = {
    "later 80": "Hidden at 80 columns: TRIES, BATCH, FILE, MESSAGE (--wide shows all)",
    "later 160": "Hidden at 160 columns: BATCH, FILE (--wide shows all)",
    "merged 80": "Hidden at 80 columns: TRIES, ERROR, MESSAGE (--wide shows all)",
    "merged 160": "",
  };

  // The first page (10) has no failure; the second has msg-spring-0000018's: the error column was kept
  // for it, as wide as the longest known code (at 80, before the time, which takes its short form), under
  // the one header.
  it.each([80, 160])("at %i columns, a failure on the second page has its code, whole", async (columns) => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--no-color", "-n", "20", "--page-size", "10"], {
      tty: true,
      columns,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(SCREENS[`later ${columns}`]!.join("\n") + "\n");
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      HIDDEN[`later ${columns}`],
      "Showing 20 messages; more may follow. For the next ones, run:",
    ]);
  });

  // Two campaigns merged, pages of 5: later rows bring a longer recipient and a failure; one header.
  it.each([80, 160])("at %i columns, two campaigns merged: one header, the columns kept", async (columns) => {
    const result = await cli(
      sandbox,
      ["messages", "cmp-spring-sale", "cmp-loyalty-es", "--no-color", "-n", "12", "--page-size", "5"],
      { tty: true, columns },
    );
    expect(result).toEqual({
      code: 0,
      stdout: SCREENS[`merged ${columns}`]!.join("\n") + "\n",
      stderr:
        (HIDDEN[`merged ${columns}`] ? `${HIDDEN[`merged ${columns}`]}\n` : "") +
        "Showing 12 messages; more may follow. One --after cursor cannot continue several campaigns: use --all, " +
        "or a larger --limit, for more.\n",
    });
  });
});

describe("spinner", () => {
  const SGR = /\u001b\[\d+m/;

  it("appears on stderr only when stderr is a terminal (and stdout is not a pipe's), never in the output", async () => {
    const dir = scratchFolder("msgstat-spin-");
    const args = ["messages", "cmp-spring-sale", "--all", "--jsonl", "--page-size", "50"];
    const piped = await cli(sandbox, args);
    const toFile = await cli(sandbox, [...args, "-o", path.join(dir, "a.jsonl")], { stderrTty: true });
    const toFileQuiet = await cli(sandbox, [...args, "-o", path.join(dir, "b.jsonl")]);
    const pipedOnTerminal = await cli(sandbox, args, { stderrTty: true });
    expect(toFile.stderr).toContain("Loading messages");
    expect({ code: toFile.code, stdout: toFile.stdout }).toEqual({ code: 0, stdout: "" });
    expect(readFileSync(path.join(dir, "a.jsonl"), "utf8")).toBe(piped.stdout);
    expect(toFileQuiet.stderr).toBe(`wrote 200 messages to ${path.join(dir, "b.jsonl")}\n`);
    // Piped stdout: its reader likely prints to the same screen, so no spinner (as gh does).
    expect(pipedOnTerminal).toEqual(piped);
  });

  it("says how far the whole run got, with filters too: pages read, messages seen and kept, after rows were printed", async () => {
    const failures = all.filter((m) => m.latestStatus === "failure");
    const { code, stdout, stderr } = await cli(
      sandbox,
      ["messages", "cmp-spring-sale", "--status", "failure", "--page-size", "20", "--all", "--no-color"],
      { tty: true, stderrTty: true, columns: 160 },
    );
    expect(code).toBe(0);
    expect(rowsOf(stdout)).toHaveLength(failures.length);
    const pages = Math.ceil(all.length / 20);
    const kept = (page: number) => all.slice(0, page * 20).filter((m) => m.latestStatus === "failure").length;
    for (const page of [1, 2, pages])
      expect(stderr).toContain(
        `Loading messages… ${page} ${page === 1 ? "page" : "pages"}, ${Math.min(all.length, page * 20)} seen, ${kept(page)} kept`,
      );
  });

  it.each<[string, string[], Record<string, string>, boolean]>([
    ["coloured by default", [], {}, true],
    ["not coloured with NO_COLOR=1", [], { NO_COLOR: "1" }, false],
    ["not coloured with --no-color", ["--no-color"], {}, false],
  ])("is %s", async (_name, args, env, coloured) => {
    const dir = scratchFolder("msgstat-spin-");
    const { code, stderr } = await cli(
      sandbox,
      ["messages", "cmp-spring-sale", "--all", "--csv", "-o", path.join(dir, "a.csv"), ...args],
      { stderrTty: true, env },
    );
    expect(code).toBe(0);
    expect(stderr).toContain("Loading messages");
    expect(SGR.test(stderr)).toBe(coloured);
    if (coloured) expect(stderr).toContain("\u001b[36m");
  });

  it("on a dumb terminal: no animation and no escapes, a plain line at most every few seconds", async () => {
    const dir = scratchFolder("msgstat-spin-");
    // A clock that moves two seconds each time it is read: a line every third page or so.
    let now = Date.parse("2025-05-01T12:00:00.000Z");
    const clock = () => (now += 2_000);
    const { code, stderr } = await cli(
      sandbox,
      [
        "messages",
        "cmp-spring-sale",
        "--status",
        "failure",
        "--all",
        "--page-size",
        "10",
        "--csv",
        "-o",
        path.join(dir, "a.csv"),
      ],
      { stderrTty: true, env: { TERM: "dumb" }, clock },
    );
    expect(code).toBe(0);
    expect(stderr).not.toContain("\u001b");
    const [wrote, ...progressLines] = stderr.split("\n").filter(Boolean).reverse();
    expect(wrote).toBe(
      `wrote ${all.filter((m) => m.latestStatus === "failure").length.toLocaleString("en-US")} messages to ${path.join(dir, "a.csv")}`,
    );
    const lines = progressLines.reverse();
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.length).toBeLessThan(Math.ceil(all.length / 10));
    for (const line of lines) expect(line).toMatch(/^Loading messages… \d+ pages, [\d,]+ seen, [\d,]+ kept$/);
  });
});
