// How long, for a person: the one wording of a duration wherever msgstat shows one (reports, the
// message view, live modes, progress lines, hints and errors). Units s, min, h and d; a zero part
// is left out ("2 h", not "2 h 0 min").

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DurationOptions {
  /**
   * Every unit, down to the millisecond (`1 min 1.5 s`): for a length the user gave (--wait-timeout 1.5s)
   * or a round bound, restated as given. Without it, the two largest units, the smaller one rounded.
   */
  exact?: boolean;
}

/** `0 s`, `under 1 s`, `45 s`, `3 min 10 s`, `2 h 5 min`, `3 d 4 h`. */
export function durationText(ms: number, options: DurationOptions = {}): string {
  const length = Math.max(0, ms);
  if (options.exact) return exactText(length);
  // Rounded to the smaller of the two units shown, so 59.6 s is "1 min" and 23 h 59 min 40 s is "1 d".
  const seconds = Math.round(length / SECOND);
  if (seconds === 0 && length > 0) return "under 1 s";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return pair(Math.floor(seconds / 60), "min", seconds % 60, "s");
  const minutes = Math.round(length / MINUTE);
  if (minutes < 24 * 60) return pair(Math.floor(minutes / 60), "h", minutes % 60, "min");
  const hours = Math.round(length / HOUR);
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}

function pair(large: number, largeUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${large} ${largeUnit}` : `${large} ${largeUnit} ${small} ${smallUnit}`;
}

function exactText(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [size, unit] of [
    [DAY, "d"],
    [HOUR, "h"],
    [MINUTE, "min"],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)} ${unit}`);
    rest %= size;
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest / SECOND} s`);
  return parts.join(" ");
}
