// Tier 2: the table, piped (tab-separated, whole values, no colour) and on a terminal (sized to its
// width, cut with an ellipsis, coloured only when colour is wanted), and the spinner's place.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch.js";
import type { Message } from "../../src/core/message.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { cli, moreHint, newestFailedAttempt, serverListing, serverPage, useListingSandbox } from "./cli-helpers.js";

const CAMPAIGN = "/campaigns/cmp-spring-sale/messages";
const HEADER = "ID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tMESSAGE\n";
const ANSI = /\u001b\[[0-9;]*m/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/;
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u;
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Cells a line takes on a terminal that draws each grapheme cluster (an emoji ZWJ sequence, a flag) as one glyph. */
function terminalWidth(line: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(line)) width += WIDE.test(segment) ? 2 : 1;
  return width;
}
let sandbox: Sandbox;
let all: Message[];

useListingSandbox(CAMPAIGN, (started, messages) => {
  sandbox = started;
  all = messages;
});

describe("piped", () => {
  it("tab-separated rows under a header, every value whole, no colour (even with FORCE_COLOR)", async () => {
    const { code, stdout, stderr } = await cli(sandbox, ["messages", "cmp-spring-sale", "--all"], { env: { FORCE_COLOR: "1" } });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.startsWith(HEADER)).toBe(true);
    expect(stdout).not.toMatch(ANSI);
    const rows = stdout.slice(HEADER.length).split("\n");
    expect(rows.pop()).toBe("");
    expect(rows).toHaveLength(all.length);
    rows.forEach((row, i) => {
      const m = all[i]!;
      const cells = row.split("\t");
      expect(cells).toHaveLength(8);
      const [id, recipient, status, attempts, error, created, batch, text] = cells;
      expect({ id, recipient, status, attempts, error, created, batch }).toEqual({
        id: m.id,
        recipient: m.recipient,
        status: m.latestStatus,
        attempts: String(m.numAttempts),
        error: newestFailedAttempt(m)?.errorCode ?? "",
        created: m.createdAt,
        batch: m.batches?.[0]?.originalFileName ?? "",
      });
      // Control characters (newlines, tabs, escapes) become visible escapes; other text is never cut.
      if (CONTROL.test(m.fullMessage)) expect(text!.length).toBeGreaterThan(m.fullMessage.length);
      else expect(text).toBe(m.fullMessage);
      expect(text).not.toMatch(CONTROL);
    });
    expect(all.some((m) => CONTROL.test(m.fullMessage))).toBe(true);
  });

  it("--fields chooses the columns; the header names them", async () => {
    const page = await serverPage(sandbox, CAMPAIGN, { limit: 3 });
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "3", "--fields", "id,values.first_name,lastAttemptStatus"]);
    expect(result).toEqual({
      code: 0,
      stdout: "id\tvalues.first_name\tlastAttemptStatus\n" + page.data.map((m) => `${m.id}\t${m.values.first_name ?? ""}\t${m.messageAttempts!.at(-1)!.status}\n`).join(""),
      stderr: moreHint(["--base-url", sandbox.url, "messages", "cmp-spring-sale", "-n", "3", "--fields", "id,values.first_name,lastAttemptStatus"], 3, "after", page.pageData.endCursor!),
    });
  });
});

describe("on a terminal", () => {
  it("exact layout for a small table: columns as wide as their content, two spaces apart", async () => {
    const otp = await serverListing(sandbox, "/campaigns/cmp-otp-alerts/messages");
    const width = Math.max(2, ...otp.map((m) => m.id.length));
    const expected = ["id".padEnd(width + 2) + "latestStatus", ...otp.map((m) => m.id.padEnd(width + 2) + m.latestStatus)].join("\n") + "\n";
    const result = await cli(sandbox, ["messages", "cmp-otp-alerts", "--fields", "id,latestStatus", "--no-color"], { tty: true, columns: 80 });
    expect(result).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  it.each([80, 160])("fits %i columns, keeps the error column, cuts long text with an ellipsis", async (columns) => {
    const { code, stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--no-color"], { tty: true, columns });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    for (const line of lines) expect(terminalWidth(line)).toBeLessThanOrEqual(columns);
    expect(lines[0]).toMatch(/^ID +RECIPIENT +STATUS +(TRIES +)?ERROR +CREATED/);
    expect(lines.some((line) => line.includes("…"))).toBe(true);
    // Every row starts with the whole id: the id column is never the one cut.
    lines.slice(1).forEach((line, i) => expect(line.startsWith(all[i]!.id + " ")).toBe(true));
    for (const line of lines) expect(line).not.toMatch(CONTROL);
  });

  it("a wider terminal shows more: the message column appears at 160", async () => {
    const narrow = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--no-color"], { tty: true, columns: 80 });
    const wide = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "30", "--no-color"], { tty: true, columns: 160 });
    const header = (text: string) => text.split("\n")[0]!.split(/ {2,}/);
    expect(header(wide.stdout)).toEqual(["ID", "RECIPIENT", "STATUS", "TRIES", "ERROR", "CREATED", "BATCH", "MESSAGE"]);
    expect(header(narrow.stdout).length).toBeLessThan(8);
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
    const { code, stdout } = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "10", ...args], { tty: true, columns: 160, env });
    expect(code).toBe(0);
    if (coloured) {
      expect(stdout).toContain("\u001b[32msuccess\u001b[39m");
      expect(stdout).toContain("\u001b[33mcreated\u001b[39m");
    } else {
      expect(stdout).not.toMatch(ANSI);
    }
  });

  it("an empty result shows the header, and a note on stderr", async () => {
    const result = await cli(sandbox, ["messages", "cmp-empty", "--no-color"], { tty: true });
    expect(result).toEqual({ code: 0, stdout: "ID  RECIPIENT  STATUS  TRIES  ERROR  CREATED  BATCH  MESSAGE\n", stderr: "No messages found.\n" });
  });
});

describe("spinner", () => {
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
});
