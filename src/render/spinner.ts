// Progress for a person on stderr while pages load: only when stderr is a terminal, never on stdout.
import type { Writable } from "node:stream";

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const silent: Progress = { update: () => undefined, stop: () => undefined };

/** `wanted` lets a command stay quiet even on a terminal, e.g. while a pipe's reader prints to the same screen. */
export async function startProgress(ctx: { stderr: Writable; stderrIsTTY: boolean; color: boolean }, text: string, wanted = true): Promise<Progress> {
  if (!ctx.stderrIsTTY || !wanted) return silent;
  // ora divides by the terminal's width: a terminal reporting 0 columns would spin it forever.
  if ((ctx.stderr as { columns?: number }).columns === 0) return silent;
  const { default: ora } = await import("ora");
  // discardStdin off: ora would otherwise take over stdin and swallow the Ctrl-C that should stop us.
  const spinner = ora({ text, stream: ctx.stderr as NodeJS.WritableStream, isEnabled: true, discardStdin: false, color: "cyan", isSilent: false }).start();
  let stopped = false;
  return {
    update: (next) => {
      if (!stopped) spinner.text = next;
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      spinner.stop();
    },
  };
}
