// Partition names: the UTC day of createdAt, and campaign ids escaped as Hive escapes a value.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { dateOf, escapeValue, partitionPath, UNDATED } from "../../../src/commands/export/layout.js";
import { instantOf } from "../../../src/core/time.js";
import { query } from "../../support/dataset.js";
import { scratchFolder } from "../../support/scratch.js";

describe("partition names", () => {
  it("a message's day is that of its createdAt in UTC, whatever its offset", () => {
    expect(dateOf(instantOf("2026-11-21T23:30:00.000-04:00"))).toBe("2026-11-22");
    expect(dateOf(instantOf("2026-11-22T04:59:59.999+05:30"))).toBe("2026-11-21");
    expect(dateOf(instantOf("not a time"))).toBe(UNDATED);
    expect(dateOf(undefined)).toBe(UNDATED);
  });

  it.each([
    ["cmp-spring-sale", "cmp-spring-sale"],
    ["cmp/a b", "cmp%2Fa%20b"],
    ["a=b%c", "a%3Db%25c"],
    ["é", "%C3%A9"],
    ["..", "%2E%2E"],
    [".", "%2E"],
  ])("the campaign id %j is the folder value %j", (id, folder) => {
    expect(escapeValue(id)).toBe(folder);
    expect(partitionPath({ campaignId: id, date: "2026-11-22" })).toBe(`campaign_id=${folder}/created_date=2026-11-22`);
  });

  it("DuckDB reads each escaped id back as the id, and the undated partition as a null date", async () => {
    const dir = scratchFolder("export-layout-");
    const ids = ["cmp/a b", "a=b%c", "é", ".."];
    for (const id of ids) {
      const folder = path.join(dir, partitionPath({ campaignId: id, date: UNDATED }));
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, "messages.jsonl.gz"), gzipSync('{"id":"m"}\n'));
    }
    const rows = await query(
      `SELECT campaign_id, created_date FROM read_json_objects('${dir}/**/*.jsonl.gz', ` +
        `format = 'newline_delimited', hive_partitioning = true) ORDER BY campaign_id`,
    );
    expect(rows).toEqual([...ids].sort().map((id) => ({ campaign_id: id, created_date: null })));
  });
});
