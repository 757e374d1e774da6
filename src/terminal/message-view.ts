// `msgstat message`: one message's whole story for a person, every server string made inert first,
// times in --tz, and on a terminal every long line wrapped to its width with a hanging indent, so the
// template, the text and the attempts' errors stay readable and aligned.
import { attemptsOf } from "../core/attempts.js";
import { BATCH, MESSAGE, read, readObjects, TEMPLATE_BODY, type CheckedMessage } from "../core/message.js";
import { stringifyAtAnyDepth } from "../core/json-stringify.js";
import { blockSafe, inlineSafe } from "../core/text.js";
import { displayWidth, padEnd } from "./width.js";
import { instantOf, timestampInZone, type TimeZone } from "../core/time.js";
import { relativeTime, type Palette } from "./palette.js";
import type { Sink } from "../output/sink.js";
import { hanging, wrapText } from "./wrap.js";

export interface MessageViewOptions {
  palette: Palette;
  tty: boolean;
  now: number;
  timeZone: TimeZone;
  /** Lines are wrapped to this many cells; Infinity (piped, or to a file) wraps nothing. */
  width: number;
}

const INDENT = "  ";
const LABEL_WIDTH = 11;
/** An attempt's error wraps under itself unless that leaves it less than this; then under the time. */
const MIN_HANGING_ROOM = 20;

type TextField =
  | "latestStatus"
  | "recipient"
  | "campaignId"
  | "createdAt"
  | "updatedAt"
  | "language"
  | "templateBodyId"
  | "creatorEmail"
  | "fullMessage";

export function formatMessage(message: CheckedMessage, options: MessageViewOptions): string {
  const { palette, tty, now, timeZone: zone, width } = options;
  const field = (name: TextField) => read(MESSAGE, message, name);
  /** `2026-11-22 03:36:42 Europe/Paris (3 hours ago)`: the zone once per fact, the age on a terminal. */
  const when = (timestamp: string | undefined) => {
    if (timestamp === undefined) return "";
    const readable = instantOf(timestamp) !== undefined;
    const relative = tty && readable ? relativeTime(timestamp, now) : "";
    const shown = inlineSafe(timestampInZone(timestamp, zone, "second"));
    return `${shown}${readable ? ` ${zone.name}` : ""}${relative ? palette.dim(` (${relative})`) : ""}`;
  };
  const block = (text: string) => hanging(wrapText(blockSafe(text), width - INDENT.length), INDENT, INDENT);
  const status = inlineSafe(field("latestStatus") || "unknown");
  const template = read(MESSAGE, message, "templateBody");
  const templateBody = read(TEMPLATE_BODY, template, "body");
  const templateId = read(TEMPLATE_BODY, template, "templateId");
  const lines: string[] = [];
  lines.push(`${palette.bold(`Message ${inlineSafe(message.id)}`)}  ${palette.status(status, `● ${status}`)}`);
  const batches = batchesOf(message);
  // What people copy into the next command is never cut by the wrap: it overflows a narrow terminal instead.
  const whole = () => true;
  const batchIds = new Set(batches.map((batch) => batch.id));
  const facts: Array<[string, string, ((word: string) => boolean)?]> = [
    ["Recipient", inlineSafe(field("recipient") ?? ""), whole],
    ["Campaign", inlineSafe(field("campaignId") ?? ""), whole],
    ["Batches", batchesLine(batches), (word) => batchIds.has(word) || batchIds.has(word.replace(/,$/, ""))],
    ["Created", when(field("createdAt"))],
    ["Updated", when(field("updatedAt"))],
    ["Language", inlineSafe(field("language") ?? "")],
    [
      "Template",
      inlineSafe(
        [
          read(TEMPLATE_BODY, template, "id") ?? field("templateBodyId") ?? "",
          templateId ? `of template ${templateId}` : "",
        ]
          .filter(Boolean)
          .join(" "),
      ),
      whole,
    ],
    ["Created by", inlineSafe(field("creatorEmail") ?? "")],
  ];
  const factIndent = " ".repeat(INDENT.length + LABEL_WIDTH);
  for (const [label, value, keepWhole] of facts) {
    // The colour of a fact's age is added after the wrap: styled text would be measured wrong.
    if (value !== "")
      lines.push(
        hanging(
          wrapStyled(value, width - factIndent.length, keepWhole),
          `${INDENT}${palette.dim(padEnd(label, LABEL_WIDTH))}`,
          factIndent,
        ),
      );
  }
  if (templateBody !== undefined) lines.push("", palette.heading("Template body"), block(templateBody));
  // Placeholder values are strings in the reference; another kind is shown as JSON rather than hidden.
  const values = Object.entries(read(MESSAGE, message, "values") ?? {});
  if (values.length > 0) {
    let nameWidth = 0;
    for (const [name] of values) nameWidth = Math.max(nameWidth, Math.min(24, displayWidth(inlineSafe(name))));
    const valueIndent = " ".repeat(INDENT.length + nameWidth + 2);
    lines.push("", palette.heading("Values"));
    for (const [name, value] of values) {
      const shown = inlineSafe(typeof value === "string" ? value : (stringifyAtAnyDepth(value) ?? ""));
      const label = inlineSafe(name);
      lines.push(
        hanging(
          wrapText(shown, width - valueIndent.length),
          `${INDENT}${padEnd(palette.dim(label), nameWidth)}  `,
          valueIndent,
        ),
      );
    }
  }
  const fullMessage = field("fullMessage");
  if (fullMessage !== undefined) lines.push("", palette.heading("Message sent"), block(fullMessage));
  const attempts = attemptsOf(message);
  lines.push("", palette.heading(`Attempts (${attempts.length}${attempts.length > 1 ? ", newest first" : ""})`));
  if (attempts.length === 0) lines.push(`${INDENT}none`);
  for (const attempt of attempts) {
    const time = attempt.at === undefined ? "" : inlineSafe(timestampInZone(attempt.at, zone, "second"));
    const state = inlineSafe(attempt.status ?? "unknown");
    const error = [attempt.errorType, attempt.errorCode]
      .filter(Boolean)
      .map((part) => inlineSafe(part!))
      .join(" / ");
    // Padded only when an error follows, so no line ends in spaces.
    const head = `${INDENT}${time}${time ? "  " : ""}${palette.status(state, error ? padEnd(state, 8) : state)}`;
    if (!error) {
      lines.push(head);
      continue;
    }
    const errorColumn = INDENT.length + displayWidth(time) + (time ? 2 : 0) + Math.max(8, displayWidth(state)) + 2;
    const indent = " ".repeat(width - errorColumn >= MIN_HANGING_ROOM ? errorColumn : INDENT.length * 2);
    lines.push(hanging(wrapText(error, width - errorColumn, width - indent.length), `${head}  `, indent));
  }
  return lines.join("\n") + "\n";
}

/** Wraps text that may end in a styled part (the dim age of a time), measuring it without the styles. */
function wrapStyled(value: string, width: number, keepWhole?: (word: string) => boolean): string[] {
  // Only msgstat's own colour codes can be here: server text was made inert before.
  const plain = value.replace(/\u001b\[[0-9;]*m/g, "");
  return displayWidth(plain) <= width ? [value] : wrapText(plain, width, width, keepWhole);
}

/** The message's batches, each id and file name as shown (made inert); from batchId alone when only it is sent. */
function batchesOf(message: CheckedMessage): Array<{ id: string; file?: string }> {
  const batches = readObjects(MESSAGE, message, "batches");
  if (batches.length === 0) {
    const batchId = read(MESSAGE, message, "batchId");
    return batchId ? [{ id: inlineSafe(batchId) }] : [];
  }
  return batches.map((batch) => {
    const file = read(BATCH, batch, "originalFileName");
    return { id: inlineSafe(read(BATCH, batch, "id") ?? "?"), file: file ? inlineSafe(file) : undefined };
  });
}

function batchesLine(batches: ReadonlyArray<{ id: string; file?: string }>): string {
  if (batches.length === 0) return "none";
  // The id first: it is what is copied into `msgstat batch`.
  return batches.map(({ id, file }) => (file ? `${id} (${file})` : id)).join(", ");
}

export async function renderMessage(message: CheckedMessage, sink: Sink, options: MessageViewOptions): Promise<void> {
  await sink.write(formatMessage(message, options));
}
