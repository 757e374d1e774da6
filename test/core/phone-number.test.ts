// How a typed number is read: for --search (a part of a number, with 00, national and "ends with" forms)
// and for find (one number, exactly).
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/core/errors.js";
import { findQuery, recipientMatches, searchQuery, type RecipientTest } from "../../src/core/phone-number.js";

describe("searchQuery (--search)", () => {
  it.each([
    // As before: formatting and a leading + dropped, "contains" on the server.
    ["+1 (555)", "1555"],
    ["+44 20-7946.0958", "442079460958"],
    ["  11  ", "11"],
    ["(0) 12 34", "01234"],
    ["0779", "0779"],
    ["(+44) 7700", "447700"],
    // Issue 21: the 00 prefix is the + of a full number.
    ["0044 5494 080779", "445494080779"],
    ["+44 (549) 408-0779", "445494080779"],
    ["+44 (0)20 7946 0958", "442079460958"],
    ["0044 (0)20 7946 0958", "442079460958"],
    // A short 00... is a part of a number, sent as typed.
    ["0012", "0012"],
  ])("%j searches for numbers containing %j", (typed, digits) => {
    expect(searchQuery(typed)).toEqual({ search: digits, described: `containing ${digits}` });
  });

  it("a national form keeps the numbers ending in its national digits", () => {
    expect(searchQuery("07700 900123")).toEqual({
      search: "7700900123",
      test: { kind: "endsWith", digits: "7700900123" },
      described: "ending in 7700900123 (the national number 07700900123)",
    });
    // A trunk 0 before fewer than 8 digits is a digit like any other.
    expect(searchQuery("0123 4567").test).toBeUndefined();
    expect(searchQuery("0123 45678").test).toEqual({ kind: "endsWith", digits: "12345678" });
  });

  it("a leading * means ends with", () => {
    expect(searchQuery("*0779")).toEqual({
      search: "0779",
      test: { kind: "endsWith", digits: "0779" },
      described: "ending in 0779",
    });
    expect(searchQuery("*408-0779").search).toBe("4080779");
  });

  it("leaves what is not digits for the caller to refuse", () => {
    expect(searchQuery("abc").search).toBe("abc");
    expect(searchQuery("1+2").search).toBe("1+2");
  });
});

describe("findQuery (msgstat find)", () => {
  const exactly = (digits: string) => ({
    search: digits,
    test: { kind: "equals", digits },
    described: `+${digits}`,
  });

  it.each(["+44 7700 900123", "0044 7700 900123", "447700900123", "+44 (0)7700 900123", "(+44) 7700-900.123"])(
    "%j is the full international number 447700900123",
    (typed) => {
      expect(findQuery(typed)).toEqual(exactly("447700900123"));
    },
  );

  it.each([
    ["U+2010 hyphen", "\u2010"],
    ["U+2011 non-breaking hyphen", "\u2011"],
    ["U+2012 figure dash", "\u2012"],
    ["U+2013 en dash", "\u2013"],
    ["U+2014 em dash", "\u2014"],
    ["U+2212 minus sign", "\u2212"],
  ])("the %s a word processor writes is read as -", (_name, dash) => {
    expect(findQuery(`+44${dash}7700${dash}900123`)).toEqual(exactly("447700900123"));
    expect(findQuery(`07700${dash}900${dash}123`, "44")).toEqual(exactly("447700900123"));
    expect(searchQuery(`*900${dash}123`).search).toBe("900123");
  });

  it("no-break and thin spaces are spaces", () => {
    expect(findQuery("+44\u00a07700\u2009900123")).toEqual(exactly("447700900123"));
  });

  it("a national form with a country calling code is that full number", () => {
    expect(findQuery("07700 900123", "44")).toEqual(exactly("447700900123"));
  });

  it("a national form without one matches its national digits as an ending, and says so", () => {
    const query = findQuery("07700 900123");
    expect(query.test).toEqual({ kind: "endsWith", digits: "7700900123" });
    expect(query.search).toBe("7700900123");
    expect(query.ambiguous).toEqual([
      "07700900123: no country code is set, so the numbers ending in 7700900123",
      "For one country: --country-code 44 (UK), or msgstat config set country-code 44",
    ]);
  });

  it.each([
    ["(720) 970-3582", "1", "17209703582"],
    ["720.970.3582", "1", "17209703582"],
    ["7773 185432", "44", "447773185432"],
    ["7209703582", "1", "17209703582"],
  ])("%j with country code %s is a national number of that country, +%s", (typed, code, digits) => {
    expect(findQuery(typed, code)).toEqual(exactly(digits));
  });

  it("with a country code, a number that starts with it could be either reading: refused, naming both", () => {
    const error = refusal("1 720 970 3582", "1");
    expect(error.message).toBe(
      '"1 720 970 3582" could be +17209703582 (typed without its +) or the national number 17209703582 of ' +
        "country code 1 (+117209703582)",
    );
    expect(error.hints).toEqual([
      "Say which: msgstat find '+17209703582', or with the trunk 0: msgstat find 017209703582",
    ]);
    // Only one reading has at most 15 digits: that one.
    expect(findQuery("49 1511 2345 6789", "49")).toEqual(exactly("49151123456789"));
  });

  it.each([
    ["970-3582", "1", '"970-3582" is too short for a national number of country code 1 (at least 8 digits)'],
    ["7773 1854 3212 345", "44", '"7773 1854 3212 345" has 15 digits: with country code 44, more than the 15'],
  ])("with a country code, refuses %j", (typed, code, message) => {
    expect(refusal(typed, code).message.startsWith(message)).toBe(true);
  });

  it("without a country code: the international number, and when typed with formatting, stderr says how it was read", () => {
    expect(findQuery("7209703582")).toEqual(exactly("7209703582"));
    expect(findQuery("(720) 970-3582")).toEqual({
      ...exactly("7209703582"),
      ambiguous: [
        "(720) 970-3582: no + or 00 and no country code, so read as +7209703582",
        "A national number? --country-code 1 (US), or msgstat config set country-code 1",
      ],
    });
  });

  it("*digits asks for the numbers ending in them", () => {
    expect(findQuery("*0779")).toEqual({
      search: "0779",
      test: { kind: "endsWith", digits: "0779" },
      described: "ending in 0779",
    });
  });

  it.each([
    ["abc", '"abc" is not a phone number'],
    ["", '"" is not a phone number'],
    ["+44 77x", '"+44 77x" is not a phone number'],
    ["0779", '"0779" is too short for a national number'],
    ["12345", '"12345" has 5 digits: a full international number has 7 to 15'],
    ["+1234567890123456", '"+1234567890123456" has 16 digits'],
  ])("refuses %j", (typed, start) => {
    let error: unknown;
    try {
      findQuery(typed);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message.startsWith(start)).toBe(true);
    expect((error as UsageError).hints.length).toBe(1);
  });
});

function refusal(typed: string, countryCode?: string): UsageError {
  try {
    findQuery(typed, countryCode);
  } catch (caught) {
    if (caught instanceof UsageError) return caught;
    throw caught;
  }
  throw new Error(`${typed} was not refused`);
}

describe("recipientMatches", () => {
  const equals: RecipientTest = { kind: "equals", digits: "447700900123" };
  const endsWith: RecipientTest = { kind: "endsWith", digits: "7700900123" };

  it("equals: that number only, not one that contains or ends with its digits", () => {
    expect(recipientMatches(equals, "447700900123")).toBe(true);
    expect(recipientMatches(equals, "+44 7700 900123")).toBe(true);
    expect(recipientMatches(equals, "1447700900123")).toBe(false);
    expect(recipientMatches(equals, "4477009001234")).toBe(false);
    expect(recipientMatches(equals, "47700900123")).toBe(false);
    expect(recipientMatches(equals, undefined)).toBe(false);
  });

  it("endsWith: any country code before the digits", () => {
    expect(recipientMatches(endsWith, "447700900123")).toBe(true);
    expect(recipientMatches(endsWith, "337700900123")).toBe(true);
    expect(recipientMatches(endsWith, "447700900124")).toBe(false);
    expect(recipientMatches(endsWith, "4477009001230")).toBe(false);
  });
});
