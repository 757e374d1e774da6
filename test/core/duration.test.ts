// The one wording of a duration: each boundary where a unit starts, where rounding carries into the
// next unit, and the exact form that restates what a user typed.
import { describe, expect, it } from "vitest";
import { durationText } from "../../src/core/duration.js";

describe("durationText: how long, for a person", () => {
  it.each([
    [0, "0 s"],
    [1, "under 1 s"],
    [499, "under 1 s"],
    [500, "1 s"],
    [999, "1 s"],
    [1_000, "1 s"],
    [1_499, "1 s"],
    [1_500, "2 s"],
    [42_000, "42 s"],
    [59_400, "59 s"],
    [59_600, "1 min"],
    [60_000, "1 min"],
    [61_000, "1 min 1 s"],
    [190_000, "3 min 10 s"],
    [328_000, "5 min 28 s"],
    [3_599_000, "59 min 59 s"],
    [3_599_600, "1 h"],
    [3_600_000, "1 h"],
    [5_400_000, "1 h 30 min"],
    [7_500_000, "2 h 5 min"],
    [8_640_000, "2 h 24 min"],
    [86_369_000, "23 h 59 min"],
    [86_390_000, "1 d"],
    [129_600_000, "1 d 12 h"],
    [1_814_400_000 - 600_000, "21 d"],
    [-5_000, "0 s"],
  ])("%d ms is %s", (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });
});

describe("durationText, exact: a length restated as given", () => {
  it.each([
    [0, "0 s"],
    [200, "0.2 s"],
    [1_000, "1 s"],
    [1_500, "1.5 s"],
    [30_000, "30 s"],
    [60_000, "1 min"],
    [61_500, "1 min 1.5 s"],
    [3_600_000, "1 h"],
    [43_200_000, "12 h"],
    [90_061_001, "1 d 1 h 1 min 1.001 s"],
    [604_800_000, "7 d"],
  ])("%d ms is %s", (ms, text) => {
    expect(durationText(ms, { exact: true })).toBe(text);
  });
});
