// The text ids of each kind have in the sandbox (cmp-spring-sale, msg-spring-0001715, bat-spring-w1).
// The reference does not say what ids look like, so a match is a guess, used only to word a hint.
const SHAPES = { campaignId: /^cmp[-_]/i, messageId: /^msg[-_]/i, batchId: /^bat[-_]/i } as const;

export type IdKind = keyof typeof SHAPES;

export function looksLike(kind: IdKind, id: string): boolean {
  return SHAPES[kind].test(id);
}
