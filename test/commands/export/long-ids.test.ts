// A campaign id too long to name a folder (over 255 bytes once %-escaped: 300 ASCII characters, or 30
// Japanese ones at 9 bytes each) is refused for that campaign alone, with its reason; the campaigns beside
// it are exported, the manifest is left with nothing pending, and the next run does the same.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../../src/commands/export/manifest.js";
import { campaignMessage, campaignPages, startListingServer } from "../../support/listing-server.js";
import { query } from "../../support/dataset.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const LONG = `cmp-${"x".repeat(296)}`;
const JAPANESE = "春の大セール会員様限定キャンペーン東京大阪名古屋福岡札幌仙台";

describe("msgstat export with a campaign id too long for a folder name", () => {
  it.each(["parquet", "jsonl.gz"])("refuses that campaign alone and exports the others (%s)", async (format) => {
    expect([LONG.length, [...JAPANESE].length]).toEqual([300, 30]);
    const server = await startListingServer(
      campaignPages({
        "cmp-normal": [campaignMessage("cmp-normal", "m1", 1), campaignMessage("cmp-normal", "m2", 2)],
        [LONG]: [campaignMessage(LONG, "m3", 3)],
        [JAPANESE]: [campaignMessage(JAPANESE, "m4", 4)],
      }),
    );
    const dir = scratchFolder("export-long-");
    const run = () =>
      runCli(["--base-url", server.url, "export", LONG, "cmp-normal", JAPANESE, "--to", dir, "--format", format], {
        env: { TZ: "UTC" },
      });
    const refusal = (bytes: number) =>
      `not exported: its partition folder's name would be ${bytes} bytes (the id %-escaped), ` +
      "over the 255 a file system allows";
    const expected = (written: number, unchanged: number) => ({
      code: 1,
      stdout: "",
      stderr:
        `warning: campaign ${LONG}: ${refusal(312)}\n` +
        `warning: campaign ${JAPANESE}: ${refusal(282)}\n` +
        `exported 1 of 3 campaigns, 2 messages: ${written} ${written === 1 ? "file" : "files"} written, ` +
        `${unchanged} unchanged\n` +
        `msgstat: 1 of 3 campaigns complete; not read to the end: ${LONG}, ${JAPANESE}\n`,
    });
    expect(await run()).toEqual(expected(1, 0));
    // The refused campaigns were not even asked for.
    expect(server.requests.filter((target) => !target.includes("/cmp-normal/"))).toEqual([]);
    const from =
      format === "parquet"
        ? `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`
        : `read_json('${dir}/**/*.jsonl.gz', hive_partitioning = true, format = 'newline_delimited')`;
    expect(await query(`SELECT campaign_id, id FROM ${from} ORDER BY id`)).toEqual([
      { campaign_id: "cmp-normal", id: "m1" },
      { campaign_id: "cmp-normal", id: "m2" },
    ]);
    const manifest = JSON.parse(readFileSync(path.join(dir, "msgstat-export.json"), "utf8")) as Manifest;
    expect(Object.keys(manifest.partitions)).toEqual(["campaign_id=cmp-normal/created_date=2025-05-01"]);
    expect(manifest.partitions["campaign_id=cmp-normal/created_date=2025-05-01"]!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.campaigns[JAPANESE]!.lastFailure!.reason).toBe(refusal(282));
    // What an older msgstat left, sunk by ENAMETOOLONG: the long id's partitions pending for ever.
    const stuck = `campaign_id=${LONG}/created_date=2025-05-01`;
    manifest.partitions[stuck] = { digest: null, messages: 1 };
    writeFileSync(path.join(dir, "msgstat-export.json"), JSON.stringify(manifest));
    // Every night the same: the others are brought up to date, nothing is left pending.
    expect(await run()).toEqual(expected(0, 1));
    const after = JSON.parse(readFileSync(path.join(dir, "msgstat-export.json"), "utf8")) as Manifest;
    expect(Object.keys(after.partitions)).toEqual(["campaign_id=cmp-normal/created_date=2025-05-01"]);
  });
});
