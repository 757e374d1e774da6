// Profile keys whose values are read as a person types them: the same check serves the profile, the
// environment variable and the flag.
import { describe, expect, it } from "vitest";
import { checkCampaigns, checkCountryCode } from "../../src/config/keys.js";

describe("country-code", () => {
  it.each([
    ["44", "44"],
    ["+44", "44"],
    ["0044", "44"],
    [" 1 ", "1"],
    ["+ 33", "33"],
    ["971", "971"],
  ])("%j is %j", (text, code) => expect(checkCountryCode(text)).toEqual({ value: code }));

  it.each(["", "0", "1234", "4a", "+", "044"])("%j is refused", (text) =>
    expect(checkCountryCode(text)).toEqual({
      reason: `must be a country calling code of 1 to 3 digits (44, +44), not "${text}"`,
    }),
  );
});

describe("campaigns", () => {
  it("keeps the ids in order, without spaces, empty entries or repeats", () => {
    expect(checkCampaigns(" cmp-a, cmp-b,,cmp-a ,cmp-c")).toEqual({ value: "cmp-a,cmp-b,cmp-c" });
  });

  it("refuses no id, too many, and an id with a slash or a control character", () => {
    expect(checkCampaigns(" , ")).toHaveProperty("reason");
    expect(checkCampaigns(Array.from({ length: 201 }, (_, i) => `c${i}`).join(","))).toEqual({
      reason: "holds at most 200 campaign ids",
    });
    expect(checkCampaigns("a,b\u001bc")).toEqual({
      reason: 'has "b\\u001bc", which holds a control character or a slash',
    });
  });
});
