// --tz: the one time zone every time for a person is shown in, and --since/--until are read in.
import { UsageError } from "../../core/errors.js";
import { TimeZone } from "../../core/time.js";

/**
 * `local` (the default) is the process's zone: TZ from the environment msgstat was given, else the
 * system's as Intl sees it. Resolved here, at the edge, so nothing below reads process globals.
 */
export function resolveTimeZone(option: string | undefined, env: Record<string, string | undefined>): TimeZone {
  const text = option?.trim() ?? "local";
  if (text.toLowerCase() === "local") return localZone(env);
  const zone = text === "" ? undefined : TimeZone.named(text);
  if (zone === undefined) throw new UsageError(`--tz "${text}" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, "local" or "UTC"`);
  return zone;
}

function localZone(env: Record<string, string | undefined>): TimeZone {
  // POSIX allows a leading colon (TZ=:Europe/Paris); a TZ Intl cannot read falls back to the system's zone.
  const fromEnv = env.TZ?.replace(/^:/, "");
  const named = fromEnv ? TimeZone.named(fromEnv) : undefined;
  return named ?? TimeZone.named(new Intl.DateTimeFormat().resolvedOptions().timeZone) ?? TimeZone.named("UTC")!;
}
