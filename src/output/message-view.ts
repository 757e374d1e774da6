// `msgstat message`: one message's whole story for a person, every server string made inert first.
import type { CheckedMessage } from "../api/schemas.js";
import { attemptsOf } from "./fields.js";
import { relativeTime, type Palette } from "./palette.js";
import { blockSafe, inlineSafe } from "./sanitize.js";
import type { Sink } from "./sink.js";

export interface MessageViewOptions {
  palette: Palette;
  tty: boolean;
  now: number;
}

function indent(text: string, by = "  "): string {
  return text.split("\n").map((line) => by + line).join("\n");
}

function str(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function formatMessage(message: CheckedMessage, options: MessageViewOptions): string {
  const { palette, tty, now } = options;
  const when = (timestamp: string | undefined) => {
    if (timestamp === undefined) return "-";
    const relative = tty ? relativeTime(timestamp, now) : "";
    return inlineSafe(timestamp) + (relative ? palette.dim(` (${relative})`) : "");
  };
  const status = inlineSafe(str(message.latestStatus) || "unknown");
  const record = message as Record<string, unknown>;
  const template = message.templateBody as Record<string, unknown> | undefined;
  const lines: string[] = [];
  lines.push(`${palette.bold(`Message ${inlineSafe(message.id)}`)}  ${palette.status(status, `● ${status}`)}`);
  const facts: Array<[string, string]> = [
    ["Recipient", inlineSafe(str(message.recipient))],
    ["Campaign", inlineSafe(str(message.campaignId))],
    ["Batches", batchesLine(message)],
    ["Created", when(message.createdAt)],
    ["Updated", when(message.updatedAt)],
    ["Language", inlineSafe(str(record.language))],
    ["Template", inlineSafe([str(message.templateBody ? template?.id : record.templateBodyId), template?.templateId ? `of template ${str(template.templateId)}` : ""].filter(Boolean).join(" "))],
    ["Created by", inlineSafe(str(record.creatorEmail))],
  ];
  for (const [label, value] of facts) if (value !== "") lines.push(`  ${palette.dim(label.padEnd(11))}${value}`);
  if (typeof message.templateBody?.body === "string") {
    lines.push("", palette.heading("Template body"), indent(blockSafe(message.templateBody.body)));
  }
  const values = Object.entries(message.values ?? {});
  if (values.length > 0) {
    const width = Math.min(24, Math.max(...values.map(([name]) => inlineSafe(name).length)));
    lines.push("", palette.heading("Values"));
    for (const [name, value] of values) lines.push(`  ${palette.dim(inlineSafe(name).padEnd(width))}  ${inlineSafe(str(value))}`);
  }
  if (message.fullMessage !== undefined) lines.push("", palette.heading("Message sent"), indent(blockSafe(message.fullMessage)));
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
  const batches = message.batches ?? [];
  if (batches.length === 0) return message.batchId ? inlineSafe(message.batchId) : "none";
  return batches.map((batch) => inlineSafe(batch.originalFileName ? `${batch.originalFileName} (${batch.id})` : batch.id)).join(", ");
}

export async function renderMessage(message: CheckedMessage, sink: Sink, options: MessageViewOptions): Promise<void> {
  await sink.write(formatMessage(message, options));
}
