// Counts as people read them: digits grouped as Intl's en-US groups them, without starting ICU.
import { describe, expect, it } from "vitest";
import { countText } from "../../src/core/numbers.js";

describe("countText", () => {
  it('groups digits as toLocaleString("en-US") does, for every order of magnitude and sign', () => {
    const values = [0, 1, 12, 999, 1000, 1001, 99_999, 100_000, 1_234_567, 10_000_000, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 2e15; n = n * 7 + 3) values.push(n);
    for (const value of [...values, ...values.filter((n) => n !== 0).map((n) => -n)])
      expect(countText(value)).toBe(value.toLocaleString("en-US"));
  });
});
