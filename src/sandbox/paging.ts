// Which campaign indices a page holds. A listing is a contiguous index range (index order is
// newest-first order); search narrows it to the indices whose recipient matches.

export interface ListingRange {
  /** First index (inclusive) and end (exclusive). */
  start: number;
  end: number;
}

export interface PageQuery {
  limit: number;
  /** Index of the `after` cursor's message: the page holds matches strictly after it. */
  after?: number;
  /** Index of the `before` cursor's message: the page holds the matches immediately before it. */
  before?: number;
  /** Absent: every index matches. */
  matches?: (index: number) => boolean;
}

export interface PageSlice {
  indices: number[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

const everyIndex = () => true;

export function slicePage(range: ListingRange, query: PageQuery): PageSlice {
  const matches = query.matches ?? everyIndex;
  if (query.before !== undefined) {
    const indices = collectBackward(range, query.before - 1, query.limit, matches).reverse();
    return withFlags(range, indices, query.before - 1, matches);
  }
  const from = query.after === undefined ? range.start : query.after + 1;
  const indices = collectForward(range, from, query.limit, matches);
  return withFlags(range, indices, from - 1, matches);
}

/** `pivot`: last index before the page when the page is empty, so both flags stay exact. */
function withFlags(
  range: ListingRange,
  indices: number[],
  pivot: number,
  matches: (index: number) => boolean,
): PageSlice {
  const first = indices[0];
  const last = indices[indices.length - 1];
  const previousFrom = first === undefined ? pivot : first - 1;
  const nextFrom = last === undefined ? pivot + 1 : last + 1;
  return {
    indices,
    hasPreviousPage: collectBackward(range, previousFrom, 1, matches).length > 0,
    hasNextPage: collectForward(range, nextFrom, 1, matches).length > 0,
  };
}

function collectForward(
  range: ListingRange,
  from: number,
  limit: number,
  matches: (index: number) => boolean,
): number[] {
  const found: number[] = [];
  for (let i = Math.max(from, range.start); i < range.end && found.length < limit; i++) {
    if (matches(i)) found.push(i);
  }
  return found;
}

function collectBackward(
  range: ListingRange,
  from: number,
  limit: number,
  matches: (index: number) => boolean,
): number[] {
  const found: number[] = [];
  for (let i = Math.min(from, range.end - 1); i >= range.start && found.length < limit; i--) {
    if (matches(i)) found.push(i);
  }
  return found;
}
