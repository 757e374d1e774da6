// Help that fits the terminal: commander lays out and wraps the options; the sections msgstat adds
// after them (fields, exit codes, environment, examples) are laid out by the same helper, so every
// line fits the width (80 when unknown) and every table is aligned. Widths are commander's
// displayWidth (the length without colour codes): help is msgstat's own text, all printable ASCII
// (test/cli/help.test.ts holds it), whose width string-width would give the same; loading string-width
// here would put its 10-30 ms on every --help (render/width.ts).
import { Help, type CommandUnknownOpts as Command } from "@commander-js/extra-typings";

export interface Example {
  /** The command line, as a person types it (msgstat ... ). */
  command: string;
  /** What it shows, on the line above it. */
  comment?: string;
  /** The exit code it ends with when that is not 0 (stats' alert). */
  exitCode?: number;
}

export type HelpSection =
  | { heading: string; text: string }
  | { heading: string; items: readonly (readonly [term: string, description: string])[] }
  | { heading: string; examples: readonly Example[] };

const sections = new WeakMap<Command, HelpSection[]>();

/** Sections printed after the command's options and subcommands, in this order. */
export function addHelpSections(command: Command, ...added: HelpSection[]): void {
  sections.set(command, [...(sections.get(command) ?? []), ...added]);
}

export function helpSectionsOf(command: Command): readonly HelpSection[] {
  return sections.get(command) ?? [];
}

/** Help wrapped to `columns`, with the command's sections after commander's own. */
export function configureHelp(command: Command, columns: () => number): void {
  command.configureOutput({ getOutHelpWidth: columns, getErrHelpWidth: columns });
  command.configureHelp({
    // Commands listed by name (their usage is in their own help), as gh does: a long usage here
    // would widen the first column of every list and leave too little room to wrap the rest.
    subcommandTerm: (cmd: Command) => cmd.name(),
    // Wrap whatever room is left; commander's default (40) leaves narrow terminals unwrapped.
    minWidthToWrap: 20,
    formatHelp(cmd: Command, helper: Help): string {
      const base = Help.prototype.formatHelp.call(this, cmd, helper);
      const extra = helpSectionsOf(cmd).map((section) => formatSection(section, helper));
      return [base, ...extra].join("\n");
    },
  });
}

const INDENT = "  ";
// Past this width an example's words go on a continuation line ending in " \", so the whole
// command still pastes into a shell as one.
const CONTINUATION = "      ";

function formatSection(section: HelpSection, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const lines = [helper.styleTitle(section.heading)];
  if ("text" in section) {
    lines.push(helper.boxWrap(section.text, width - INDENT.length).replace(/^/gm, INDENT));
  } else if ("items" in section) {
    const termWidth = Math.max(...section.items.map(([term]) => helper.displayWidth(term)));
    for (const [term, description] of section.items)
      lines.push(helper.formatItem(term, termWidth, description, helper));
  } else {
    for (const example of section.examples) {
      const comment =
        example.exitCode === undefined ? example.comment : `${example.comment ?? "ends"} (exit ${example.exitCode})`;
      if (comment !== undefined)
        lines.push(helper.boxWrap(comment, width - INDENT.length - 2).replace(/^/gm, `${INDENT}# `));
      lines.push(...exampleLines(example.command, width, helper));
    }
  }
  return `${lines.join("\n")}\n`;
}

/** `$ msgstat ...` on one line, or broken between words with " \" continuations when it is too wide. */
function exampleLines(command: string, width: number, helper: Help): string[] {
  const lines: string[] = [];
  let line = `${INDENT}$`;
  for (const word of command.split(" ")) {
    if (helper.displayWidth(`${line} ${word} \\`) > width && line.trim() !== "$" && line !== CONTINUATION) {
      lines.push(`${line} \\`);
      line = `${CONTINUATION}${word}`;
    } else line = line === CONTINUATION ? `${line}${word}` : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
