// The spinner shares stderr with warnings and the --verbose log: a line written there must not land
// on the spinner's own line.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { stderrLine } from "../../src/commands/stderr-line.js";
import { startProgress } from "../../src/terminal/spinner.js";

/** A terminal that records what is drawn, cursor moves and line erasing as markers. */
function terminal() {
  let written = "";
  const stream = Object.assign(new PassThrough(), {
    isTTY: true,
    columns: 80,
    cursorTo: (x: number) => ((written += `<col ${x}>`), true),
    clearLine: () => ((written += "<erase>"), true),
    moveCursor: () => true,
  });
  stream.on("data", (chunk: Buffer) => (written += chunk.toString()));
  return { stream, written: () => written };
}

const ctx = (stream: PassThrough) => ({ stderr: stream, stderrIsTTY: true, stderrColor: false, env: {}, now: () => 0 });
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** What `act` added to the terminal, once the stream has passed it on. */
async function added(written: () => string, act: () => void): Promise<string> {
  await flush();
  const before = written().length;
  act();
  await flush();
  return written().slice(before);
}

describe("lines written while the spinner spins", () => {
  it("take the spinner off its line first, then put it back under them", async () => {
    const { stream, written } = terminal();
    const progress = await startProgress(ctx(stream), "Loading messages…");
    await flush();
    expect(written()).toContain("Loading messages…");
    const after = await added(written, () =>
      stderrLine({ stderr: stream }, "", "GET http://127.0.0.1:9/campaigns/c/messages?limit=50 -> 200, 120 B (3 ms)"),
    );
    // Erased from column 0 (the cursor shown again), the whole line, then the spinner drawn again below it.
    expect(after).toMatch(
      /^<col 0><erase>(\u001b\[\?25h)?GET http:\/\/127\.0\.0\.1:9\/campaigns\/c\/messages\?limit=50 -> 200, 120 B \(3 ms\)\n.*Loading messages…/s,
    );
    progress.stop();
  });

  it("leave a paused spinner paused, and a stopped one gone", async () => {
    const { stream, written } = terminal();
    const progress = await startProgress(ctx(stream), "Loading messages…");
    progress.pause();
    expect(
      await added(written, () => stderrLine({ stderr: stream }, "warning: ", "left out 2 repeated messages")),
    ).toBe("warning: left out 2 repeated messages\n");
    progress.stop();
    expect(await added(written, () => stderrLine({ stderr: stream }, "", "done"))).toBe("done\n");
  });
});

describe("odd terminals", () => {
  it("no spinner on a terminal that reports no width (ora would spin forever)", async () => {
    const stderr = Object.assign(new PassThrough(), { columns: 0, isTTY: true });
    let written = "";
    stderr.on("data", (chunk: Buffer) => (written += chunk.toString()));
    const progress = await startProgress(
      { stderr, stderrIsTTY: true, stderrColor: false, env: {}, now: () => 0 },
      "Loading…",
    );
    progress.update("more");
    progress.stop();
    expect(written).toBe("");
  });
});
