import type { CheckedMessage } from "../core/message.js";
import type { Tagged } from "../service/fan-out.js";

/**
 * What every listing renderer takes: the selected messages (or, for JSON of whole messages, each with
 * its text), a page's worth at a time, as they arrive.
 */
export type Chunks<M = CheckedMessage> = AsyncIterable<readonly M[]>;

/** How a renderer reads its rows: each a message, or (several campaigns merged) a message with its campaign. */
export interface Rows<R> {
  messageOf: (row: R) => CheckedMessage;
  /** The campaign a row was listed under, for the campaign column; only in a merge of several. */
  campaignOf?: (row: R) => string;
}

export const MESSAGE_ROWS: Rows<CheckedMessage> = { messageOf: (message) => message };

export const TAGGED_ROWS: Rows<Tagged<CheckedMessage>> = {
  messageOf: (row) => row.item,
  campaignOf: (row) => row.campaignId,
};
