// `msgstat help [topic]`: a topic of docs/ at the terminal's width, or every option of a command
// (msgstat help messages), where the command's --help shows its most used ones.
import type { Command } from "@commander-js/extra-typings";
import type { Run } from "../context.js";
import { runHelpTopic, topicList } from "./run.js";
import { topicNamed } from "./topics.js";

export function defineHelp(command: Command, run: Run): void {
  command
    .argument("[topic]", "a topic below, or a command")
    // Said here rather than by commander: "msgstat help exit codes" is one topic, written with a dash.
    .allowExcessArguments()
    .action(async (topic, _options, cmd) => {
      const program = cmd.parent!;
      const commands = program.commands.filter((each) => each.name() !== "help");
      const named = commands.find((each) => each.name() === topic);
      if (cmd.args.length > 1) {
        const { tooManyArguments } = await import("../shared/parser-errors.js");
        const joined = cmd.args.join("-");
        const error = tooManyArguments(cmd);
        if (topicNamed(joined) !== undefined || commands.some((each) => each.name() === joined))
          error.withHint(`Did you mean msgstat help ${joined}?`);
        // msgstat help auth login: a command under another has one help, its --help.
        const [parent, child] = cmd.args;
        if (named?.commands.some((each) => each.name() === child) && cmd.args.length === 2)
          error.withHint(`msgstat ${parent} ${child} --help shows its options.`);
        throw error;
      }
      if (topic === undefined) {
        program.outputHelp();
        run.io.stdout.write(`\nHelp topics (msgstat help <topic>):\n${topicList()}\n`);
      } else if (named !== undefined && topicNamed(topic) === undefined) {
        run.io.stdout.write(run.fullHelp(named));
      } else {
        runHelpTopic(
          topic,
          commands.map((each) => each.name()),
          run.io,
        );
        // A topic that is also a command (stats, config): the topic, then every option of the command.
        if (named !== undefined) run.io.stdout.write(`\n${run.fullHelp(named)}`);
      }
    })
    // Written here rather than with shared/help.ts's sections: importing it would make this chunk share
    // commander with --help's code apart from the option checks, and split --help's chunk in two
    // (test/e2e/bin.test.ts counts the files --help loads). Every line is under 80 columns.
    .addHelpText(
      "after",
      () =>
        `\nTopics:\n${topicList()}\n\nExamples:\n` +
        "  # profiles and settings, at the terminal's width\n  $ msgstat help config\n" +
        "  # every option of a command, where msgstat messages --help shows the most used\n" +
        "  $ msgstat help messages\n",
    );
}
