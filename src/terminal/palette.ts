// Colours for people. chalk is loaded only when colour is on, so piped and JSON runs never pay for it.
import { durationText } from "../core/duration.js";
import { instantOf } from "../core/time.js";

// Functions as properties, not methods: they are passed around on their own (`.map(palette.heading)`).
export interface Palette {
  status: (status: string, text?: string) => string;
  heading: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
  bar: (status: string, text: string) => string;
}

const identity = (text: string) => text;
export const plainPalette: Palette = {
  status: (s, t) => t ?? s,
  heading: identity,
  dim: identity,
  bold: identity,
  bar: (_s, t) => t,
};

export async function loadPalette(color: boolean): Promise<Palette> {
  if (!color) return plainPalette;
  const { Chalk } = await import("chalk");
  const chalk = new Chalk({ level: 1 });
  const byStatus: Record<string, (text: string) => string> = {
    success: chalk.green,
    failure: chalk.red,
    created: chalk.yellow,
    sent: chalk.yellow,
  };
  // Statuses the reference does not list still get a colour of their own.
  const colour = (status: string) => byStatus[status] ?? chalk.magenta;
  return {
    status: (status, text) => colour(status)(text ?? status),
    heading: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
    bar: (status, text) => colour(status)(text),
  };
}

/** "3 h 5 min ago", for a reader at a terminal. */
export function relativeTime(timestamp: string | undefined, now: number): string {
  if (timestamp === undefined) return "";
  const at = instantOf(timestamp);
  if (at === undefined) return "";
  // Whole seconds: a timestamp a few milliseconds ahead of the clock is "0 s ago", not "in under 1 s".
  const seconds = Math.round((now - at) / 1000);
  const span = durationText(Math.abs(seconds) * 1000);
  return seconds >= 0 ? `${span} ago` : `in ${span}`;
}
