// The guess at what was meant, shared by every "did you mean": commands and options, statuses,
// --fields names, profiles and the calendar words of --since and --until.
import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../src/core/edit-distance.js";

describe("editDistance", () => {
  it.each([
    ["prod", "prod", 0],
    ["prd", "prod", 1],
    ["stagign", "staging", 1],
    ["lastweek", "last week", 1],
    ["failed", "failure", 3],
    ["", "abc", 3],
  ])("%j to %j: %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});

describe("closest", () => {
  const words = ["today", "yesterday", "this week", "last week", "this month", "last month"];

  it.each<[string, readonly string[], string[]]>([
    ["lastweek", words, ["last week"]],
    ["yesteday", words, ["yesterday"]],
    ["lastmonth", words, ["last month"]],
    ["prd", ["default", "prod", "staging"], ["prod"]],
    // Equally close: every one, in the order given.
    ["stat", ["stats", "state"], ["stats", "state"]],
    // Too far for the length typed: nothing.
    ["tomorrow", words, []],
    ["qa", ["prod", "staging"], []],
    // The start of one name only, however far.
    ["--concur", ["--concurrency", "--csv"], ["--concurrency"]],
    ["las", words, []],
  ])("%j among %j: %j", (word, candidates, expected) => {
    expect(closest(word, candidates)).toEqual(expected);
  });
});

describe("didYouMean", () => {
  it("one name, several, or nothing to say", () => {
    expect(didYouMean(["recipient"])).toBe("Did you mean recipient?");
    expect(didYouMean(["--profile prod", "--profile prd2"])).toBe(
      "Did you mean one of --profile prod, --profile prd2?",
    );
    expect(didYouMean([])).toBeUndefined();
  });
});
