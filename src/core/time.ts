// --since / --until: an ISO 8601 date or date-time, or a duration back from now (90m, 24h, 7d).

const DURATION = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

export type Bound = "since" | "until";

/**
 * Milliseconds since the epoch, or undefined when the text is not a time.
 * A date alone is a whole UTC day: `--since 2026-11-01` starts at its first instant,
 * `--until 2026-11-01` ends at its last; a date-time without an offset is UTC.
 */
export function parseTimeBound(text: string, bound: Bound, now: number): number | undefined {
  const trimmed = text.trim();
  const duration = DURATION.exec(trimmed);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2]!.toLowerCase()]!;
  const date = DATE_ONLY.exec(trimmed);
  if (date) {
    if (!isCalendarDate(date)) return undefined;
    const start = Date.parse(`${trimmed}T00:00:00.000Z`);
    return bound === "since" ? start : start + UNIT_MS.d! - 1;
  }
  const dateTime = DATE_TIME.exec(trimmed);
  if (!dateTime || !isCalendarDate(dateTime) || Number(dateTime[4]) > 23 || Number(dateTime[5]) > 59 || Number(dateTime[6] ?? 0) > 59) return undefined;
  const iso = trimmed.replace(" ", "T");
  const at = Date.parse(HAS_OFFSET.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(at) ? undefined : at;
}

/** Date.parse rolls 2026-02-30 over into March; a person who typed it meant something else. */
function isCalendarDate([, year, month, day]: RegExpExecArray): boolean {
  const at = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return at.getUTCFullYear() === Number(year) && at.getUTCMonth() === Number(month) - 1 && at.getUTCDate() === Number(day);
}

/** createdAt as an instant; undefined when absent or unreadable. */
export function instantOf(timestamp: unknown): number | undefined {
  if (typeof timestamp !== "string") return undefined;
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? undefined : at;
}
