// Options of `msgstat message`, combined into one typed object before anything is sent.
import { formatFor } from "../shared/output-file.js";
import type { MessageFlags } from "./flags.js";

export interface MessageOptions {
  /** `view`: the message laid out for a person; `json`: exactly as the service sent it. */
  format: "view" | "json";
  /** -o: the file to write (atomically) instead of stdout. */
  outputFile?: string;
}

export function parseMessageOptions(raw: MessageFlags): MessageOptions {
  const format = formatFor<MessageOptions["format"]>(raw.output, raw.json ? { format: "json", flag: "--json" } : undefined, ["json"], "view");
  return { format, outputFile: raw.output };
}
