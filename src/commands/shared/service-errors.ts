// What to try after the service said no: the HTTP layer raises typed errors, this layer says, in the
// terms of the command that was run, what was not found or refused and what to check.
import { ServiceError, UsageError } from "../../core/errors.js";
import { inlineSafe, shellWord } from "../../core/text.js";
import { looksLike, type IdKind } from "./id-shapes.js";

export interface Target {
  campaignId: string;
  batchId?: string;
  messageId?: string;
}

/** A 404: which id to check. Adds the hint to the error and returns it. */
export function explainNotFound<E>(error: E, target: Target): E {
  if (!(error instanceof ServiceError) || error.status !== 404) return error;
  const campaign = `campaign id ${shellWord(target.campaignId)}`;
  if (target.messageId !== undefined) {
    error.withHint(
      swapped("messageId", target.campaignId, target.messageId) ??
        `Check the message id ${shellWord(target.messageId)} and the ${campaign}: a message of another ` +
          `campaign is not found in this one.`,
    );
  } else if (target.batchId !== undefined) {
    error.withHint(
      swapped("batchId", target.campaignId, target.batchId) ??
        `Check the ${campaign} and the batch id ${shellWord(target.batchId)}: the batch must belong to ` +
          `that campaign (msgstat stats ${shellWord(target.campaignId)} shows each batch id in its By batch table).`,
    );
  } else {
    error.withHint(`Check the ${campaign} (ids are matched exactly, case included).`);
  }
  return error;
}

/**
 * Two ids that look given the wrong way round (id-shapes.ts guesses). For `message` the command the right
 * way round; a batch id also comes from stats --batch, so for a batch only which id goes where.
 */
function swapped(kind: IdKind, campaignId: string, id: string): string | undefined {
  if (!looksLike(kind, campaignId) || looksLike(kind, id)) return undefined;
  const [campaign, other] = [shellWord(id), shellWord(campaignId)];
  return kind === "messageId"
    ? `The ids look swapped: the campaign id comes first, msgstat message ${campaign} ${other}`
    : `The ids look swapped: ${campaign} looks like the campaign id and ${other} like the batch id.`;
}

/**
 * A 400 to the first request of a listing started from a person's cursor: the cursor is not one of
 * this listing's (another campaign, batch or --search, or not a cursor at all). That is a usage
 * error, not a failure of the service.
 */
export function explainRefusedCursor(
  error: unknown,
  cursor: { flag: "--after" | "--before"; value: string | undefined },
  firstPage: boolean,
): unknown {
  if (!(error instanceof ServiceError) || error.status !== 400 || cursor.value === undefined || !firstPage)
    return error;
  const said = error.serverMessage ? ` (the service said: ${inlineSafe(error.serverMessage)})` : "";
  return new UsageError(
    `the service refused ${cursor.flag} ${shellWord(cursor.value)} with HTTP 400${said}: the cursor ` +
      `does not belong to this listing or query`,
  ).withHint("Use a cursor msgstat printed for the same command: the same campaign, batch and --search.");
}
