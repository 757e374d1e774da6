// Time to first row: a renderer's text reaches the reader at every page boundary where the next page is
// not already there, so the first rows of a slow listing (or a filter that keeps few) show as soon as
// their page is parsed. When pages arrive faster than they are written, the sink's large writes stay
// large: a flush happens only when the renderer would otherwise sit idle with text in hand.
import { nextTurn } from "../core/timer.js";
import type { Sink } from "./sink.js";

export interface PageBoundaryHooks {
  /** Before a page's rows are rendered (e.g. a spinner on the same terminal steps aside). */
  beforePage?: () => void;
  /** After they were rendered and, when the next page was not there yet, flushed. */
  afterPage?: () => void;
}

export async function* flushAtPageBoundaries<M>(
  chunks: AsyncIterable<M[]>,
  sink: Sink,
  hooks: PageBoundaryHooks = {},
): AsyncGenerator<M[]> {
  const iterator = chunks[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      hooks.beforePage?.();
      yield result.value;
      next = iterator.next();
      if (!(await settlesAtOnce(next))) await sink.flush();
      hooks.afterPage?.();
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * Whether a promise is already settled (or settles within this turn of the event loop). The check
 * that waits for the next turn holds nothing of the promise: the parts of one huge page come without
 * a turn in between, and a check that held each part's promise would hold every part's messages.
 */
function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(settled, settled), nextTurn().then(unsettled)]);
}

const settled = (): boolean => true;
const unsettled = (): boolean => false;
