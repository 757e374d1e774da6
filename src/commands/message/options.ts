// Options of `msgstat message`, combined into one typed object before anything is sent.
import type { MessageFlags } from "./flags.js";

export interface MessageOptions {
  /** `view`: the message laid out for a person; `json`: exactly as the service sent it. */
  format: "view" | "json";
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
}

export function parseMessageOptions(raw: MessageFlags): MessageOptions {
  return { format: raw.json ? "json" : "view", outputFile: raw.output };
}
