// A campaign's spill: one file per day, a line per message (its id as JSON, a tab, the message on one
// line as the server sent it), appended as enough waits; read back in the order spilled, each id once.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CampaignSpill, uniqueMessages } from "../../../src/commands/export/spill.js";
import { JsonSource, SourcedMessage } from "../../../src/core/json-source.js";
import type { CheckedMessage } from "../../../src/core/message.js";
import { scratchFolder } from "../../support/scratch.js";

/** A message as the server sent this text. */
const sent = (text: string) => {
  const bytes = Buffer.from(text);
  return new SourcedMessage(
    JSON.parse(text) as CheckedMessage,
    new JsonSource(bytes, 0, bytes.length, !/[\n\r]/.test(text)),
  );
};

async function collect(file: string) {
  const repeats = { count: 0 };
  const messages = [];
  for await (const message of uniqueMessages(file, repeats)) messages.push(message);
  return { messages, repeats: repeats.count };
}

describe("CampaignSpill", () => {
  it("writes each day's messages to its own file, as sent, a pretty one on one line, on flush", async () => {
    const spill = await CampaignSpill.create(path.join(scratchFolder("export-spill-"), "cmp-a"));
    await spill.add("2026-11-19", sent('{"id":"a","n":9007199254740993,"t":"caf\\u00e9"}'));
    await spill.add("2026-11-20", sent('{\n  "id": "b",\n  "x": [1, 2]\n}'));
    await spill.add("2026-11-19", sent('{"id":"c"}'));
    expect(existsSync(spill.fileOf("2026-11-19"))).toBe(false);
    await spill.flush();
    expect(readFileSync(spill.fileOf("2026-11-19"), "utf8")).toBe(
      '"a"\t{"id":"a","n":9007199254740993,"t":"caf\\u00e9"}\n"c"\t{"id":"c"}\n',
    );
    expect(readFileSync(spill.fileOf("2026-11-20"), "utf8")).toBe('"b"\t{"id":"b","x":[1,2]}\n');
    expect([...spill.lines]).toEqual([
      ["2026-11-19", 2],
      ["2026-11-20", 1],
    ]);
  });

  it("appends a day's lines once 256 KiB of them wait, before any flush", async () => {
    const spill = await CampaignSpill.create(path.join(scratchFolder("export-spill-"), "cmp-a"));
    const pad = "x".repeat(1000);
    for (let i = 0; i < 300; i++) await spill.add("2026-11-19", sent(`{"id":"m${i}","pad":"${pad}"}`));
    const lines = readFileSync(spill.fileOf("2026-11-19"), "utf8").split("\n").length - 1;
    expect(lines).toBeGreaterThan(0);
    expect(lines).toBeLessThan(300);
    await spill.flush();
    expect(readFileSync(spill.fileOf("2026-11-19"), "utf8").split("\n")).toHaveLength(301);
  });

  it("remove() deletes its folder, whatever still waits", async () => {
    const spill = await CampaignSpill.create(path.join(scratchFolder("export-spill-"), "cmp-a"));
    await spill.add("2026-11-19", sent('{"id":"a"}'));
    await spill.flush();
    await spill.add("2026-11-19", sent('{"id":"b"}'));
    await spill.remove();
    expect(existsSync(spill.folder)).toBe(false);
  });
});

describe("uniqueMessages", () => {
  it("gives each id once, its first copy, in the order spilled, and counts the repeats; a tab in an id is escaped", async () => {
    const file = path.join(scratchFolder("export-spill-"), "day.spill");
    writeFileSync(
      file,
      '"a"\t{"id":"a","v":1}\n"a\\tb"\t{"id":"a\\tb"}\n"a"\t{"id":"a","v":2}\n"c"\t{"id":"c","s":"x\\ty"}\n"a"\t{"id":"a","v":3}\n',
    );
    expect(await collect(file)).toEqual({
      messages: [
        { idJson: '"a"', body: '{"id":"a","v":1}' },
        { idJson: '"a\\tb"', body: '{"id":"a\\tb"}' },
        { idJson: '"c"', body: '{"id":"c","s":"x\\ty"}' },
      ],
      repeats: 2,
    });
  });
});
