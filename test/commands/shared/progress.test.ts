// The one progress line of every listing run: pages and messages across the campaigns being read.
import { describe, expect, it } from "vitest";
import { progressText } from "../../../src/commands/shared/progress.js";
import type { MessageSelector } from "../../../src/service/select.js";

const selector = (pagesRead: number, seen: number, printed: number, filtered = false) =>
  ({ reader: { pagesRead }, outcome: { seen, printed }, filtered }) as unknown as MessageSelector;

describe("progressText", () => {
  it("of one listing: pages and messages seen; kept only with filters", () => {
    expect(progressText("Loading messages…", [selector(1, 1000, 1000)])).toBe("Loading messages… 1 page, 1,000 seen");
    expect(progressText("Counting messages…", [selector(3, 3000, 12, true)])).toBe(
      "Counting messages… 3 pages, 3,000 seen, 12 kept",
    );
  });

  it("of several campaigns: how many are done first, then the sums across them", () => {
    const selectors = [selector(2, 2000, 5, true), selector(1, 40, 40)];
    expect(progressText("Loading messages…", selectors, { done: 1, of: 3 })).toBe(
      "Loading messages… 1 of 3 campaigns done, 3 pages, 2,040 seen, 45 kept",
    );
    expect(progressText("Exporting…", [], { done: 0, of: 1 })).toBe("Exporting… 0 of 1 campaign done, 0 pages, 0 seen");
  });
});
