import type { CheckedMessage } from "../core/message.js";

/**
 * What every listing renderer takes: the selected messages (or, for JSON of whole messages, each with
 * its text), a page's worth at a time, as they arrive.
 */
export type Chunks<M = CheckedMessage> = AsyncIterable<readonly M[]>;
