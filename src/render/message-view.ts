// `msgstat message`: one message's whole story for a person, every server string made inert first.
import { attemptsOf } from "../core/attempts.js";
import { BATCH, MESSAGE, read, readObjects, TEMPLATE_BODY, type CheckedMessage } from "../core/message.js";
import { blockSafe, inlineSafe } from "../core/text.js";
import { relativeTime, type Palette } from "./palette.js";
import type { Sink } from "./sink.js";

export interface MessageViewOptions {
  palette: Palette;
  tty: boolean;
  now: number;
}

function indent(text: string, by = "  "): string {
  return text.split("\n").map((line) => by + line).join("\n");
}

type TextField = "latestStatus" | "recipient" | "campaignId" | "createdAt" | "updatedAt" | "language" | "templateBodyId" | "creatorEmail" | "fullMessage";

export function formatMessage(message: CheckedMessage, options: MessageViewOptions): string {
  const { palette, tty, now } = options;
  const field = (name: TextField) => read(MESSAGE, message, name);
  const when = (timestamp: string | undefined) => {
    if (timestamp === undefined) return "-";
    const relative = tty ? relativeTime(timestamp, now) : "";
    return inlineSafe(timestamp) + (relative ? palette.dim(` (${relative})`) : "");
  };
  const status = inlineSafe(field("latestStatus") || "unknown");
  const template = read(MESSAGE, message, "templateBody");
  const templateBody = read(TEMPLATE_BODY, template, "body");
  const templateId = read(TEMPLATE_BODY, template, "templateId");
  const lines: string[] = [];
  lines.push(`${palette.bold(`Message ${inlineSafe(message.id)}`)}  ${palette.status(status, `● ${status}`)}`);
  const facts: Array<[string, string]> = [
    ["Recipient", inlineSafe(field("recipient") ?? "")],
    ["Campaign", inlineSafe(field("campaignId") ?? "")],
    ["Batches", batchesLine(message)],
    ["Created", when(field("createdAt"))],
    ["Updated", when(field("updatedAt"))],
    ["Language", inlineSafe(field("language") ?? "")],
    ["Template", inlineSafe([read(TEMPLATE_BODY, template, "id") ?? field("templateBodyId") ?? "", templateId ? `of template ${templateId}` : ""].filter(Boolean).join(" "))],
    ["Created by", inlineSafe(field("creatorEmail") ?? "")],
  ];
  for (const [label, value] of facts) if (value !== "") lines.push(`  ${palette.dim(label.padEnd(11))}${value}`);
  if (templateBody !== undefined) lines.push("", palette.heading("Template body"), indent(blockSafe(templateBody)));
  // Placeholder values are strings in the reference; another kind is shown as JSON rather than hidden.
  const values = Object.entries(read(MESSAGE, message, "values") ?? {});
  if (values.length > 0) {
    let width = 0;
    for (const [name] of values) width = Math.max(width, Math.min(24, inlineSafe(name).length));
    lines.push("", palette.heading("Values"));
    for (const [name, value] of values) lines.push(`  ${palette.dim(inlineSafe(name).padEnd(width))}  ${inlineSafe(typeof value === "string" ? value : JSON.stringify(value) ?? "")}`);
  }
  const fullMessage = field("fullMessage");
  if (fullMessage !== undefined) lines.push("", palette.heading("Message sent"), indent(blockSafe(fullMessage)));
  const attempts = attemptsOf(message);
  lines.push("", palette.heading(`Attempts (${attempts.length}${attempts.length > 1 ? ", newest first" : ""})`));
  if (attempts.length === 0) lines.push("  none");
  for (const attempt of attempts) {
    const state = inlineSafe(attempt.status ?? "unknown");
    const error = [attempt.errorType, attempt.errorCode].filter(Boolean).map((part) => inlineSafe(part!)).join(" / ");
    // Padded only when an error follows, so no line ends in spaces.
    lines.push(`  ${when(attempt.at)}  ${palette.status(state, error ? state.padEnd(8) : state)}${error ? `  ${error}` : ""}`);
  }
  return lines.join("\n") + "\n";
}

function batchesLine(message: CheckedMessage): string {
  const batches = readObjects(MESSAGE, message, "batches");
  const batchId = read(MESSAGE, message, "batchId");
  if (batches.length === 0) return batchId ? inlineSafe(batchId) : "none";
  return batches
    .map((batch) => {
      const id = read(BATCH, batch, "id") ?? "?";
      const file = read(BATCH, batch, "originalFileName");
      return inlineSafe(file ? `${file} (${id})` : id);
    })
    .join(", ");
}

export async function renderMessage(message: CheckedMessage, sink: Sink, options: MessageViewOptions): Promise<void> {
  await sink.write(formatMessage(message, options));
}
