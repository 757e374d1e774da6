// --fields: dotted paths into a message (`values.name`, `batches.0.originalFileName`,
// `messageAttempts.-1.status` for the last) and a few derived fields, compiled once into getters.
import { UsageError } from "../errors.js";
import type { CheckedMessage } from "../api/schemas.js";
import { instantOf } from "../listing/time.js";

type Getter = (message: CheckedMessage) => unknown;

export interface Field {
  name: string;
  get: Getter;
}

const TEMPLATE_BODY = ["id", "templateId", "language", "body", "creatorId", "createdAt", "updatedAt"];
const BATCH_MESSAGE = ["id", "batchId", "messageId", "createdAt", "updatedAt"];
const BATCH = ["id", "originalFileName", "status", "campaignId", "creatorId", "totalMessages", "createdAt", "updatedAt", "BatchMessage"];
const MESSAGE_ATTEMPT = ["id", "messageId", "status", "sentAt", "deliveredAt", "createdAt", "updatedAt", "externalAttemptId", "errorType", "errorCode", "metadata", "creatorId", "creator"];
const ATTEMPT_SUMMARY = ["status", "createdAt", "error"];

/** Fields of a message as the reference lists them, with what may follow each in a dotted path. */
const MESSAGE_FIELDS: Record<string, "leaf" | "map" | { list?: string[]; object?: string[] }> = {
  id: "leaf",
  createdAt: "leaf",
  updatedAt: "leaf",
  recipient: "leaf",
  values: "map",
  fullMessage: "leaf",
  latestStatus: "leaf",
  templateBodyId: "leaf",
  campaignId: "leaf",
  templateBody: { object: TEMPLATE_BODY },
  batches: { list: BATCH },
  messageAttempts: { list: MESSAGE_ATTEMPT },
  attempts: { list: ATTEMPT_SUMMARY },
  language: "leaf",
  batchId: "leaf",
  creatorEmail: "leaf",
  numAttempts: "leaf",
};

interface AttemptView {
  status?: string;
  at?: string;
  errorType?: string;
  errorCode?: string;
}

interface RankedAttempt {
  view: AttemptView;
  at: number;
  /** Order among attempts of the same instant: the reference lists attempts oldest first, summaries newest first. */
  rank: number;
}

/** Attempts of either shape (listing `messageAttempts` or single-message `attempts`), in the server's order. */
function rankedAttempts(message: CheckedMessage): RankedAttempt[] {
  const ranked: RankedAttempt[] = [];
  const add = (view: AttemptView, rank: number) => ranked.push({ view, at: instantOf(view.at) ?? Number.NEGATIVE_INFINITY, rank });
  message.messageAttempts?.forEach((a, i) => add({ status: a.status, at: a.createdAt, errorType: a.errorType ?? undefined, errorCode: a.errorCode ?? undefined }, -i));
  message.attempts?.forEach((a, i) => add({ status: a.status, at: a.createdAt, errorType: a.error?.type, errorCode: a.error?.code }, i));
  return ranked;
}

// The order of attempts is not promised: time decides, and the server's order breaks ties.
const newerFirst = (a: RankedAttempt, b: RankedAttempt) => b.at - a.at || a.rank - b.rank;

/** Attempts of either shape, newest first. */
export function attemptsOf(message: CheckedMessage): AttemptView[] {
  return rankedAttempts(message).sort(newerFirst).map(({ view }) => view);
}

/** The newest attempt that passes `keep`, by a linear scan: this runs for every message of an export. */
function newest(message: CheckedMessage, keep: (attempt: AttemptView) => boolean): AttemptView | undefined {
  let best: RankedAttempt | undefined;
  for (const attempt of rankedAttempts(message)) {
    if (keep(attempt.view) && (best === undefined || newerFirst(attempt, best) < 0)) best = attempt;
  }
  return best?.view;
}

const failed = (attempt: AttemptView) => attempt.errorType !== undefined || attempt.errorCode !== undefined;
const any = () => true;
const latestFailed = (message: CheckedMessage) => newest(message, failed);

export const DERIVED_FIELDS: Record<string, { describe: string; get: Getter }> = {
  attemptCount: { describe: "number of attempts (numAttempts, or the attempts listed)", get: (m) => m.numAttempts ?? m.messageAttempts?.length ?? m.attempts?.length },
  lastAttemptStatus: { describe: "status of the newest attempt", get: (m) => newest(m, any)?.status },
  lastAttemptAt: { describe: "createdAt of the newest attempt", get: (m) => newest(m, any)?.at },
  lastErrorType: { describe: "errorType of the newest failed attempt", get: (m) => latestFailed(m)?.errorType },
  lastErrorCode: { describe: "errorCode of the newest failed attempt", get: (m) => latestFailed(m)?.errorCode },
  batchFile: { describe: "originalFileName of the message's first batch", get: (m) => m.batches?.[0]?.originalFileName },
};

function isIndex(segment: string): boolean {
  return /^-?\d+$/.test(segment);
}

/** Why a dotted path is not a field of a message, or undefined when it is one. */
function problemWith(path: string[]): string | undefined {
  const [head, ...rest] = path;
  if (head === undefined || head === "") return "empty field name";
  if (head in DERIVED_FIELDS) return rest.length === 0 ? undefined : `${head} has no sub-fields`;
  const kind = MESSAGE_FIELDS[head];
  if (kind === undefined) return `unknown field "${head}"`;
  if (rest.length === 0 || kind === "map") return undefined;
  if (kind === "leaf") return `${head} has no sub-fields`;
  let tail = rest;
  if (kind.list) {
    if (!isIndex(tail[0]!)) return `${head} is a list: name an index, as in ${head}.0.${kind.list[0]} (or -1 for the last)`;
    tail = tail.slice(1);
    if (tail.length === 0) return undefined;
  }
  const allowed = kind.list ?? kind.object ?? [];
  const sub = tail[0]!;
  if (!allowed.includes(sub)) return `unknown field "${sub}" in ${head} (known: ${allowed.join(", ")})`;
  if (sub === "BatchMessage" && tail[1] !== undefined && !BATCH_MESSAGE.includes(tail[1])) return `unknown field "${tail[1]}" in BatchMessage`;
  return undefined;
}

function pathGetter(path: string[]): Getter {
  return (message) => {
    let value: unknown = message;
    for (const segment of path) {
      if (value === null || typeof value !== "object") return undefined;
      if (Array.isArray(value) && isIndex(segment)) {
        const index = Number(segment);
        value = value[index < 0 ? value.length + index : index];
      } else {
        value = (value as Record<string, unknown>)[segment];
      }
    }
    return value;
  };
}

/** Words joined into lines of at most `width` characters, for help text. */
function wrap(text: string, width: number, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

export function fieldHelp(): string {
  const plain = `Fields (--fields): ${Object.keys(MESSAGE_FIELDS).join(", ")}; dotted paths into them (values.<name>, templateBody.body, batches.0.originalFileName, messageAttempts.-1.errorCode, where -1 is the last).`;
  const derived = Object.entries(DERIVED_FIELDS).map(([name, { describe }]) => `  ${name}: ${describe}`).join("\n");
  return `${wrap(plain, 96, "  ")}\nDerived fields:\n${derived}`;
}

/** Compiles a --fields list; an unknown name is a usage error that lists the valid ones. */
export function compileFields(names: readonly string[], context: { batchId?: string } = {}): Field[] {
  return names.map((name) => {
    const path = name.split(".");
    const problem = problemWith(path);
    if (problem) throw new UsageError(`--fields: ${problem}`).withHint(fieldHelp());
    const derived = DERIVED_FIELDS[name];
    if (derived) return { name, get: derived.get };
    // Batch listings omit batchId: the listing itself says which batch the message is in.
    if (name === "batchId") return { name, get: (m) => m.batchId ?? m.batches?.[0]?.id ?? context.batchId };
    return { name, get: pathGetter(path) };
  });
}

export const DEFAULT_CSV_FIELDS = ["id", "recipient", "latestStatus", "createdAt", "attemptCount", "lastErrorType", "lastErrorCode", "batchId", "fullMessage"];
