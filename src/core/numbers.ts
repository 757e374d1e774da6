// The one rule for a number a person types, wherever it comes from: a flag (option-values.ts), an
// environment variable or a profile's key (config/keys.ts). One rule, so one wording in errors.

export interface Range {
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  max?: number;
  /** What the number counts, for the error: "seconds". */
  unit?: string;
  /** Why the bound is there, for the error: "the API's limit". */
  why?: string;
}

/** The ranges of the numeric settings, for their flags and their profile keys alike. */
export const TIMEOUT_RANGE: Range = { above: 0, max: 3600, unit: "seconds" };
export const RETRIES_RANGE: Range = { min: 0, max: 20 };
/** Campaigns fetched at once (--concurrency, the profile key `concurrency`). */
export const CONCURRENCY_RANGE: Range = { min: 1, max: 16 };

/** "a whole number from 0 to 20", "a number of seconds above 0 (at most 3600)". */
export function describeNumber(whole: boolean, range: Range): string {
  const what = `${whole ? "a whole number" : "a number"}${range.unit ? ` of ${range.unit}` : ""}`;
  const lower =
    range.above !== undefined
      ? `above ${range.above}`
      : range.min !== undefined
        ? `${range.max !== undefined ? "from" : "of at least"} ${range.min}`
        : "";
  let bounds = lower;
  if (range.max !== undefined)
    bounds =
      range.above !== undefined
        ? `${lower} (at most ${range.max})`
        : range.min !== undefined
          ? `${lower} to ${range.max}`
          : `of at most ${range.max}`;
  return `${what}${bounds ? ` ${bounds}` : ""}${range.why ? ` (${range.why})` : ""}`;
}

// Decimal notation only: "1e3", "0x10" and "" are not what a person means by a number here.
const WHOLE = /^[+-]?\d+$/;
export const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The number the text holds when it keeps the rule, else undefined. */
export function numberWithin(text: string, whole: boolean, range: Range = {}): number | undefined {
  const trimmed = text.trim();
  const value = (whole ? WHOLE : DECIMAL).test(trimmed) ? Number(trimmed) : Number.NaN;
  const inRange =
    (range.min === undefined || value >= range.min) &&
    (range.above === undefined || value > range.above) &&
    (range.max === undefined || value <= range.max);
  return Number.isFinite(value) && inRange ? value : undefined;
}

/**
 * A whole number as people read it here, digits grouped by commas (`12,345`), as `toLocaleString("en-US")`
 * writes it. Written out because Intl's first use starts ICU, CPU time that a listing's progress line
 * would otherwise spend between its first page and its first row (docs/bench.md's first-row target).
 */
export function countText(n: number): string {
  const digits = String(Math.abs(Math.trunc(n)));
  return `${n < 0 ? "-" : ""}${digits.replace(/\B(?=(\d{3})+$)/g, ",")}`;
}

/** `1 campaign`, `2 campaigns`: a count and its noun, singular for exactly one. */
export const count = (n: number, one: string, many = `${one}s`): string => `${countText(n)} ${n === 1 ? one : many}`;

/** One decimal, but never rounded into 0% or 100% when it is not exactly that. */
export function percentText(share: number | null): string {
  if (share === null) return "–";
  if (share === 0 || share === 1) return `${share * 100}%`;
  if (share < 0.001) return "<0.1%";
  if (share > 0.999) return ">99.9%";
  return `${(share * 100).toFixed(1)}%`;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `2s`, `1.5m`, `10m`, `1h`, `7d`, `1w` in milliseconds; undefined without a unit or when not one. */
export function durationWithUnit(text: string): number | undefined {
  const duration = DURATION.exec(text.trim());
  return duration ? Number(duration[1]) * UNIT_MS[duration[2]!.toLowerCase()]! : undefined;
}

/**
 * A length of time in milliseconds: `2s`, `1.5m`, `10m`, `1h`, or a bare number of seconds; undefined
 * when the text is not one.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  return durationWithUnit(trimmed);
}

/**
 * A number as the exact decimal it was written as: `digits / 10^scale` (18.4 is 184 / 10^1). JavaScript
 * prints a number as the shortest decimal that reads back as it, which is the decimal a person typed, so
 * comparisons on it are exact where 18.4 * 375 in floating point is 6899.999999999999.
 */
export function exactDecimal(value: number): { digits: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value)));
  if (match === null) throw new RangeError(`not a finite number: ${value}`);
  const fraction = match[2] ?? "";
  const scale = fraction.length - Number(match[3] ?? 0);
  const digits = BigInt(`${value < 0 ? "-" : ""}${match[1]}${fraction}`);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** `value` × 10^places, exact as a decimal: 0.137 × 10^2 is 13.7, where 0.137 * 100 is 13.700000000000001. */
export function shiftDecimal(value: number, places: number): number {
  const { digits, scale } = exactDecimal(value);
  return Number(`${digits}e${places - scale}`);
}
