// Every help text of the program, in-process: the commands a person can ask --help of, and the text.
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { buildProgram } from "../../src/cli.js";
import { runCli } from "./run-cli.js";

const nullIo = () => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  columns: 80,
  env: {},
  now: () => 0,
  signal: new AbortController().signal,
});
export const SUBCOMMANDS = (await buildProgram(nullIo())).commands.filter((command) => command.name() !== "help");
/** The program itself ([]) and each command: what `msgstat ... --help` can be asked of. */
export const COMMANDS: string[][] = [[], ...SUBCOMMANDS.map((command) => [command.name()])];

export async function helpOf(command: string[], columns: number): Promise<string> {
  const result = await runCli([...command, "--help"], { columns });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result.stdout;
}
