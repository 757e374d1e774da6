// Times for people: one time zone (--tz) for everything msgstat shows, the --since/--until bounds read
// in that same zone, and createdAt read as an instant. The wall clock comes from Intl (Node ships full
// ICU), so daylight saving time and historic offsets are the tz database's, not msgstat's guesses.
import { durationWithUnit } from "./numbers.js";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
/** A fixed offset as a zone: `+01:00`, `-0530`, `+05`; up to 23:59 either way, as ECMAScript has them. */
const FIXED_OFFSET = /^([+-])([01]\d|2[0-3])(?::?([0-5]\d))?$/;
const HOUR_MS = 3_600_000;
/** What --tz, MSGSTAT_TZ and a profile's tz accept, for the message that refuses anything else. */
export const ZONE_HINT =
  'use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"';
const DAY_MS = 86_400_000;
/** Every offset in use since the 1970s is a whole quarter hour: inside a day with a change, one lookup per quarter. */
const SLOT_MS = 900_000;
const MEMO_LIMIT = 10_000;

/** A wall-clock reading: the fields of the local date and time, as a UTC Date would hold them. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 for Sunday. */
  weekday: number;
}

/** What Intl knows of a zone, or the one offset of a fixed one. */
interface Found {
  name: string;
  format: Intl.DateTimeFormat | undefined;
  fixedOffset: number | undefined;
  isUtc: boolean;
}

export class TimeZone {
  /** Offsets by UTC day (when constant all day) and, for the days with a change, by quarter hour. */
  private readonly days = new Map<number, number | null>();
  private readonly slots = new Map<number, number>();
  private found: Found | undefined;

  private constructor(private readonly find: () => Found) {}

  /** The IANA name people are shown (`Europe/Paris`, `UTC`). */
  get name(): string {
    return this.zone().name;
  }

  /** UTC under any of its names: no offset to look up. */
  get isUtc(): boolean {
    return this.zone().isUtc;
  }

  /**
   * The zone of this name, in any case Intl accepts (`europe/paris`, `US/Eastern`), or a fixed offset
   * (`+01:00`); undefined when unknown. It keeps the name as given: ICU would rename `Asia/Kolkata` to
   * its old `Asia/Calcutta`.
   */
  static named(name: string): TimeZone | undefined {
    // Offsets are read here, not by Intl: Node 20's ICU refuses them where Node 22's accepts them, and
    // msgstat answers the same on every line.
    if (name.startsWith("+") || name.startsWith("-")) return TimeZone.fixed(name);
    try {
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone: name,
        hourCycle: "h23",
        era: "short",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
      const resolved = format.resolvedOptions().timeZone;
      const found = {
        name: resolved.toLowerCase() === name.toLowerCase() ? resolved : name,
        format,
        fixedOffset: undefined,
        isUtc: resolved === "UTC",
      };
      return new TimeZone(() => found);
    } catch {
      return undefined;
    }
  }

  /** `+01:00` all year round, named as ISO 8601 writes it (`+0530` is `+05:30`). */
  private static fixed(text: string): TimeZone | undefined {
    const match = FIXED_OFFSET.exec(text);
    if (!match) return undefined;
    const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
    const offset = (match[1] === "-" ? -1 : 1) * minutes * 60_000 || 0; // -00:00 is +00:00
    const found = { name: offsetText(offset), format: undefined, fixedOffset: offset, isUtc: false };
    return new TimeZone(() => found);
  }

  /**
   * A zone looked up when it is first used, for one that cannot be unknown (the process's own): Intl's
   * first DateTimeFormat starts ICU, CPU time that `message --json` or a CSV export never
   * needs, and that a listing shown in the zone spends after its first request is on its way.
   */
  static onFirstUse(zone: () => TimeZone): TimeZone {
    return new TimeZone(() => zone().zone());
  }

  private zone(): Found {
    return (this.found ??= this.find());
  }

  /**
   * Milliseconds the wall clock here is ahead of UTC at this instant. Asking Intl costs microseconds and
   * `stats` asks for every message, so answers are remembered for each UTC day the offset holds all day.
   */
  offsetAt(at: number): number {
    if (this.isUtc) return 0;
    const { fixedOffset } = this.zone();
    if (fixedOffset !== undefined) return fixedOffset;
    const day = Math.floor(at / DAY_MS);
    let whole = this.days.get(day);
    if (whole === undefined) {
      const start = this.exactOffset(day * DAY_MS);
      whole = this.exactOffset(day * DAY_MS + DAY_MS - 1) === start ? start : null;
      remember(this.days, day, whole);
    }
    if (whole !== null) return whole;
    const slot = Math.floor(at / SLOT_MS);
    let offset = this.slots.get(slot);
    if (offset === undefined) {
      const start = this.exactOffset(slot * SLOT_MS);
      // A change inside the quarter (only historic local mean times have those): ask for this instant.
      if (this.exactOffset(slot * SLOT_MS + SLOT_MS - 1) !== start) return this.exactOffset(at);
      remember(this.slots, slot, start);
      offset = start;
    }
    return offset;
  }

  /** The local date and time at an instant. */
  wall(at: number): WallTime {
    const local = new Date(at + this.offsetAt(at));
    return {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      hour: local.getUTCHours(),
      minute: local.getUTCMinutes(),
      second: local.getUTCSeconds(),
      weekday: local.getUTCDay(),
    };
  }

  /**
   * The instant a wall-clock time (given as the UTC milliseconds of the same fields) happens here. A time
   * skipped when clocks go forward is read as that many minutes later; one repeated when they go back is
   * its first occurrence (what Temporal calls "compatible").
   */
  instantOf(wallMs: number): number {
    const before = wallMs - this.offsetAt(wallMs - DAY_MS);
    const after = wallMs - this.offsetAt(wallMs + DAY_MS);
    const happens = (at: number) => at + this.offsetAt(at) === wallMs;
    if (happens(before) && happens(after)) return Math.min(before, after);
    if (happens(before)) return before;
    if (happens(after)) return after;
    return Math.max(before, after);
  }

  /** The first instant of the local day that holds `at` (a day is 23, 24 or 25 hours long). */
  startOfDay(at: number): number {
    const { year, month, day } = this.wall(at);
    return this.instantOf(utcOf(year, month, day));
  }

  /** The first instant of the next local day. */
  startOfNextDay(at: number): number {
    const { year, month, day } = this.wall(at);
    return this.instantOf(utcOf(year, month, day + 1));
  }

  /** The instant the local hour that holds `at` began (each real hour apart, even the repeated one in autumn). */
  startOfHour(at: number): number {
    const local = at + this.offsetAt(at);
    return at - (((local % HOUR_MS) + HOUR_MS) % HOUR_MS);
  }

  private exactOffset(at: number): number {
    const parts: Record<string, string> = {};
    for (const { type, value } of this.zone().format!.formatToParts(at)) parts[type] = value;
    const year = parts.era === "BC" || parts.era === "B" ? 1 - Number(parts.year) : Number(parts.year);
    const local = utcOf(
      year,
      Number(parts.month),
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    return local - Math.floor(at / 1000) * 1000;
  }
}

function remember<V>(memo: Map<number, V>, key: number, value: V): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}

/** Date.UTC for any year (Date.UTC reads years 0 to 99 as 1900 to 1999). */
function utcOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, 0);
  return at.getTime();
}

const two = (n: number) => String(n).padStart(2, "0");

/**
 * `2026-11-22 03:36` (or with `:42` seconds) in the zone, for people; the zone's name is shown beside it by the caller.
 */
export function formatWallTime(at: number, zone: TimeZone, precision: "minute" | "second" = "minute"): string {
  const wall = zone.wall(at);
  const date = `${String(wall.year).padStart(4, "0")}-${two(wall.month)}-${two(wall.day)}`;
  const time = `${two(wall.hour)}:${two(wall.minute)}${precision === "second" ? `:${two(wall.second)}` : ""}`;
  return `${date} ${time}`;
}

/** `+05:30`, `-04:00`, `+00:00`. */
export function offsetText(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${offsetMs < 0 ? "-" : "+"}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}

/** ISO 8601 with the zone's offset (`2026-11-22T00:00:00.000+01:00`); plain `Z` form for UTC. */
export function isoInZone(at: number, zone: TimeZone): string {
  if (zone.isUtc) return new Date(at).toISOString();
  const offset = zone.offsetAt(at);
  return `${new Date(at + offset).toISOString().slice(0, -1)}${offsetText(offset)}`;
}

/** A server timestamp shown in the zone, or the text itself when it is not a readable time. */
export function timestampInZone(
  timestamp: string | undefined,
  zone: TimeZone,
  precision: "minute" | "second" = "minute",
): string {
  if (timestamp === undefined) return "";
  const at = instantOf(timestamp);
  return at === undefined ? timestamp : formatWallTime(at, zone, precision);
}

export type Bound = "since" | "until";

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** The calendar words --since and --until accept, for help and error messages. */
export const CALENDAR_WORDS = [
  "today",
  "yesterday",
  ...WEEKDAYS.slice(1),
  WEEKDAYS[0],
  "this week",
  "last week",
  "this month",
  "last month",
] as const;

/** A stretch of local time: from `start` (its first instant) up to `end` (the first instant after it). */
export interface CalendarWindow {
  start: number;
  end: number;
}

/**
 * A calendar word as a window of local days in the zone: `today`, `yesterday`, a weekday (`monday` or
 * `mon`: the most recent one, today if today is one), `this week` and `last week` (ISO weeks, Monday
 * first), `this month` and `last month`. Words may be joined by a space, `-` or `_`, in any case.
 * Local midnights come from the zone, so a day is 23 or 25 hours long when the clocks change in it.
 */
export function calendarWindow(text: string, now: number, zone: TimeZone): CalendarWindow | undefined {
  const words = text
    .trim()
    .toLowerCase()
    .split(/[\s_-]+/);
  const { year, month, day, weekday } = zone.wall(now);
  const days = (from: number, count: number): CalendarWindow => ({
    start: zone.instantOf(utcOf(year, month, day + from)),
    end: zone.instantOf(utcOf(year, month, day + from + count)),
  });
  const months = (from: number): CalendarWindow => ({
    start: zone.instantOf(utcOf(year, month + from, 1)),
    end: zone.instantOf(utcOf(year, month + from + 1, 1)),
  });
  const sinceMonday = (weekday + 6) % 7;
  if (words.length === 1) {
    const [word] = words as [string];
    if (word === "today") return days(0, 1);
    if (word === "yesterday") return days(-1, 1);
    const named = word.length >= 3 ? WEEKDAYS.findIndex((name) => name.startsWith(word)) : -1;
    // "mon", "tues", "wednesday": a prefix of one weekday's name, three letters at least.
    if (named !== -1) return days(-((weekday - named + 7) % 7), 1);
    return undefined;
  }
  if (words.length !== 2 || (words[0] !== "this" && words[0] !== "last")) return undefined;
  const back = words[0] === "last" ? 1 : 0;
  if (words[1] === "week") return days(-sinceMonday - 7 * back, 7);
  if (words[1] === "month") return months(-back);
  return undefined;
}

/**
 * Milliseconds since the epoch, or undefined when the text is not a time. A date alone is a whole day
 * in the zone: `--since 2026-11-01` starts at its first instant, `--until 2026-11-01` ends at its last;
 * a calendar word (`yesterday`, `last week`) is read the same way, as the stretch of days it names;
 * a date-time without an offset is a wall-clock time in the zone. Durations count back from now.
 */
export function parseTimeBound(text: string, bound: Bound, now: number, zone: TimeZone): number | undefined {
  const trimmed = text.trim();
  const ago = durationWithUnit(trimmed);
  if (ago !== undefined) return now - ago;
  const window = calendarWindow(trimmed, now, zone);
  if (window) return bound === "since" ? window.start : window.end - 1;
  const date = DATE_ONLY.exec(trimmed);
  if (date) {
    if (!isCalendarDate(date)) return undefined;
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    return bound === "since"
      ? zone.instantOf(utcOf(year, month, day))
      : zone.instantOf(utcOf(year, month, day + 1)) - 1;
  }
  const dateTime = DATE_TIME.exec(trimmed);
  if (
    !dateTime ||
    !isCalendarDate(dateTime) ||
    Number(dateTime[4]) > 23 ||
    Number(dateTime[5]) > 59 ||
    Number(dateTime[6] ?? 0) > 59
  )
    return undefined;
  const iso = trimmed.replace(" ", "T");
  if (HAS_OFFSET.test(iso)) {
    const at = Date.parse(iso);
    return Number.isNaN(at) ? undefined : at;
  }
  const wall = Date.parse(`${iso}Z`);
  return Number.isNaN(wall) ? undefined : zone.instantOf(wall);
}

/** Date.parse rolls 2026-02-30 over into March; a person who typed it meant something else. */
function isCalendarDate([, year, month, day]: RegExpExecArray): boolean {
  const at = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    at.getUTCFullYear() === Number(year) && at.getUTCMonth() === Number(month) - 1 && at.getUTCDate() === Number(day)
  );
}

/** createdAt as an instant; undefined when absent or unreadable. */
export function instantOf(timestamp: unknown): number | undefined {
  if (typeof timestamp !== "string") return undefined;
  const common = commonInstant(timestamp);
  if (common !== undefined) return common;
  // The reference promises a numeric offset. A date-time without one is read as UTC: Date.parse would read it in
  // the zone of the machine msgstat runs on, so the same data would sort, filter and show differently by where
  // it is read (and reading it in --tz would make the instant change with how it is shown).
  const at = Date.parse(WITHOUT_OFFSET.test(timestamp) ? `${timestamp}Z` : timestamp);
  return Number.isNaN(at) ? undefined : at;
}

const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

const [DASH, COLON, DOT, PLUS, T, Z] = ["-", ":", ".", "+", "T", "Z"].map((char) => char.charCodeAt(0));

/**
 * The reference's own form, `2026-11-27T11:46:45.572+05:30` (or with `Z`, or without milliseconds),
 * read field by field: Date.parse costs about 250 ns a time, and a Parquet export reads about ten
 * timestamps a message. Undefined for any other form or a field out of its plain range (day 1 to 31,
 * hour 0 to 23, ...), which Date.parse then reads; the instant is Date.parse's (a test holds it).
 */
function commonInstant(text: string): number | undefined {
  const length = text.length;
  if (length < 20 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== T)
    return undefined;
  if (text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return undefined;
  const century = twoDigits(text, 0);
  const ofCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  const fraction = text.charCodeAt(19) === DOT;
  const tens = fraction ? twoDigits(text, 20) : 0;
  const ones = fraction ? oneDigit(text, 22) : 0;
  const at = fraction ? 23 : 19;
  const sign = text.charCodeAt(at);
  let offset = 0;
  if (sign === PLUS || sign === DASH) {
    if (length !== at + 6 || text.charCodeAt(at + 3) !== COLON) return undefined;
    const hours = twoDigits(text, at + 1);
    const minutes = twoDigits(text, at + 4);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
    offset = (sign === PLUS ? 1 : -1) * (hours * 60 + minutes) * 60_000;
  } else if (sign !== Z || length !== at + 1) return undefined;
  // Date.UTC, like this, would read years 0 to 99 as 19xx: those are left to Date.parse.
  if (century < 1 || ofCentury < 0 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || tens < 0 || ones < 0)
    return undefined;
  const time = ((hour * 60 + minute) * 60 + second) * 1000 + tens * 10 + ones;
  return daysSinceEpoch(century * 100 + ofCentury, month, day) * DAY_MS + time - offset;
}

/** The digit at `at`, or -1 when it is not one. */
function oneDigit(text: string, at: number): number {
  const digit = text.charCodeAt(at) - 48;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

/** The number of two digits at `at`, or -100 when either is not a digit. */
function twoDigits(text: string, at: number): number {
  const high = text.charCodeAt(at) - 48;
  const low = text.charCodeAt(at + 1) - 48;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -100;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (a day past its month's end runs
 * on into the next, as Date.UTC's does), by counting from 1 March: then the leap day is a year's last.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const shifted = month <= 2 ? year - 1 : year;
  const era = Math.floor(shifted / 400);
  const ofEra = shifted - era * 400;
  const ofYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + ofEra * 365 + Math.floor(ofEra / 4) - Math.floor(ofEra / 100) + ofYear - 719_468;
}
