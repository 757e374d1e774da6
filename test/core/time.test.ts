// The one time zone for people: wall clocks, local days and hours through daylight saving time, and
// --since/--until read in the zone. Zones are named here; nothing depends on the TZ the tests run in.
import { describe, expect, it } from "vitest";
import {
  calendarWindow,
  formatWallTime,
  instantOf,
  isoInZone,
  parseTimeBound,
  TimeZone,
  timestampInZone,
} from "../../src/core/time.js";

const zone = (name: string) => TimeZone.named(name)!;
const PARIS = zone("Europe/Paris");
const NEW_YORK = zone("America/New_York");
const KOLKATA = zone("Asia/Kolkata");
const UTC = zone("UTC");
const NOW = Date.parse("2026-11-22T12:00:00.000Z");
const HOUR = 3_600_000;
/** The clock of the cases that came from the listing options' tests. */
const EDGE_NOW = Date.parse("2025-05-01T12:00:00.000Z");

describe("zones by name", () => {
  it.each([
    ["Europe/Paris", "Europe/Paris"],
    ["europe/paris", "Europe/Paris"],
    ["utc", "UTC"],
    // Named as given, not as ICU renames them (Asia/Calcutta, America/New_York).
    ["Asia/Kolkata", "Asia/Kolkata"],
    ["US/Eastern", "US/Eastern"],
  ])("%s is %s", (given, name) => expect(TimeZone.named(given)?.name).toBe(name));

  it("knows UTC under its other names", () => {
    expect(isoInZone(Date.parse("2026-01-01T12:00:00Z"), zone("Etc/UTC"))).toBe("2026-01-01T12:00:00.000Z");
    expect(zone("GMT").offsetAt(NOW)).toBe(0);
  });

  it.each(["Mars/Olympus", "", "local"])("%j is not a zone", (given) => expect(TimeZone.named(given)).toBeUndefined());
});

// msgstat reads offsets itself: Node 20's ICU refuses "+01:00" where 22's and later accept it, and the
// answer must be the same on every line. Expected values are written out, not asked of Intl.
describe("a fixed offset as a zone, the same on every Node line", () => {
  const WINTER = Date.parse("2026-01-15T12:00:00Z");
  const SUMMER = Date.parse("2026-07-15T12:00:00Z");

  it.each([
    ["+01:00", "+01:00", HOUR],
    ["+0100", "+01:00", HOUR],
    ["+01", "+01:00", HOUR],
    ["-05:30", "-05:30", -5.5 * HOUR],
    ["+23:59", "+23:59", 23 * HOUR + 59 * 60_000],
    ["-00:00", "+00:00", 0],
  ])("%s is %s all year round", (given, name, offset) => {
    const fixed = zone(given);
    expect(fixed.name).toBe(name);
    expect(fixed.offsetAt(WINTER)).toBe(offset);
    expect(fixed.offsetAt(SUMMER)).toBe(offset);
  });

  it("shows times, reads bounds and starts days at that offset", () => {
    const plusOne = zone("+01:00");
    expect(formatWallTime(WINTER, plusOne, "second")).toBe("2026-01-15 13:00:00");
    expect(isoInZone(SUMMER, plusOne)).toBe("2026-07-15T13:00:00.000+01:00");
    expect(new Date(parseTimeBound("2026-07-15", "since", NOW, plusOne)!).toISOString()).toBe(
      "2026-07-14T23:00:00.000Z",
    );
    expect(new Date(parseTimeBound("2026-07-15T09:30", "until", NOW, plusOne)!).toISOString()).toBe(
      "2026-07-15T08:30:00.000Z",
    );
    expect(new Date(plusOne.startOfDay(Date.parse("2026-07-15T23:30:00Z"))).toISOString()).toBe(
      "2026-07-15T23:00:00.000Z",
    );
    expect(new Date(zone("+05:30").startOfHour(Date.parse("2026-07-15T12:10:00Z"))).toISOString()).toBe(
      "2026-07-15T11:30:00.000Z",
    );
  });

  it.each(["+1", "+1:00", "+24:00", "+01:60", "+01:00:00", "+01:00 ", "UTC+1", "GMT+1", "--01:00", "+"])(
    "%j is not an offset",
    (given) => expect(TimeZone.named(given)).toBeUndefined(),
  );
});

describe("a zone looked up on first use", () => {
  it("is looked up once, when something asks for it, and is then that zone", () => {
    let lookups = 0;
    const paris = TimeZone.onFirstUse(() => {
      lookups++;
      return zone("Europe/Paris");
    });
    expect(lookups).toBe(0);
    expect(paris.offsetAt(Date.UTC(2026, 0, 15))).toBe(3_600_000);
    expect(paris.name).toBe("Europe/Paris");
    expect(paris.isUtc).toBe(false);
    expect(lookups).toBe(1);
  });
});

describe("the wall clock", () => {
  const at = Date.parse("2026-11-22T03:36:42.120+05:30");
  it.each([
    [UTC, "2026-11-21 22:06:42"],
    [PARIS, "2026-11-21 23:06:42"],
    [NEW_YORK, "2026-11-21 17:06:42"],
    [KOLKATA, "2026-11-22 03:36:42"],
  ])("in %s", (tz, text) => {
    expect(formatWallTime(at, tz, "second")).toBe(text);
    expect(formatWallTime(at, tz)).toBe(text.slice(0, 16));
  });

  it("a server timestamp in the zone; text that is not a time stays as it is", () => {
    expect(timestampInZone("2026-07-01T12:00:00.000+00:00", PARIS)).toBe("2026-07-01 14:00");
    expect(timestampInZone("soon", PARIS)).toBe("soon");
    expect(timestampInZone(undefined, PARIS)).toBe("");
  });

  it("ISO with the zone's offset for reports; Z for UTC", () => {
    expect(isoInZone(Date.parse("2026-07-01T12:00:00Z"), PARIS)).toBe("2026-07-01T14:00:00.000+02:00");
    expect(isoInZone(Date.parse("2026-01-01T12:00:00Z"), KOLKATA)).toBe("2026-01-01T17:30:00.000+05:30");
    expect(isoInZone(Date.parse("2026-01-01T12:00:00Z"), UTC)).toBe("2026-01-01T12:00:00.000Z");
  });
});

describe("--since and --until in the zone", () => {
  it.each([
    // A date is a whole local day.
    ["2026-11-01", "since", PARIS, "2026-10-31T23:00:00.000Z"],
    ["2026-11-01", "until", PARIS, "2026-11-01T22:59:59.999Z"],
    ["2026-11-01", "since", NEW_YORK, "2026-11-01T04:00:00.000Z"],
    // 2026-11-01 is the day New York goes back an hour: 25 hours long.
    ["2026-11-01", "until", NEW_YORK, "2026-11-02T04:59:59.999Z"],
    // 2026-03-29 is the day Paris goes forward: 23 hours long.
    ["2026-03-29", "since", PARIS, "2026-03-28T23:00:00.000Z"],
    ["2026-03-29", "until", PARIS, "2026-03-29T21:59:59.999Z"],
    // A date-time without an offset is a wall-clock time in the zone; with one, the zone does not matter.
    ["2026-11-22T00:00", "since", NEW_YORK, "2026-11-22T05:00:00.000Z"],
    ["2026-11-22 09:30:15", "since", KOLKATA, "2026-11-22T04:00:15.000Z"],
    ["2026-11-22T00:00+02:00", "since", NEW_YORK, "2026-11-21T22:00:00.000Z"],
    ["2026-11-22T00:00Z", "since", KOLKATA, "2026-11-22T00:00:00.000Z"],
    // A time skipped by the clocks going forward is read as that much later; a repeated one as its first.
    ["2026-03-29T02:30", "since", PARIS, "2026-03-29T01:30:00.000Z"],
    ["2026-11-01T01:30", "since", NEW_YORK, "2026-11-01T05:30:00.000Z"],
  ] as const)("%s as --%s in %s", (text, bound, tz, iso) => {
    expect(parseTimeBound(text, bound, NOW, tz)).toBe(Date.parse(iso));
  });

  it("durations count back from now, whatever the zone", () => {
    expect(parseTimeBound("24h", "since", NOW, PARIS)).toBe(NOW - 24 * HOUR);
  });
});

describe("impossible times are refused before anything is sent", () => {
  it.each(["2026-02-30", "2026-11-31", "2026-11-30T24:00", "2026-11-30T23:60", "2026-13-01"])(
    "the impossible time %s",
    (text) => {
      expect(parseTimeBound(text, "since", EDGE_NOW, UTC)).toBeUndefined();
    },
  );

  it("still reads real ones, leap days included", () => {
    expect(parseTimeBound("2024-02-29", "since", EDGE_NOW, UTC)).toBe(Date.parse("2024-02-29T00:00:00Z"));
    expect(parseTimeBound("2026-11-30T23:59:59+02:00", "until", EDGE_NOW, UTC)).toBe(
      Date.parse("2026-11-30T21:59:59Z"),
    );
  });
});

describe("parseTimeBound", () => {
  it.each([
    ["90m", "since", EDGE_NOW - 90 * 60_000],
    ["24h", "since", EDGE_NOW - 24 * HOUR],
    ["7d", "until", EDGE_NOW - 7 * 24 * HOUR],
    ["1.5h", "since", EDGE_NOW - 1.5 * HOUR],
    ["2026-11-01", "since", Date.parse("2026-11-01T00:00:00.000Z")],
    ["2026-11-01", "until", Date.parse("2026-11-02T00:00:00.000Z") - 1],
    ["2026-11-01T09:30:00+02:00", "since", Date.parse("2026-11-01T07:30:00.000Z")],
    ["2026-11-01T09:30:00.250Z", "until", Date.parse("2026-11-01T09:30:00.250Z")],
    ["2026-11-01T09:30", "since", Date.parse("2026-11-01T09:30:00.000Z")],
  ] as const)("%s as --%s is %d", (text, bound, expected) => {
    expect(parseTimeBound(text, bound, EDGE_NOW, UTC)).toBe(expected);
  });

  it.each(["tomorrow", "24", "h", "2026-13-01", "2026-11-01T25:00", "-5h", ""])("%j is not a time", (text) => {
    expect(parseTimeBound(text, "since", EDGE_NOW, UTC)).toBeUndefined();
  });
});

describe("calendar words for --since and --until (issue 21)", () => {
  const iso = (at: number | undefined) => (at === undefined ? undefined : new Date(at).toISOString());
  const window = (text: string, now: number, zone: TimeZone) => {
    const found = calendarWindow(text, now, zone);
    return found && [iso(found.start), iso(found.end)];
  };
  // Sunday 22 November 2026, 12:00 UTC.
  const SUNDAY = NOW;

  it.each([
    ["today", ["2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]],
    ["yesterday", ["2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z"]],
    // The most recent one, today when today is one.
    ["sunday", ["2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]],
    ["Sat", ["2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z"]],
    ["monday", ["2026-11-16T00:00:00.000Z", "2026-11-17T00:00:00.000Z"]],
    ["thurs", ["2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z"]],
    // ISO weeks: Monday first, so Sunday is the last day of "this week".
    ["this week", ["2026-11-16T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]],
    ["last-week", ["2026-11-09T00:00:00.000Z", "2026-11-16T00:00:00.000Z"]],
    ["LAST_WEEK", ["2026-11-09T00:00:00.000Z", "2026-11-16T00:00:00.000Z"]],
    ["this month", ["2026-11-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"]],
    ["last month", ["2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"]],
  ])("%s in UTC on Sunday 2026-11-22", (text, expected) => {
    expect(window(text, SUNDAY, UTC)).toEqual(expected);
  });

  it("is read in the zone: in Auckland it is already Monday the 23rd", () => {
    const auckland = zone("Pacific/Auckland");
    expect(window("today", SUNDAY, auckland)).toEqual(["2026-11-22T11:00:00.000Z", "2026-11-23T11:00:00.000Z"]);
    expect(window("monday", SUNDAY, auckland)).toEqual(window("today", SUNDAY, auckland));
    expect(window("this week", SUNDAY, auckland)).toEqual(["2026-11-22T11:00:00.000Z", "2026-11-29T11:00:00.000Z"]);
  });

  it("has days of 25 and 23 hours where the clocks change", () => {
    // Paris went back from +02:00 to +01:00 on Sunday 25 October 2026.
    const mondayAfter = Date.parse("2026-10-26T10:00:00Z");
    expect(window("yesterday", mondayAfter, PARIS)).toEqual(["2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"]);
    expect(window("last week", mondayAfter, PARIS)).toEqual(["2026-10-18T22:00:00.000Z", "2026-10-25T23:00:00.000Z"]);
    expect(window("this month", mondayAfter, PARIS)).toEqual(["2026-09-30T22:00:00.000Z", "2026-10-31T23:00:00.000Z"]);
    // New York went forward from -05:00 to -04:00 on Sunday 8 March 2026.
    const mondayAfterSpring = Date.parse("2026-03-09T15:00:00Z");
    expect(window("yesterday", mondayAfterSpring, NEW_YORK)).toEqual([
      "2026-03-08T05:00:00.000Z",
      "2026-03-09T04:00:00.000Z",
    ]);
    expect(window("last month", mondayAfterSpring, NEW_YORK)).toEqual([
      "2026-02-01T05:00:00.000Z",
      "2026-03-01T05:00:00.000Z",
    ]);
  });

  it("last month in January is December of the year before", () => {
    expect(window("last month", Date.parse("2026-01-15T12:00:00Z"), UTC)).toEqual([
      "2025-12-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
    ]);
  });

  it("--since is the first instant of the window, --until its last", () => {
    expect(iso(parseTimeBound("yesterday", "since", SUNDAY, KOLKATA))).toBe("2026-11-20T18:30:00.000Z");
    expect(iso(parseTimeBound("yesterday", "until", SUNDAY, KOLKATA))).toBe("2026-11-21T18:29:59.999Z");
    expect(iso(parseTimeBound(" Last Week ", "until", SUNDAY, UTC))).toBe("2026-11-15T23:59:59.999Z");
  });

  it.each(["tomorrow", "next week", "this year", "last", "mo", "th", "monday week", "2026-W47"])(
    "%j is not a calendar word",
    (text) => {
      expect(calendarWindow(text, SUNDAY, UTC)).toBeUndefined();
      expect(parseTimeBound(text, "since", SUNDAY, UTC)).toBeUndefined();
    },
  );
});

describe("instantOf: the reference's form read without Date.parse, to the same instant", () => {
  // What instantOf is defined as: Date.parse, a date-time without an offset read as UTC.
  const parsed = (text: string) => {
    const at = Date.parse(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(text) ? `${text}Z` : text);
    return Number.isNaN(at) ? undefined : at;
  };

  it("every month and day (0 to 32), edge hours, minutes, seconds and offsets, with and without milliseconds", () => {
    const texts: string[] = [];
    for (const year of ["0099", "0100", "1969", "1970", "2024", "2025", "2026", "2100", "9999"])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++)
          for (const time of ["00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "7:00:00", "12:3a:00"])
            for (const fraction of ["", ".000", ".572", ".5", ".5721", ".x00", ".5x2", ".57x"])
              for (const offset of [
                "Z",
                "z",
                "+00:00",
                "-00:00",
                "+05:30",
                "-23:59",
                "+24:00",
                "+05:60",
                "+0530",
                "",
              ]) {
                const date = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
                texts.push(`${date}T${time}${fraction}${offset}`);
              }
    expect(texts.length).toBeGreaterThan(500_000);
    const differing = texts.filter((text) => instantOf(text) !== parsed(text));
    expect(differing).toEqual([]);
    // The grid holds readable times and others: both ways were checked.
    expect(texts.filter((text) => instantOf(text) === undefined).length).toBeGreaterThan(100_000);
    expect(instantOf("2026-11-27T11:46:45.572+05:30")).toBe(Date.parse("2026-11-27T06:16:45.572Z"));
  });

  it("other forms still go to Date.parse: spaces, lower case, short texts, other types", () => {
    for (const text of [
      "2026-11-27 11:46:45Z",
      "2026-11-27t11:46:45Z",
      "2026-11-27T11:46",
      "2026-11-27",
      "yesterday",
      "",
    ])
      expect(instantOf(text)).toBe(parsed(text));
    expect(instantOf(1746100800000)).toBeUndefined();
    expect(instantOf(null)).toBeUndefined();
  });
});
