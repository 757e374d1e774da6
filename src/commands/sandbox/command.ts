// `msgstat sandbox`: the built-in local service, for trying msgstat, for the tests and for the benchmark.
import { Command } from "@commander-js/extra-typings";
import { addHelpSections } from "../shared/help.js";
import type { CommandSetup } from "../shared/setup.js";
import { addSandboxOptions } from "./flags.js";

export function sandboxCommand(setup: CommandSetup) {
  const command = addSandboxOptions(
    new Command("sandbox").description("run a local delivery-status service with generated campaigns (prints its URL, then the ids it serves)"),
  ).action(async (raw, cmd) => {
    const ctx = setup.context(cmd);
    const [{ parseSandboxOptions }, { runSandbox }] = await Promise.all([import("./options.js"), import("./run.js")]);
    await runSandbox(parseSandboxOptions(raw), ctx);
  });
  addHelpSections(command, {
    heading: "Examples:",
    examples: [
      { command: "msgstat sandbox", comment: "then: msgstat --base-url <printed URL> messages cmp-spring-sale" },
      { command: "msgstat sandbox --port 0 --messages 1000000 --latency 20 --token s3cret" },
    ],
  });
  return command;
}
