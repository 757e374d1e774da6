// --quiet: nothing on stderr but errors. The flag, else MSGSTAT_QUIET, else the profile's `quiet`,
// else off; --verbose, which asks for more, turns it off (context.ts).
import type { RunSettings } from "../../config/settings.js";
import type { GlobalOptions } from "./global-options.js";

/** Whether notes, warnings and progress are left out; a bad MSGSTAT_QUIET is a usage error naming it. */
export function chosenQuiet(settings: RunSettings<Partial<GlobalOptions>>): boolean {
  if (settings.given.quiet === true) return true;
  return settings.setting("quiet")?.value === "true";
}
