// --concurrency: how many campaigns are fetched at once when a command names several. The flag, else
// MSGSTAT_CONCURRENCY, else the profile's `concurrency`, else 4: one rule for every such command.
import { CONCURRENCY_RANGE } from "../../core/numbers.js";
import type { RunSettings } from "../../config/settings.js";
import { wholeNumberOption } from "./option-values.js";

export function concurrencyOption() {
  return wholeNumberOption(
    "--concurrency <n>",
    "with several campaigns: how many are fetched at once, 1 to 16 (default: 4, or the profile's)",
    CONCURRENCY_RANGE,
  );
}

/** The concurrency in force; a bad environment or profile value is a usage error naming where it was read. */
export function chosenConcurrency(flag: number | undefined, settings: RunSettings): number {
  return Number(settings.setting("concurrency", { concurrency: flag })!.value);
}
