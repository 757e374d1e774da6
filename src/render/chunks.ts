import type { CheckedMessage } from "../core/message.js";

/** What every listing renderer takes: the selected messages, a page's worth at a time, as they arrive. */
export type Chunks = AsyncIterable<readonly CheckedMessage[]>;
