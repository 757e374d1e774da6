// `msgstat completion bash|zsh|fish`: a completion script for the shell, written from the program.
import { Argument, type Command } from "@commander-js/extra-typings";
import { addHelpSections } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { completionScript } from "./scripts.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

export function defineCompletion(command: Command, run: Run): void {
  const completion = command
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .action(async (shell, _options, cmd) => {
      const ctx = contextFor(cmd, run);
      ctx.stdout.write(completionScript(await run.wholeProgram(), shell));
    });
  addHelpSections(completion, {
    heading: "Examples:",
    examples: [
      {
        command: "source <(msgstat completion bash)",
        comment: "bash: completion in this shell (the same line in ~/.bashrc keeps it)",
      },
      {
        command: "msgstat completion zsh > _msgstat",
        comment: "zsh: then move _msgstat into a folder of your $fpath",
      },
      {
        command: "msgstat completion fish > msgstat.fish",
        comment: "fish: then move msgstat.fish into ~/.config/fish/completions/",
      },
    ],
  });
}
