// Time for the live modes (waiting, following, watching): what "now" is and how to wait. Injected, so
// a test can run a live campaign on a virtual clock that a sleep advances at once, and no test waits
// for real time to pass.

export interface Timer {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export const systemTimer: Timer = { now: () => Date.now(), sleep };

/**
 * Resolves in the next turn of the event loop, once pending I/O has had its callbacks. Work that runs
 * as one chain of promises (a page parsed and rendered, a merge) never lets Node's own callbacks in
 * without it: Node's http client hands a request its socket in a process.nextTick callback, which runs
 * only once the microtask queue is empty, and sockets are read only between turns.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
