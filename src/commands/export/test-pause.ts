// A test hook, read only by `msgstat export`: MSGSTAT_EXPORT_TEST_PAUSE=<step> makes the run print
// "msgstat export: paused at <step>" on stderr when it reaches that step, then wait for ever, so a
// test can SIGKILL it exactly there (test/e2e/export-kill.test.ts), with no timing involved.
export const PAUSE_STEPS = ["fetching", "spilling", "encoded", "between-renames", "before-manifest"] as const;
export type PauseStep = (typeof PAUSE_STEPS)[number];

export function pauseFor(env: Record<string, string | undefined>, stderr: NodeJS.WritableStream) {
  const wanted = env.MSGSTAT_EXPORT_TEST_PAUSE;
  let paused = false;
  return async (step: PauseStep): Promise<void> => {
    if (wanted !== step || paused) return;
    paused = true;
    stderr.write(`msgstat export: paused at ${step}\n`);
    // A timer keeps the process alive until the test kills it.
    await new Promise(() => setInterval(() => undefined, 60_000));
  };
}
