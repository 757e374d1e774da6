// --quiet: nothing on stderr but errors. The flag, else MSGSTAT_QUIET, else the profile's `quiet`,
// else off; --verbose, which asks for more, turns it off (context.ts).
import type { Profile } from "../../config/profile.js";
import { resolveSetting } from "../../config/settings.js";
import type { GlobalOptions } from "./global-options.js";

/** Whether notes, warnings and progress are left out; a bad MSGSTAT_QUIET is a usage error naming it. */
export function chosenQuiet(
  given: Partial<GlobalOptions>,
  env: Record<string, string | undefined>,
  profile: Pick<Profile, "name" | "values">,
): boolean {
  if (given.quiet === true) return true;
  return resolveSetting("quiet", {}, env, profile)?.value === "true";
}
