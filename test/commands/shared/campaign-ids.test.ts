// Which campaigns a command is asked about: arguments, then --campaigns-file (a file or stdin).
import { Readable } from "node:stream";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { campaignIdsFrom, campaignIdsIn } from "../../../src/commands/shared/campaign-ids.js";
import { scratchFolder } from "../../support/scratch.js";

const stdinOf =
  (text: string, isTTY = false) =>
  () =>
    Object.assign(Readable.from([Buffer.from(text)]), { isTTY });

describe("campaign ids", () => {
  it("skips blank lines and # comments, trims, and reads CRLF", () => {
    expect(campaignIdsIn("# nightly\r\ncmp-a\r\n\r\n  cmp-b  \n#cmp-c\n")).toEqual(["cmp-a", "cmp-b"]);
  });

  it("takes the arguments first, then the file's, each id once", async () => {
    const dir = scratchFolder("msgstat-ids-");
    const file = path.join(dir, "ids.txt");
    await writeFile(file, "b\nc\na\n");
    expect(await campaignIdsFrom(["a", "b", "a"], file, {})).toEqual(["a", "b", "c"]);
  });

  it("reads stdin for -", async () => {
    expect(await campaignIdsFrom([], "-", { stdin: stdinOf("x\n# y\nz\n") })).toEqual(["x", "z"]);
  });

  it("refuses none at all, a terminal for -, and a file that cannot be read", async () => {
    await expect(campaignIdsFrom([], "-", { stdin: stdinOf("# only a comment\n") })).rejects.toThrow(
      "--campaigns-file - names no campaign",
    );
    await expect(campaignIdsFrom([], "-", { stdin: stdinOf("", true) })).rejects.toThrow("stdin is a terminal");
    await expect(campaignIdsFrom([], "/nonexistent/ids", {})).rejects.toThrow(
      "--campaigns-file /nonexistent/ids cannot be read (ENOENT)",
    );
  });
});
