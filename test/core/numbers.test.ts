// Counts as people read them: digits grouped as Intl's en-US groups them, without starting ICU.
import { describe, expect, it } from "vitest";
import { countText, exactDecimal, shiftDecimal } from "../../src/core/numbers.js";

describe("countText", () => {
  it('groups digits as toLocaleString("en-US") does, for every order of magnitude and sign', () => {
    const values = [0, 1, 12, 999, 1000, 1001, 99_999, 100_000, 1_234_567, 10_000_000, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 2e15; n = n * 7 + 3) values.push(n);
    for (const value of [...values, ...values.filter((n) => n !== 0).map((n) => -n)])
      expect(countText(value)).toBe(value.toLocaleString("en-US"));
  });
});

describe("exactDecimal", () => {
  it.each([
    [18.4, 184n, 1],
    [5, 5n, 0],
    [0, 0n, 0],
    [100, 100n, 0],
    [0.05, 5n, 2],
    [12.345, 12345n, 3],
    [1e-7, 1n, 7],
    [1e21, 10n ** 21n, 0],
  ])("%d is %d / 10^%d", (value, digits, scale) => {
    expect(exactDecimal(value)).toEqual({ digits, scale });
  });
});

describe("shiftDecimal", () => {
  it.each([
    [0.137, 2, 13.7],
    [7.2, -2, 0.072],
    [18.4, -2, 0.184],
    [5, -2, 0.05],
    [1e-7, 2, 0.00001],
    [100, -2, 1],
  ])("%d shifted by %d places is %d, not a floating-point neighbour", (value, places, shifted) => {
    expect(shiftDecimal(value, places)).toBe(shifted);
  });
});
