// The one listing run's continuation of one campaign out of several: the argv it repeats.
import { describe, expect, it } from "vitest";
import { oneCampaignArgv } from "../../../../src/commands/shared/listing/run.js";

const VALUE_FLAGS = new Set(["--status", "--campaigns-file", "--concurrency", "-o", "--output"]);

describe("oneCampaignArgv", () => {
  it("keeps the command and its flags with their values, and names the one campaign instead of them all", () => {
    expect(
      oneCampaignArgv(["messages", "a", "--status", "failure", "b", "-o", "x.csv", "c"], "b", VALUE_FLAGS),
    ).toEqual(["messages", "b", "--status", "failure", "-o", "x.csv"]);
  });

  it("leaves out the flags of several campaigns, in either spelling, and keeps a value that looks like an id", () => {
    expect(
      oneCampaignArgv(
        ["messages", "--campaigns-file", "ids.txt", "--concurrency=8", "--partial", "--status", "a", "a"],
        "a",
        VALUE_FLAGS,
      ),
    ).toEqual(["messages", "a", "--status", "a"]);
  });
});
