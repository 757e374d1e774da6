// The message view (src/terminal/message-view.ts) wraps by the cells a terminal draws: emoji ZWJ sequences,
// flags, CJK and combining marks take what they show, so lines fill the width and labels line up.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { formatMessage } from "../../src/terminal/message-view.js";
import { plainPalette } from "../../src/terminal/palette.js";

const UTC = TimeZone.named("UTC")!;
const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 👨‍👩‍👧‍👦, two cells
const RAINBOW_FLAG = "\u{1F3F3}\uFE0F\u200D\u{1F308}"; // 🏳️‍🌈, two cells

const view = (message: CheckedMessage, width: number) =>
  formatMessage(message, { palette: plainPalette, tty: true, now: 0, timeZone: UTC, width });

describe("the message view", () => {
  it("fits the sandbox's emoji on the line a terminal has room for", () => {
    const text = view(
      {
        id: "m1",
        latestStatus: "success",
        values: { 名前: "田中", first_name: `Party \u{1F389} ${FAMILY} ${RAINBOW_FLAG}` },
        fullMessage: `Hi Party \u{1F389} ${FAMILY} ${RAINBOW_FLAG}, your order shipped.`,
      },
      40,
    );
    expect(text.split("\n")).toEqual([
      "Message m1  ● success",
      "  Batches    none",
      "",
      "Values",
      "  名前        田中",
      `  first_name  Party \u{1F389} ${FAMILY} ${RAINBOW_FLAG}`,
      "",
      "Message sent",
      // 2 + 3 + 14 + 21 = 40 cells: the whole width on one line (counting each person of the family
      // and each part of the flag, it would take 48, and wrap).
      `  Hi Party \u{1F389} ${FAMILY} ${RAINBOW_FLAG}, your order shipped.`,
      "",
      "Attempts (0)",
      "  none",
      "",
    ]);
  });

  it("aligns an attempt's error after a status in CJK by its cells", () => {
    const text = view(
      {
        id: "m2",
        latestStatus: "failure",
        messageAttempts: [
          { status: "失敗", createdAt: "2025-05-01T10:16:00.000Z", errorType: "delivery_error", errorCode: "x" },
        ],
      },
      80,
    );
    expect(text.split("\n").slice(-3)).toEqual([
      "Attempts (1)",
      "  2025-05-01 10:16:00  失敗      delivery_error / x",
      "",
    ]);
  });
});

// Issue 25, item 14: what people copy (ids, recipients, batch ids) is never cut at a narrow width; it runs past it.
describe("the message view at 24 columns", () => {
  it("keeps the recipient, the campaign, the template and each batch id whole, wrapping around them", () => {
    const text = view(
      {
        id: "msg-0f3a9c2e7b",
        latestStatus: "failure",
        recipient: "4915112345678901",
        campaignId: "cmp-spring-sale-2026",
        templateBodyId: "tb-7c1e9a0d55",
        batches: [
          { id: "bat-spring-w1-0a9f3c7e", originalFileName: "spring wave one.csv" },
          { id: "bat-spring-w2-77d0e1b4" },
          { id: "bat-3" },
        ],
      },
      24,
    );
    expect(text.split("\n").slice(0, 10)).toEqual([
      "Message msg-0f3a9c2e7b  ● failure",
      "  Recipient  4915112345678901",
      "  Campaign   cmp-spring-sale-2026",
      "  Batches    bat-spring-w1-0a9f3c7e",
      "             (spring",
      "             wave",
      "             one.csv),",
      "             bat-spring-w2-77d0e1b4,",
      "             bat-3",
      "  Template   tb-7c1e9a0d55",
    ]);
  });
});
