// The one way a flag's value is checked: each typed option is made here, its parser turns the text
// into the value the command's options hold, and a bad value is a usage error (exit 2) naming the flag.
// The parsers run while commander reads the command line, so nothing is sent before they pass.
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { DECIMAL, describeNumber, numberWithin, parseDuration, type Range } from "../../core/numbers.js";

/** A command without options yet: where a flags type is derived from (typeof addXOptions<[], NoOptions, NoOptions>). */
export type NoOptions = Record<never, never>;

/** The long flag of "-n, --limit <n>": what an error names. */
export function longFlag(flags: string): string {
  return /--[\w-]+/.exec(flags)?.[0] ?? flags.split(/[ ,]/)[0]!;
}

function refuse(flag: string, rule: string, text: string): never {
  throw new UsageError(`${flag} must be ${rule}, not "${text}"`);
}

export type { Range } from "../../core/numbers.js";

export function numberParser(flag: string, whole: boolean, range: Range = {}): (text: string) => number {
  const rule = describeNumber(whole, range);
  return (text) => numberWithin(text, whole, range) ?? refuse(flag, rule, text);
}

/** An option holding a whole number within a range. */
export function wholeNumberOption<const Usage extends string>(flags: Usage, description: string, range: Range = {}) {
  return new Option(flags, description).argParser(numberParser(longFlag(flags), true, range));
}

/** An option holding a number (decimals allowed) within a range. */
export function numberOption<const Usage extends string>(flags: Usage, description: string, range: Range = {}) {
  return new Option(flags, description).argParser(numberParser(longFlag(flags), false, range));
}

/**
 * An option holding a percent from 0 to 100: "5" and "5%" both mean 5 %. `bare` tells a number
 * written without "%", so a value that looks like a fraction (0.05) can be questioned.
 */
export function percentOption<const Usage extends string>(flags: Usage, description: string) {
  const flag = longFlag(flags);
  return new Option(flags, description).argParser((text: string) => {
    const trimmed = text.trim();
    const bare = !trimmed.endsWith("%");
    const digits = bare ? trimmed : trimmed.slice(0, -1).trim();
    const percent = DECIMAL.test(digits) ? Number(digits) : Number.NaN;
    if (!(percent >= 0 && percent <= 100)) refuse(flag, "a percent from 0 to 100 (5 or 5% mean 5 %)", text);
    return { percent, bare };
  });
}

/** An option holding a length of time (`2s`, `10m`, `1h`; a bare number is seconds), in milliseconds. */
export function durationOption<const Usage extends string>(
  flags: Usage,
  description: string,
  range: { minMs: number; maxMs: number },
) {
  const flag = longFlag(flags);
  const seconds = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);
  return new Option(flags, description).argParser((text: string) => {
    const ms = parseDuration(text);
    if (ms === undefined || ms < range.minMs || ms > range.maxMs)
      refuse(flag, `a duration from ${seconds(range.minMs)} to ${seconds(range.maxMs)} (e.g. 2s, 90s, 10m)`, text);
    return ms;
  });
}

/**
 * An option holding a length of time and, after a colon, the percentile it bounds (`5m`, `90s:99`, `1h:99.9`):
 * `percentile` is `defaultPercentile` when none is written.
 */
export function durationPercentileOption<const Usage extends string>(
  flags: Usage,
  description: string,
  range: { minMs: number; maxMs: number; minPercentile: number; maxPercentile: number; defaultPercentile: number },
) {
  const flag = longFlag(flags);
  const rule =
    `a duration from ${range.minMs / 1000}s to ${range.maxMs / 86_400_000}d, then optionally a colon and a ` +
    `percentile from ${range.minPercentile} to ${range.maxPercentile} (e.g. 5m, 90s:99)`;
  return new Option(flags, description).argParser((text: string) => {
    const [duration = "", percentileText, ...more] = text.split(":");
    const ms = parseDuration(duration);
    const percentile =
      percentileText === undefined
        ? range.defaultPercentile
        : numberWithin(percentileText, false, { min: range.minPercentile, max: range.maxPercentile });
    if (ms === undefined || ms < range.minMs || ms > range.maxMs || percentile === undefined || more.length > 0)
      refuse(flag, rule, text);
    return { ms, percentile };
  });
}

/** An option holding one of a few words; the choices show in --help and in shell completion. */
export function choiceOption<const Usage extends string, const Choices extends readonly string[]>(
  flags: Usage,
  description: string,
  choices: Choices,
) {
  const flag = longFlag(flags);
  return new Option(flags, description).choices(choices).argParser((text: string): Choices[number] => {
    if (!choices.includes(text)) refuse(flag, `one of ${choices.join(", ")}`, text);
    return text;
  });
}

/** An option holding text that may not be blank. */
export function textOption<const Usage extends string>(flags: Usage, description: string, what: string) {
  const flag = longFlag(flags);
  return new Option(flags, description).argParser((text: string) => {
    if (text.trim() === "") refuse(flag, what, text);
    return text;
  });
}

/**
 * Text that may be given once: commander keeps the last of repeated values, which would silently drop
 * the others (`stats --batch A --batch B` reported B only). `oneAtATime` says what to do instead.
 */
export function onceTextOption<const Usage extends string>(
  flags: Usage,
  description: string,
  what: string,
  oneAtATime: string,
) {
  const flag = longFlag(flags);
  return new Option(flags, description).argParser((text: string, previous: string | undefined) => {
    if (text.trim() === "") refuse(flag, what, text);
    if (previous !== undefined && previous !== text)
      throw new UsageError(`${flag} takes one value, not "${previous}" and "${text}"`).withHint(oneAtATime);
    return text;
  });
}

/** A repeatable option: every value, in order. */
export function listOption<const Usage extends string>(flags: Usage, description: string) {
  return new Option(flags, description).argParser((value: string, previous: string[] = []) => [...previous, value]);
}

/** Identifiers are opaque strings; only an empty one is refused (it would name another endpoint). */
export function requireId(name: string, value: string): void {
  if (value.trim() === "") throw new UsageError(`<${name}> may not be empty`);
}
