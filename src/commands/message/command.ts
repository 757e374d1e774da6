// `msgstat message <campaignId> <messageId>`: one message's whole story.
import { Command } from "commander";
import { outputPath, requireId } from "../shared/arguments.js";
import type { CommandSetup } from "../shared/setup.js";

export interface RawMessageOptions {
  json?: boolean;
  output?: string;
}

export function messageCommand(setup: CommandSetup): Command {
  const command = new Command("message")
    .description("show one message: status, recipient, batches, template, values, text and attempts")
    .argument("<campaignId>", "the campaign")
    .argument("<messageId>", "the message");
  setup.withGlobals(command)
    .option("--json", "print the message exactly as the service sent it")
    .option("-o, --output <file>", "write to this file (atomically) instead of stdout")
    .addHelpText("after", `
Examples:
  msgstat message cmp-spring-sale msg-0000042
  msgstat message cmp-spring-sale msg-0000042 --json | jq .attempts`)
    .action(async (campaignId: string, messageId: string, raw: RawMessageOptions, cmd: Command) => {
      const ctx = setup.context(cmd);
      requireId("campaignId", campaignId);
      requireId("messageId", messageId);
      const output = outputPath(raw.output);
      const { runMessage } = await import("./run.js");
      await runMessage({ campaignId, messageId, json: raw.json === true, output }, ctx);
    });
  return command;
}
