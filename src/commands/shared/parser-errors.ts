// commander's complaints about a command line (unknown option or command, arguments missing or too
// many, a value left out) said in msgstat's words, as usage errors: the one style of every error, with
// a guess at what was meant where the mistake is a common one. Loaded only when such an error happens
// (src/cli.ts), so a run that parses cleanly never pays for it.
import type { CommanderError, CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors.js";
import { shellWord } from "../../core/text.js";
import { closest, didYouMean } from "../../core/edit-distance.js";
import { pathOf } from "./help.js";
import { looksLike } from "./id-shapes.js";

/** The usage error for commander's `error`, raised while `command` parsed its part of `argv`. */
export function parserError(error: CommanderError, command: AnyCommand, argv: readonly string[]): UsageError {
  const quoted = [...error.message.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
  switch (error.code) {
    case "commander.unknownCommand":
      return unknownCommand(command, command.args[0] ?? quoted[0] ?? "");
    case "commander.unknownOption":
      return unknownOption(command, quoted[0] ?? "", argv);
    case "commander.missingArgument":
      return missingArgument(command, quoted[0] ?? "");
    case "commander.excessArguments":
      return excessArguments(command);
    case "commander.optionMissingArgument":
      return optionMissingValue(command, quoted[0] ?? "");
    case "commander.invalidArgument":
      return invalidArgument(command, quoted) ?? fallback(error);
    default:
      return fallback(error);
  }
}

/** commander's own words without its "error: " and its suggestion in brackets. */
function fallback(error: CommanderError): UsageError {
  return new UsageError(error.message.replace(/^error: /, "").replace(/\n\(Did you mean .*\?\)$/, ""));
}

/** msgstat message <campaignId> <messageId>: how the command's arguments are written (`needed` as required). */
function usageOf(command: AnyCommand, needed?: string): string {
  const args = command.registeredArguments.map((arg) => {
    const name = `${arg.name()}${arg.variadic ? "..." : ""}`;
    return arg.required || arg.name() === needed ? `<${name}>` : `[${name}]`;
  });
  return ["msgstat", pathOf(command), ...args].filter((part) => part !== "").join(" ");
}

function unknownCommand(command: AnyCommand, name: string): UsageError {
  const path = pathOf(command);
  const names = command.commands.map((each) => each.name());
  const error = new UsageError(`unknown command "${[path, name].filter(Boolean).join(" ")}"`);
  const guess = didYouMean(closest(name, names));
  if (guess !== undefined) return error.withHint(guess);
  return error.withHint(`The commands${path === "" ? "" : ` of ${path}`}: ${names.join(", ")}.`);
}

function unknownOption(command: AnyCommand, typed: string, argv: readonly string[]): UsageError {
  const flag = typed.replace(/=.*$/, "");
  const path = pathOf(command);
  const error = new UsageError(path === "" ? `unknown option ${flag}` : `${path} has no option ${flag}`);
  // msgstat --json messages c: an option of the command named later, given before its name.
  if (command.parent === null) {
    const later = command.commands.find(
      (each) =>
        argv.indexOf(each.name()) > argv.indexOf(typed) &&
        each.options.some((option) => option.long === flag || option.short === flag),
    );
    if (later !== undefined)
      return error.withHint(`${flag} is an option of ${later.name()}: it goes after the command's name.`);
  }
  const longs = command.options.flatMap((option) => (option.long !== undefined && !option.hidden ? [option.long] : []));
  const guess = didYouMean(flag.startsWith("--") ? closest(flag, longs) : []);
  if (guess !== undefined) return error.withHint(guess);
  return error.withHint(
    path === "" ? "The options msgstat takes: msgstat help options" : `Every option of ${path}: msgstat help ${path}`,
  );
}

function missingArgument(command: AnyCommand, name: string): UsageError {
  const error = new UsageError(`missing <${name}>: ${usageOf(command, name)}`);
  const given = command.args;
  // messages: the ids may come from a file instead (messages/command.ts says the argument is missing).
  if (name === "campaignId" && command.options.some((option) => option.long === "--campaigns-file"))
    return error.withHint("Or name them in a file, one a line: --campaigns-file <path>.");
  // message <campaignId> <messageId> given one id: the campaign's left out, or the message's?
  const [first, second] = command.registeredArguments;
  if (given.length !== 1 || first?.name() !== "campaignId" || second?.name() !== name) return error;
  const id = given[0]!;
  if ((name === "messageId" || name === "batchId") && looksLike(name, id)) {
    return error.withHint(
      `If ${id} is a ${name === "messageId" ? "message" : "batch"} id, the campaign id comes first: ` +
        `msgstat ${pathOf(command)} <campaignId> ${shellWord(id)}`,
    );
  }
  return error.withHint(
    name === "messageId"
      ? `msgstat messages ${shellWord(id)} lists its messages and their ids.`
      : `msgstat stats ${shellWord(id)} shows its batches and their ids.`,
  );
}

function excessArguments(command: AnyCommand): UsageError {
  const quoting = quotedValueHint(command, command.args);
  const error = tooManyArguments(command);
  return quoting === undefined ? error : error.withHint(quoting);
}

/** More arguments than the command takes (command.args): said with what it takes and what it got. */
export function tooManyArguments(command: AnyCommand): UsageError {
  const given = command.args;
  return new UsageError(
    `too many arguments: ${usageOf(command)} takes ${command.registeredArguments.length}, not ${given.length} ` +
      `(${given.map(shellWord).join(" ")})`,
  );
}

/** config set token-command pass show msgstat: a value with spaces is one argument only when quoted. */
function quotedValueHint(command: AnyCommand, given: readonly string[]): string | undefined {
  const last = command.registeredArguments.at(-1);
  if (last?.name() !== "value") return undefined;
  const before = given.slice(0, command.registeredArguments.length - 1);
  const value = given.slice(command.registeredArguments.length - 1).join(" ");
  const quoted = ["msgstat", pathOf(command), ...before.map(shellWord), shellWord(value)].join(" ");
  return `A value with spaces is one argument when quoted: ${quoted}`;
}

/** -n, --limit <n> given last, with no value: named by its long flag, as a bad value is (option-values.ts). */
function optionMissingValue(command: AnyCommand, flags: string): UsageError {
  const option = command.options.find((each) => each.flags === flags);
  return new UsageError(`${option?.long ?? option?.short ?? flags} needs a value (${flags})`);
}

/** completion tcsh: an argument with choices, said as a flag's value is (option-values.ts). */
function invalidArgument(command: AnyCommand, quoted: readonly string[]): UsageError | undefined {
  const [value, name] = quoted;
  const argument = command.registeredArguments.find((each) => each.name() === name);
  if (value === undefined || argument?.argChoices === undefined) return undefined;
  return new UsageError(`<${name}> must be one of ${argument.argChoices.join(", ")}, not "${value}"`);
}
