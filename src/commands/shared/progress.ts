// What the spinner says while listings are read, for `messages`, `batch`, `find`, `stats` and `export`
// alike: pages and messages read so far, across every campaign being read.
import { count, countText } from "../../core/numbers.js";
import type { MessageSelector } from "../../service/select.js";

/**
 * `Loading messages… 3 pages, 3,000 seen, 12 kept` (kept only with filters: otherwise every one is);
 * with several campaigns, how many are done first: `Counting messages… 1 of 3 campaigns done, 4 pages, ...`.
 */
export function progressText(
  doing: string,
  selectors: Iterable<MessageSelector>,
  campaigns?: { done: number; of: number },
): string {
  let pages = 0;
  let seen = 0;
  let printed = 0;
  let filtered = false;
  for (const selector of selectors) {
    pages += selector.reader.pagesRead;
    seen += selector.outcome.seen;
    printed += selector.outcome.printed;
    filtered ||= selector.filtered;
  }
  const done = campaigns ? ` ${campaigns.done} of ${count(campaigns.of, "campaign")} done,` : "";
  const kept = filtered ? `, ${countText(printed)} kept` : "";
  return `${doing}${done} ${countText(pages)} ${pages === 1 ? "page" : "pages"}, ${countText(seen)} seen${kept}`;
}
