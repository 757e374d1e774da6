// Every help text of the program, in-process: the commands a person can ask --help of, and the text.
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { buildProgram } from "../../src/cli.js";
import { fullHelpText } from "../../src/commands/shared/help.js";
import { runCli } from "./run-cli.js";

const nullIo = (columns = 80) => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  columns,
  env: {},
  now: () => 0,
  signal: new AbortController().signal,
});
export const SUBCOMMANDS = (await buildProgram(nullIo())).commands.filter((command) => command.name() !== "help");
/** The program itself ([]) and each command: what `msgstat ... --help` can be asked of. */
export const COMMANDS: string[][] = [[], ...SUBCOMMANDS.map((command) => [command.name()])];
/** The same, and the commands under auth and config (auth login, config set, ...). */
export const EVERY_COMMAND: string[][] = [
  ...COMMANDS,
  ...SUBCOMMANDS.flatMap((command) =>
    command.commands.filter((sub) => sub.name() !== "help").map((sub) => [command.name(), sub.name()]),
  ),
];

export async function helpOf(command: string[], columns: number): Promise<string> {
  const result = await runCli([...command, "--help"], { columns });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result.stdout;
}

/** The full help (every option), as `msgstat help <command>` and the man page show it. */
export async function fullHelpOf(command: string[], columns: number): Promise<string> {
  let at = await buildProgram(nullIo(columns));
  for (const name of command) at = at.commands.find((each) => each.name() === name)!;
  return fullHelpText(at);
}
