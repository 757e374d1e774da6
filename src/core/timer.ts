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
 * Resolves in a later turn of the event loop (setImmediate): after the pending process.nextTick
 * callbacks and promises, and the I/O callbacks of the current turn. Work that runs as one chain of
 * promises (a merge, a page rendered) lets sockets be read only when it takes such a turn.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
