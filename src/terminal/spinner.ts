// Progress for a person on stderr while pages load: only when stderr is a terminal, never on stdout.
// A spinner (ora) on a terminal that can redraw a line, coloured only when colour is wanted there; on
// a dumb terminal (TERM=dumb), which cannot, a plain line now and then instead, timed by the injected
// clock so nothing waits on a timer.
import type { Writable } from "node:stream";

export interface Progress {
  update(text: string): void;
  /** Off the line while rows are written to the same terminal; `resume` puts it back. */
  pause(): void;
  resume(): void;
  stop(): void;
}

export interface ProgressContext {
  stderr: Writable;
  stderrIsTTY: boolean;
  /** Colour wanted on stderr (neither NO_COLOR nor --no-color, see commands/context.ts). */
  stderrColor: boolean;
  env: Record<string, string | undefined>;
  now: () => number;
  /** --quiet: no progress at all. */
  quiet?: boolean;
}

/** A dumb terminal gets a progress line at most this often. */
export const PLAIN_PROGRESS_EVERY_MS = 5_000;

// The spinner drawn on each stream now, if any: a line anyone else writes there (a warning, the
// --verbose log) takes it off its line first and puts it back after, or the two would share a line.
const drawnOn = new WeakMap<Writable, { readonly isSpinning: boolean; stop(): unknown; start(): unknown }>();

/** Writes whole lines to a stream, around any spinner drawn on it. */
export function writeAroundProgress(stream: Writable, text: string): void {
  const drawn = drawnOn.get(stream);
  const spinning = drawn?.isSpinning === true;
  if (spinning) drawn.stop();
  stream.write(text);
  if (spinning) drawn.start();
}

const silent: Progress = {
  update: () => undefined,
  pause: () => undefined,
  resume: () => undefined,
  stop: () => undefined,
};

/** `wanted` lets a command stay quiet even on a terminal, e.g. while a pipe's reader prints to the same screen. */
export async function startProgress(ctx: ProgressContext, text: string, wanted = true): Promise<Progress> {
  if (!ctx.stderrIsTTY || !wanted || ctx.quiet === true) return silent;
  if (ctx.env.TERM === "dumb") return plainProgress(ctx);
  // ora divides by the terminal's width: a terminal reporting 0 columns would spin it forever.
  if ((ctx.stderr as { columns?: number }).columns === 0) return silent;
  const { default: ora } = await import("ora");
  // discardStdin off: ora would otherwise take over stdin and swallow the Ctrl-C that should stop us.
  // ora's own colour follows the process's stderr, not the one msgstat was given: it is off, and the
  // frames are coloured here when colour is wanted.
  const spinner = ora({
    text,
    stream: ctx.stderr,
    isEnabled: true,
    discardStdin: false,
    color: false,
    isSilent: false,
  });
  if (ctx.stderrColor) {
    const { Chalk } = await import("chalk");
    const cyan = new Chalk({ level: 1 }).cyan;
    spinner.spinner = { interval: spinner.interval, frames: spinner.spinner.frames.map((frame) => cyan(frame)) };
  }
  spinner.start();
  drawnOn.set(ctx.stderr, spinner);
  let stopped = false;
  return {
    update: (next) => {
      if (stopped) return;
      spinner.text = next;
      // Shown at once, not at the next frame: a page's news should not wait for the animation.
      if (spinner.isSpinning) spinner.render();
    },
    pause: () => {
      if (!stopped) spinner.stop();
    },
    resume: () => {
      if (!stopped) spinner.start();
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      spinner.stop();
      drawnOn.delete(ctx.stderr);
    },
  };
}

/** No animation and no cursor movement: a whole line, once the last one is a few seconds old. */
function plainProgress(ctx: ProgressContext): Progress {
  let last = ctx.now();
  let stopped = false;
  return {
    update: (text) => {
      const now = ctx.now();
      if (stopped || now - last < PLAIN_PROGRESS_EVERY_MS) return;
      last = now;
      ctx.stderr.write(`${text}\n`);
    },
    pause: () => undefined,
    resume: () => undefined,
    stop: () => {
      stopped = true;
    },
  };
}
