// How --search is sent: the formatting of a phone number dropped, the digits kept.
import { describe, expect, it } from "vitest";
import { normaliseSearch } from "../../../src/commands/shared/filters.js";

describe("normaliseSearch", () => {
  it.each([
    ["+1 (555)", "1555"],
    ["+44 20-7946.0958", "442079460958"],
    ["  11  ", "11"],
    ["555", "555"],
    ["(0) 12 34", "01234"],
    // Only a leading + is formatting; a later one is kept, so the API sees (and rejects) it.
    ["1+2", "1+2"],
  ])("%j searches %j", (input, sent) => {
    expect(normaliseSearch(input)).toBe(sent);
  });

  it("a plus inside brackets is formatting too", () => {
    expect(normaliseSearch("(+44) 7700")).toBe("447700");
    expect(normaliseSearch("+1 (555) 010-99.1")).toBe("1555010991");
  });
});
