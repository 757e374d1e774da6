// Buckets of a zone's hours and days for `stats` over time, through changes of the clocks.
import { describe, expect, it } from "vitest";
import { isoInZone, TimeZone } from "../../src/core/time.js";
import { BucketClock, TimeTally } from "../../src/stats/time-buckets.js";

const zone = (name: string) => TimeZone.named(name)!;
const PARIS = zone("Europe/Paris");
const NEW_YORK = zone("America/New_York");
const KOLKATA = zone("Asia/Kolkata");
const HOUR = 3_600_000;

describe("buckets of the zone's hours and days", () => {
  const clock = (tz: TimeZone) => new BucketClock(tz);

  it("a local day through a change of the clocks is 23 or 25 hours", () => {
    const spring = clock(PARIS).start(Date.parse("2026-03-29T12:00:00Z"), "day");
    expect(new Date(spring).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(clock(PARIS).next(spring, "day") - spring).toBe(23 * HOUR);
    const autumn = clock(NEW_YORK).start(Date.parse("2026-11-01T12:00:00Z"), "day");
    expect(clock(NEW_YORK).next(autumn, "day") - autumn).toBe(25 * HOUR);
  });

  it("local hours start at the zone's :00, half past the UTC hour in India", () => {
    expect(new Date(clock(KOLKATA).start(Date.parse("2026-11-22T10:10:00Z"), "hour")).toISOString()).toBe(
      "2026-11-22T09:30:00.000Z",
    );
    // The repeated autumn hour is two buckets, an hour apart.
    const first = clock(NEW_YORK).start(Date.parse("2026-11-01T05:10:00Z"), "hour");
    const second = clock(NEW_YORK).start(Date.parse("2026-11-01T06:10:00Z"), "hour");
    expect(second - first).toBe(HOUR);
  });

  it("hours folded into the zone's days add up, day by day", () => {
    const tally = new TimeTally("hour", NEW_YORK);
    // One message an hour across the autumn change: 2026-10-31 to 2026-11-02, New York time.
    for (let at = Date.parse("2026-10-31T04:00:00Z"); at < Date.parse("2026-11-03T05:00:00Z"); at += HOUR)
      tally.add(at + 60_000, false);
    const days = tally.buckets("day").rows.map((row) => [isoInZone(row.start, NEW_YORK), row.messages]);
    expect(days).toEqual([
      ["2026-10-31T00:00:00.000-04:00", 24],
      ["2026-11-01T00:00:00.000-04:00", 25],
      ["2026-11-02T00:00:00.000-05:00", 24],
    ]);
  });
});
