// What a message's attempts say: the newest one, the newest failed one, how many there were. Attempts
// come in two shapes (listing `messageAttempts`, single-message `attempts`); both are read here, through
// the tolerant reads of the message shape, so an odd attempt is skipped rather than fatal.
import {
  ATTEMPT_SUMMARY,
  BATCH,
  isPlainObject,
  MESSAGE,
  MESSAGE_ATTEMPT,
  read,
  readObjects,
  type CheckedMessage,
} from "./message.js";
import { instantOf } from "./time.js";

/** One attempt, whichever shape it came in. */
export interface AttemptView {
  status?: string;
  at?: string;
  errorType?: string;
  errorCode?: string;
}

interface RankedAttempt {
  view: AttemptView;
  /** The instant it was made, read when first compared (most messages have one attempt: none is). */
  at?: number;
  /** Order among attempts of the same instant: the reference lists attempts oldest first, summaries newest first. */
  rank: number;
}

// Whether an attempt failed: it has an error, whatever its status says.
const failed = (errorType: string | undefined, errorCode: string | undefined) =>
  errorType !== undefined || errorCode !== undefined;

// With `failedOnly`, an attempt without an error is passed over before its other fields are read: most
// attempts have none, and each field read is a trip to memory (the newest failed attempt is asked for
// every row of an export).
function listedView(attempt: Readonly<Record<string, unknown>>, failedOnly = false): AttemptView | undefined {
  const errorType = read(MESSAGE_ATTEMPT, attempt, "errorType");
  const errorCode = read(MESSAGE_ATTEMPT, attempt, "errorCode");
  if (failedOnly && !failed(errorType, errorCode)) return undefined;
  return {
    status: read(MESSAGE_ATTEMPT, attempt, "status"),
    at: read(MESSAGE_ATTEMPT, attempt, "createdAt"),
    errorType,
    errorCode,
  };
}

function summaryView(attempt: Readonly<Record<string, unknown>>, failedOnly = false): AttemptView | undefined {
  const error = read(ATTEMPT_SUMMARY, attempt, "error");
  const errorType = typeof error?.type === "string" ? error.type : undefined;
  const errorCode = typeof error?.code === "string" ? error.code : undefined;
  if (failedOnly && !failed(errorType, errorCode)) return undefined;
  return {
    status: read(ATTEMPT_SUMMARY, attempt, "status"),
    at: read(ATTEMPT_SUMMARY, attempt, "createdAt"),
    errorType,
    errorCode,
  };
}

/** Attempts of either shape, in the server's order (elements that are not objects are skipped). */
function rankedAttempts(message: CheckedMessage): RankedAttempt[] {
  const ranked: RankedAttempt[] = [];
  readObjects(MESSAGE, message, "messageAttempts").forEach((attempt, i) =>
    ranked.push({ view: listedView(attempt)!, rank: -i }),
  );
  readObjects(MESSAGE, message, "attempts").forEach((attempt, i) =>
    ranked.push({ view: summaryView(attempt)!, rank: i }),
  );
  return ranked;
}

const instant = (attempt: RankedAttempt): number =>
  (attempt.at ??= instantOf(attempt.view.at) ?? Number.NEGATIVE_INFINITY);

// The order of attempts is not promised: time decides, and the server's order breaks ties.
const newerFirst = (a: RankedAttempt, b: RankedAttempt) => instant(b) - instant(a) || a.rank - b.rank;

/** Attempts of either shape, newest first. */
export function attemptsOf(message: CheckedMessage): AttemptView[] {
  return rankedAttempts(message)
    .sort(newerFirst)
    .map(({ view }) => view);
}

/**
 * The newest attempt (with `failedOnly`, the newest that failed), by a linear scan over both lists as
 * they are (no list of all attempts is built): this runs for every message of an export.
 */
function newest(message: CheckedMessage, failedOnly: boolean): AttemptView | undefined {
  let best: RankedAttempt | undefined;
  const consider = (view: AttemptView | undefined, rank: number) => {
    if (view === undefined) return;
    const candidate: RankedAttempt = { view, rank };
    if (best === undefined || newerFirst(candidate, best) < 0) best = candidate;
  };
  const listed = read(MESSAGE, message, "messageAttempts");
  if (listed !== undefined)
    for (let i = 0; i < listed.length; i++)
      if (isPlainObject(listed[i]))
        consider(listedView(listed[i] as Readonly<Record<string, unknown>>, failedOnly), -i);
  const summaries = read(MESSAGE, message, "attempts");
  if (summaries !== undefined)
    for (let i = 0; i < summaries.length; i++)
      if (isPlainObject(summaries[i]))
        consider(summaryView(summaries[i] as Readonly<Record<string, unknown>>, failedOnly), i);
  return best?.view;
}

/**
 * `answer`, remembering its last answer: a row asks about the same message once per column that shows
 * part of the answer (CSV: lastErrorType, then lastErrorCode). Known by identity: messages are never
 * changed once parsed, so the same object means the same answer.
 */
function lastAnswered<T>(answer: (message: CheckedMessage) => T): (message: CheckedMessage) => T {
  let asked: CheckedMessage | undefined;
  let last: T;
  return (message) => {
    if (message !== asked) {
      last = answer(message);
      asked = message;
    }
    return last;
  };
}

export const newestAttempt: (message: CheckedMessage) => AttemptView | undefined = lastAnswered((message) =>
  newest(message, false),
);

/** The newest attempt that failed: its error is why the message failed, even if a later one is still under way. */
export const newestFailedAttempt: (message: CheckedMessage) => AttemptView | undefined = lastAnswered((message) =>
  newest(message, true),
);

/** numAttempts, or the number of attempts listed; undefined when neither is there. */
export function attemptCount(message: CheckedMessage): number | undefined {
  const declared = read(MESSAGE, message, "numAttempts");
  if (declared !== undefined && declared >= 0) return declared;
  const listed = read(MESSAGE, message, "messageAttempts") ?? read(MESSAGE, message, "attempts");
  return listed?.length;
}

/** The batch a message is in: batchId, else the first of its batches, else (in a batch listing) that batch. */
export function batchIdOf(message: CheckedMessage, listedBatchId?: string): string | undefined {
  return read(MESSAGE, message, "batchId") ?? read(BATCH, firstBatch(message), "id") ?? listedBatchId;
}

/** originalFileName of the message's first batch. */
export function batchFileOf(message: CheckedMessage): string | undefined {
  return read(BATCH, firstBatch(message), "originalFileName");
}

/**
 * The first of a message's batches that is an object (as readObjects would give it, without the list),
 * remembered for the last message asked about: a row asks twice (its batch id, then its file's name).
 */
const firstBatch = lastAnswered((message: CheckedMessage): Readonly<Record<string, unknown>> | undefined => {
  const batches = read(MESSAGE, message, "batches");
  return batches?.find(isPlainObject);
});
