// Parquet and msgstat's tolerance rule (docs/parquet.md, "Nulls and unexpected types"): every message
// passes; a value of another type than the reference's is NULL in its typed column and kept in its
// object's `extra`; unknown keys too; a timestamp that is no time keeps its text. Served by a small
// server of the test's own, as text, for what the sandbox does not send: wrong types, nulls, unknown
// keys at every level, __proto__, a number past 2^53, a 3 MB string, a value 100,000 levels deep.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOW } from "../../support/cli-helpers.js";
import { duckdb, sqlText } from "../../support/duckdb.js";
import { startListingServer } from "../../support/listing-server.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const DEPTH = 100_000;
const deep = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const huge = "Olá 🎉 ".repeat(400_000);

const odd =
  '{"id":"odd","createdAt":"yesterday","updatedAt":1746100800000,"recipient":15550100,' +
  '"values":{"first_name":"Ann","age":7},"latestStatus":"failure","numAttempts":"3","templateBody":"body",' +
  '"batches":[{"id":"b1","totalMessages":"12","BatchMessage":null},"junk"],' +
  '"messageAttempts":[{"id":"a1","status":"failure","deliveredAt":null,"errorType":null,"metadata":{},' +
  '"creator":{"email":"ops@example.com","team":"ops"},"provider":"sns"}],' +
  '"channel":"sms","__proto__":{"polluted":true},"big":9007199254740993}';
const fields = [
  "createdAt",
  "updatedAt",
  "recipient",
  "values",
  "fullMessage",
  "latestStatus",
  "templateBodyId",
  "campaignId",
  "templateBody",
  "batches",
  "messageAttempts",
  "attempts",
  "language",
  "batchId",
  "creatorEmail",
  "numAttempts",
];
const nulls = `{"id":"nulls",${fields.map((name) => `"${name}":null`).join(",")}}`;
const bare = '{"id":"bare"}';
const large = `{"id":"huge","createdAt":"2025-05-01T10:00:00.000+00:00","fullMessage":"${huge}","values":{"long":"${huge}"}}`;
const deepOne =
  '{"id":"deep","messageAttempts":[{"id":"a2","metadata":{"tree":' + deep + '}}],"extra":{"tree":' + deep + "}}";
const page = `{"data":[${[odd, nulls, bare, large, deepOne].join(",")}],"pageData":{"hasNextPage":false}}`;

describe("-o x.parquet with odd messages: every one passes, nothing the server said is lost", () => {
  it("typed columns NULL where the type is wrong, the values in extra; unknown keys at every level in extra", async () => {
    const server = await startListingServer(() => page);
    const target = path.join(scratchFolder("msgstat-parquet-odd-"), "odd.parquet");
    const result = await runCli(["--base-url", server.url, "--retries", "0", "messages", "cmp", "-o", target], {
      now: NOW,
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote 5 messages to ${target}\n` });
    const rows = await duckdb(`
      SELECT id, epoch_ms(createdAt) AS createdAt, createdAtText, updatedAt, updatedAtText, recipient,
        to_json("values") AS valuesJson, latestStatus, numAttempts, templateBody IS NULL AS noTemplate,
        to_json(batches) AS batches, messageAttempts[1].id AS attempt, messageAttempts[1].metadata AS metadata,
        messageAttempts[1].creator.email AS email, messageAttempts[1].creator.extra AS creatorExtra,
        messageAttempts[1].extra AS attemptExtra, length(fullMessage) AS messageLength, fullMessage,
        "values"['long'] AS longValue, extra
      FROM read_parquet(${sqlText(target)}, file_row_number = true) ORDER BY file_row_number`);
    const [oddRow, nullRow, bareRow, hugeRow, deepRow] = rows;

    expect(oddRow).toEqual({
      id: "odd",
      createdAt: null,
      createdAtText: "yesterday",
      updatedAt: null,
      updatedAtText: null,
      recipient: null,
      valuesJson: '{"first_name":"Ann","age":null}',
      latestStatus: "failure",
      numAttempts: null,
      noTemplate: true,
      batches:
        '[{"id":"b1","originalFileName":null,"status":null,"campaignId":null,"creatorId":null,' +
        '"totalMessages":null,"createdAt":null,"createdAtText":null,"updatedAt":null,"updatedAtText":null,' +
        '"BatchMessage":null,"extra":"{\\"totalMessages\\":\\"12\\"}"},null]',
      attempt: "a1",
      metadata: "{}",
      email: "ops@example.com",
      creatorExtra: '{"team":"ops"}',
      attemptExtra: '{"provider":"sns"}',
      messageLength: null,
      fullMessage: null,
      longValue: null,
      extra:
        '{"updatedAt":1746100800000,"recipient":15550100,"values":{"first_name":"Ann","age":7},' +
        '"templateBody":"body","batches":[{"id":"b1","totalMessages":"12","BatchMessage":null},"junk"],' +
        '"numAttempts":"3","channel":"sms","__proto__":{"polluted":true},"big":9007199254740992}',
    });
    // null and missing alike: every typed column NULL, and nothing for extra.
    for (const row of [nullRow, bareRow]) {
      expect(
        Object.entries(row!).filter(([name, value]) => name !== "id" && value !== null && name !== "noTemplate"),
      ).toEqual([]);
    }
    expect(hugeRow!.fullMessage).toBe(huge);
    expect(hugeRow!.longValue).toBe(huge);
    expect(hugeRow!.extra).toBeNull();
    expect(deepRow!.metadata).toBe(`{"tree":${deep}}`);
    expect(deepRow!.extra).toBe(`{"extra":{"tree":${deep}}}`);
  });
});
