// Waiting for a state (a request to arrive, a count to reach a number), never for a length of time.

/** Resolves once `condition()` holds, checking every `everyMs`; fails after `limitMs` with what it waited for. */
export async function waitFor(
  condition: () => boolean,
  what = "the condition",
  limitMs = 20_000,
  everyMs = 10,
): Promise<void> {
  const until = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
