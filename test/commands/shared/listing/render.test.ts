// The listing's renderers chosen by format: a merge's rows carry their campaign to the table and CSV,
// and JSON stays as the server sent each message. Fed rows directly; the scenarios are in
// test/commands/messages/.
import { describe, expect, it } from "vitest";
import type { Context } from "../../../../src/commands/context.js";
import { parseListingOptions } from "../../../../src/commands/shared/listing/options.js";
import { render, type Listed } from "../../../../src/commands/shared/listing/render.js";
import type { CheckedMessage } from "../../../../src/core/message.js";
import { TimeZone } from "../../../../src/core/time.js";
import type { Sink } from "../../../../src/output/sink.js";

const UTC = TimeZone.named("UTC")!;
// Frozen: the campaign travels beside each message, never written onto it.
const ROWS = [
  { campaignId: "cmp-a", item: Object.freeze({ id: "m2", recipient: "442", latestStatus: "success" }) },
  { campaignId: "cmp-b", item: Object.freeze({ id: "m1", recipient: "441", latestStatus: "failure" }) },
] satisfies Array<{ campaignId: string; item: CheckedMessage }>;

const merged: Listed = {
  merged: true,
  campaignIds: ["cmp-a", "cmp-b"],
  async *chunksOf(reading) {
    yield ROWS.map(({ campaignId, item }) => ({ campaignId, item: reading.fromParsed(item) }));
  },
};

const one: Listed = {
  merged: false,
  async *chunksOf(reading) {
    yield ROWS.map(({ item }) => reading.fromParsed(item));
  },
};

async function rendered(listed: Listed, format: { csv?: true; jsonl?: true }): Promise<string> {
  let out = "";
  const sink: Sink = {
    write: (text) => void (out += text),
    writeBytes: (bytes, start, end) => void (out += bytes.subarray(start, end).toString("utf8")),
    flush: async () => {},
    finish: async () => {},
    discard: async () => {},
    fate: "the output is incomplete",
    untouchedByFailure: false,
  };
  const options = parseListingOptions({ headers: true, formulaGuard: true, all: true, ...format }, Date.now(), UTC);
  const ctx = { timeZone: UTC, columns: 80, color: false, version: "0.0.0", note: () => {} } as unknown as Context;
  await render(listed, options, undefined, undefined, sink, ctx, false);
  return out;
}

describe("render", () => {
  it("CSV and the table of a merge: the campaign each row was listed under, first", async () => {
    expect((await rendered(merged, { csv: true })).split("\r\n")[1]).toMatch(/^cmp-a,m2,442,success,/);
    expect((await rendered(one, { csv: true })).split("\r\n")[1]).toMatch(/^m2,442,success,/);
    expect((await rendered(merged, {})).split("\n").slice(0, 2)).toEqual([
      "CAMPAIGN\tID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE",
      "cmp-a\tm2\t442\tsuccess\t\t\t\t\t\t",
    ]);
  });

  it("JSON Lines of a merge: each message as sent, with nothing of the merge added", async () => {
    expect(await rendered(merged, { jsonl: true })).toBe(
      '{"id":"m2","recipient":"442","latestStatus":"success"}\n' +
        '{"id":"m1","recipient":"441","latestStatus":"failure"}\n',
    );
  });
});
