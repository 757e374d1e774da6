// Timestamps in the reference's style: millisecond precision and a numeric offset, never `Z`.
// Formatting is the hottest path of a page (a dozen stamps a message), so the date part is cached
// per day and the time of day is assembled from lookup tables instead of going through Date.

export interface UtcOffset {
  minutes: number;
  /** `+05:30`, `-04:00`, `+00:00`. */
  suffix: string;
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
let cachedDay = Number.NaN;
let cachedDatePart = "";

export function utcOffset(minutes: number): UtcOffset {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return { minutes, suffix: `${sign}${TWO_DIGITS[Math.floor(abs / 60)]}:${TWO_DIGITS[abs % 60]}` };
}

/** `YYYY-MM-DDThh:mm:ss.mmm+hh:mm`: the wall-clock time at that offset for the instant `ms`. */
export function formatTimestamp(ms: number, offset: UtcOffset): string {
  const local = ms + offset.minutes * 60_000;
  const day = Math.floor(local / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDatePart = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = local - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const time = `${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}`;
  return `${cachedDatePart}${time}${offset.suffix}`;
}
