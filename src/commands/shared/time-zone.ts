// --tz: the one time zone every time for a person is shown in, and --since/--until are read in.
import { UsageError } from "../../core/errors.js";
import { TimeZone, ZONE_HINT } from "../../core/time.js";
import type { RunSettings } from "../../config/settings.js";

/**
 * --tz, else MSGSTAT_TZ, else the profile's tz, else local. A profile that cannot be read here
 * counts as having no tz: the command that uses the profile reports why, before it sends anything.
 */
export function chosenTimeZone(settings: RunSettings): TimeZone {
  return resolveTimeZone(String(settings.setting("tz")!.value), settings.env);
}

/**
 * `local` (the default) is the process's zone: TZ from the environment msgstat was given, else the
 * system's as Intl sees it. Resolved here, at the edge, so nothing below reads process globals.
 */
export function resolveTimeZone(option: string | undefined, env: Record<string, string | undefined>): TimeZone {
  const text = option?.trim() ?? "local";
  if (text.toLowerCase() === "local") return localZone(env);
  const zone = text === "" ? undefined : TimeZone.named(text);
  if (zone === undefined) throw new UsageError(`--tz "${text}" is not a time zone: ${ZONE_HINT}`);
  return zone;
}

function localZone(env: Record<string, string | undefined>): TimeZone {
  // POSIX allows a leading colon (TZ=:Europe/Paris); a TZ Intl cannot read falls back to the system's zone.
  const fromEnv = env.TZ?.replace(/^:/, "");
  // Never unknown, so looked up only when a time is shown (core/time.ts says why).
  return TimeZone.onFirstUse(
    () =>
      (fromEnv ? TimeZone.named(fromEnv) : undefined) ??
      TimeZone.named(new Intl.DateTimeFormat().resolvedOptions().timeZone) ??
      TimeZone.named("UTC")!,
  );
}
