// Options of `msgstat message`, combined into one typed object before anything is sent.
import { UsageError } from "../../core/errors.js";
import { formatFor, type FileFormats } from "../shared/output-file.js";
import type { MessageFlags } from "./flags.js";

export interface MessageOptions {
  /** `view`: the message laid out for a person; `json`: exactly as the service sent it. */
  format: "view" | "json";
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
  /** --wait: poll until the message is final. */
  wait?: { everyMs: number; timeoutMs: number };
}

export const DEFAULT_WAIT = { everyMs: 2_000, timeoutMs: 10 * 60_000 };

// The view is plain text in a file: a .txt file, or a name without an extension.
const MESSAGE_FILES: FileFormats<MessageOptions["format"]> = {
  types: { ".txt": "view", ".json": "json" },
  fallback: "view",
  advice: "Rename it (.txt for the view), or add --json: any name then works.",
};

export function parseMessageOptions(raw: MessageFlags): MessageOptions {
  const format = formatFor<MessageOptions["format"]>(
    raw.output,
    raw.json ? { format: "json", flag: "--json" } : undefined,
    MESSAGE_FILES,
  );
  if (!raw.wait && (raw.every !== undefined || raw.waitTimeout !== undefined)) {
    throw new UsageError(
      `${raw.every !== undefined ? "--every" : "--wait-timeout"} goes with --wait: add --wait to poll ` +
        `until the message is final`,
    );
  }
  const wait = raw.wait
    ? { everyMs: raw.every ?? DEFAULT_WAIT.everyMs, timeoutMs: raw.waitTimeout ?? DEFAULT_WAIT.timeoutMs }
    : undefined;
  return { format, outputFile: raw.output, wait };
}
