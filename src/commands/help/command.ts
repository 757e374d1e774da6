// `msgstat help [topic]`: a topic of docs/ at the terminal's width, or a command's help, as commander's
// own help command gave it (msgstat help messages).
import type { Command } from "@commander-js/extra-typings";
import { addHelpSections } from "../shared/help.js";
import type { Run } from "../context.js";
import { runHelpTopic, topicList } from "./run.js";
import { TOPICS, topicNamed } from "./topics.js";

export function defineHelp(command: Command, run: Run): void {
  const help = command.argument("[topic]", "a topic below, or a command").action((topic, _options, cmd) => {
    const program = cmd.parent!;
    const commands = program.commands.filter((each) => each.name() !== "help");
    const named = commands.find((each) => each.name() === topic);
    if (topic === undefined) {
      program.outputHelp();
      run.io.stdout.write(`\nHelp topics (msgstat help <topic>):\n${topicList()}\n`);
    } else if (named !== undefined && topicNamed(topic) === undefined) {
      named.outputHelp();
    } else {
      runHelpTopic(
        topic,
        commands.map((each) => each.name()),
        run.io,
      );
    }
  });
  addHelpSections(
    help,
    { heading: "Topics:", items: TOPICS.map((topic) => [topic.name, topic.summary] as const) },
    {
      heading: "Examples:",
      examples: [
        { command: "msgstat help config", comment: "profiles and settings, at the terminal's width" },
        { command: "msgstat help messages", comment: "a command's options, as msgstat messages --help" },
      ],
    },
  );
}
