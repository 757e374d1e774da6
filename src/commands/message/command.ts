// `msgstat message <campaignId> <messageId>`: one message's whole story.
import type { Command } from "@commander-js/extra-typings";
import { requireId } from "../shared/option-values.js";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING } from "../shared/global-options.js";
import { addHelpSections, setBriefHelp } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { addMessageOptions } from "./flags.js";
import { parseMessageOptions } from "./options.js";
import { runMessage } from "./run.js";

export function defineMessage(command: Command, run: Run): void {
  const message = addGlobalOptions(
    addMessageOptions(command.argument("<campaignId>", "the campaign").argument("<messageId>", "the message")),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (campaignId, messageId, raw, cmd) => {
    const ctx = contextFor(cmd, run);
    requireId("campaignId", campaignId);
    requireId("messageId", messageId);
    await runMessage({ campaignId, messageId, ...parseMessageOptions(raw) }, ctx);
  });
  setBriefHelp(message, { topics: ["live-modes", "exit-codes"] });
  addHelpSections(message, {
    heading: "Examples:",
    examples: [
      { command: "msgstat message cmp-spring-sale msg-spring-0000042" },
      { command: "msgstat message cmp-spring-sale msg-spring-0000042 --json | jq .attempts" },
    ],
  });
}
