// CSV for spreadsheets (issue 21): --bom puts a UTF-8 byte-order mark first, so Excel reads "Chloé";
// --csv-times tz writes timestamps in --tz, where the default stays the service's exact text.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { isoInZone, TimeZone } from "../../../src/core/time.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { pageForward } from "../../sandbox/http-helpers.js";
import { cli, useTestSandbox } from "../../support/cli-helpers.js";
import { scratchFolder } from "../../support/scratch.js";

let sandbox: Sandbox;
let all: Message[];
useTestSandbox(async (started) => {
  sandbox = started;
  all = (await pageForward(sandbox.url, "/campaigns/cmp-spring-sale/messages", 1000)).messages;
});

const BOM = "\ufeff";
const listing = (args: string[]) => cli(sandbox, ["messages", "cmp-spring-sale", "--all", ...args]);

describe("--bom", () => {
  it("starts the CSV with EF BB BF, once, before the header; without it there is none", async () => {
    const withBom = await listing(["--csv", "--bom", "--fields", "id,values.first_name"]);
    expect(withBom.code).toBe(0);
    expect(Buffer.from(withBom.stdout, "utf8").subarray(0, 5)).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x69, 0x64]));
    expect(withBom.stdout.split(BOM)).toHaveLength(2);
    const without = await listing(["--csv", "--fields", "id,values.first_name"]);
    expect(withBom.stdout).toBe(BOM + without.stdout);
    expect(without.stdout.startsWith("id,values.first_name\r\n")).toBe(true);
    expect(without.stdout).toMatch(/José|Chloé|Zoë|Mateo/);
  });

  it("in a .csv file written with -o, and in the stats CSV", async () => {
    const target = path.join(scratchFolder("msgstat-bom-"), "m.csv");
    expect((await listing(["--bom", "-o", target])).code).toBe(0);
    expect(readFileSync(target).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const stats = await cli(sandbox, ["stats", "cmp-spring-sale", "--csv", "--by", "status", "--bom"]);
    expect(stats.stdout.startsWith(`${BOM}status,count,share,final\r\n`)).toBe(true);
  });

  it.each([
    [["messages", "cmp-spring-sale", "--json", "--bom"], "--bom"],
    [["messages", "cmp-spring-sale", "--bom"], "--bom"],
    [["messages", "cmp-spring-sale", "--jsonl", "--csv-times", "tz"], "--csv-times tz"],
    [["stats", "cmp-spring-sale", "--bom"], "--bom"],
  ])("%j: a CSV flag without CSV is refused, nothing sent", async (args, flag) => {
    const before = sandbox.requests.length;
    expect(await cli(sandbox, args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: ${flag} is for CSV: add --csv, or write to a .csv file with -o\n`,
    });
    expect(sandbox.requests.length).toBe(before);
  });
});

describe("--csv-times", () => {
  const fields = ["--fields", "id,createdAt,updatedAt,lastAttemptAt"];
  const newestAttemptAt = (m: Message) =>
    (m.messageAttempts ?? []).map((a) => a.createdAt).sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? "";

  it("by default, the service's exact text, whatever --tz says", async () => {
    const result = await listing(["--csv", "--tz", "America/New_York", ...fields]);
    expect(result.stdout.split("\r\n").slice(1, 4)).toEqual(
      all.slice(0, 3).map((m) => [m.id, m.createdAt, m.updatedAt, newestAttemptAt(m)].join(",")),
    );
    expect(await listing(["--csv", "--csv-times", "server", "--tz", "America/New_York", ...fields])).toEqual(result);
  });

  it("tz: every timestamp field converted to --tz, ISO 8601 with the zone's offset at that instant", async () => {
    const zone = TimeZone.named("America/New_York")!;
    const local = (text: string) => isoInZone(Date.parse(text), zone);
    const result = await listing(["--csv", "--csv-times", "tz", "--tz", "America/New_York", ...fields]);
    expect(result.code).toBe(0);
    const rows = result.stdout.split("\r\n").slice(1, -1);
    expect(rows).toEqual(
      all.map((m) => [m.id, local(m.createdAt), local(m.updatedAt), local(newestAttemptAt(m))].join(",")),
    );
    expect(rows[0]).toMatch(/^msg-[\w-]+,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00,/);
  });

  it("utc: every timestamp field in UTC (…Z), whatever --tz says", async () => {
    const utc = (text: string) => new Date(Date.parse(text)).toISOString();
    const result = await listing(["--csv", "--csv-times", "utc", "--tz", "America/New_York", ...fields]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout.split("\r\n").slice(1, -1)).toEqual(
      all.map((m) => [m.id, utc(m.createdAt), utc(m.updatedAt), utc(newestAttemptAt(m))].join(",")),
    );
  });
});
