// `msgstat sandbox`: the built-in local service, for trying msgstat, for the tests and for the benchmark.
import type { Command } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { globalOptionsOf } from "../shared/global-options.js";
import { addHelpSections } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { addSandboxOptions, SANDBOX_PORT } from "./flags.js";
import { parseSandboxOptions } from "./options.js";
import { runSandbox } from "./run.js";

export function defineSandbox(command: Command, run: Run): void {
  const sandbox = addSandboxOptions(command).action(async (raw, cmd) => {
    // `msgstat --token x sandbox` reads as a sandbox that requires x, yet that --token is the global
    // one, for requests msgstat sends: the sandbox would answer anyone. Said, not started.
    if (globalOptionsOf(cmd, { defaults: false }).token !== undefined) {
      throw new UsageError(
        "--token before sandbox is the token msgstat sends to a service, not one the sandbox requires",
      ).withHint(
        "To make the sandbox require a token, put it after the command's name: msgstat sandbox --token <token>",
      );
    }
    const ctx = contextFor(cmd, run);
    await runSandbox(parseSandboxOptions(raw), ctx, {
      saveProfile: raw.saveProfile === true ? "sandbox" : raw.saveProfile || undefined,
    });
  });
  addHelpSections(
    sandbox,
    {
      heading: "Where:",
      text:
        `It listens on 127.0.0.1:${SANDBOX_PORT} unless told otherwise, and says on stderr how to point ` +
        `msgstat at it.`,
    },
    {
      heading: "Examples:",
      examples: [
        {
          command: "msgstat sandbox --save-profile &",
          comment: "in the background, saved as a profile, the default one on a fresh machine; kill %1 stops it",
        },
        {
          command: "msgstat sandbox --port 0 --messages 1000000 --latency 20 --token s3cret",
          comment: "another, on a free port: a million messages, slow answers, a token required",
        },
      ],
    },
  );
}
