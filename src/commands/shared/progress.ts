// What the spinner says while a listing is read, for `messages`, `batch` and `stats` alike.
import { countText as count } from "../../core/numbers.js";
import type { MessageSelector } from "../../service/select.js";

/** `Loading messages… 3 pages, 3,000 seen, 12 kept` (kept only with filters: otherwise every one is). */
export function progressText(doing: string, selector: MessageSelector): string {
  const pages = selector.reader.pagesRead;
  const kept = selector.filtered ? `, ${count(selector.outcome.printed)} kept` : "";
  return `${doing} ${count(pages)} ${pages === 1 ? "page" : "pages"}, ${count(selector.outcome.seen)} seen${kept}`;
}
