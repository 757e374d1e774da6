// Help that fits the terminal: commander lays out and wraps the options; the sections msgstat adds
// after them (examples, where to read more) are laid out by the same helper, so every line fits the
// width (80 when unknown) and every table is aligned. Widths are commander's displayWidth (the length
// without colour codes): help is msgstat's own text, all printable ASCII (test/commands/shared/help.test.ts
// holds it), whose width string-width would give the same; loading string-width here would put its
// load time on every --help (terminal/width.ts).
//
// Two lengths: `--help` is about one screen at 80 columns (a command's most used options, each in a
// line, the global options named in one paragraph, examples, then where to read the rest), and the
// full help (`msgstat help <command>`, the man page) lists every option with its whole description.
import { Help, type CommandUnknownOpts as Command, type Option } from "@commander-js/extra-typings";
import { isGlobalOption } from "./global-options.js";

export interface Example {
  /** The command line, as a person types it (msgstat ... ); " &" at its end runs it in the background. */
  command: string;
  /** What it shows, on the line above it. */
  comment?: string;
  /** The exit code it ends with when that is not 0 (stats' alert). */
  exitCode?: number;
}

export type HelpSection = (
  | { heading: string; text: string }
  | { heading: string; items: readonly (readonly [term: string, description: string])[] }
  | { heading: string; examples: readonly Example[] }
) & {
  /** Only in the full help: too long for one screen, and said in a topic too. */
  fullOnly?: boolean;
};

/** What a command's `--help` shows of it; the rest is in its full help. */
export interface BriefHelp {
  /** The options shown, by their long flag: each with a shorter description, or "" for its own (all without). */
  options?: Record<string, string>;
  /** Topics of `msgstat help` where the rest is said, pointed to at the end. */
  topics?: readonly string[];
}

const sections = new WeakMap<Command, HelpSection[]>();

/** Sections printed after the command's options and subcommands, in this order. */
export function addHelpSections(command: Command, ...added: HelpSection[]): void {
  sections.set(command, [...(sections.get(command) ?? []), ...added]);
}

export function helpSectionsOf(command: Command): readonly HelpSection[] {
  return sections.get(command) ?? [];
}

const briefs = new WeakMap<Command, BriefHelp>();

/** The options and topics a command's `--help` shows; without, it shows all its own options. */
export function setBriefHelp(command: Command, brief: BriefHelp): void {
  briefs.set(command, brief);
}

// Set while the full help is written: commander asks for the text through its own calls.
let full = false;

/** The command's help with every option and section: what `msgstat help <command>` and the man page show. */
export function fullHelpText(command: Command): string {
  full = true;
  try {
    return command.helpInformation();
  } finally {
    full = false;
  }
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
      const brief = full ? undefined : briefView(cmd, helper);
      const shown = brief?.helper ?? helper;
      const base = Help.prototype.formatHelp.call(shown, cmd, shown);
      const extra = [
        ...(brief?.before ?? []),
        ...helpSectionsOf(cmd).filter((section) => !(brief && section.fullOnly)),
        ...(brief?.after ?? fullFooter(cmd)),
      ];
      return [base, ...extra.map((section) => formatSection(section, helper))].join("\n");
    },
  });
}

/** The full help's last words: the topics that say more (the command's own topic aside). */
function fullFooter(cmd: Command): HelpSection[] {
  const path = pathOf(cmd);
  const topics = (briefs.get(cmd)?.topics ?? []).filter((topic) => topic !== path);
  return topics.length === 0
    ? []
    : [{ heading: "More:", text: `${topics.map((topic) => `msgstat help ${topic}`).join(", ")}.` }];
}

/** "messages", "auth login": the command as typed after msgstat; "" for the program itself. */
export function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let at: Command | null = cmd; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/**
 * The one-screen help of a command: a helper that lists only its chosen options (and --help, --version),
 * with their shorter descriptions; the global options named in a paragraph when there are several; and
 * where the rest is.
 */
function briefView(cmd: Command, helper: Help): { helper: Help; before: HelpSection[]; after: HelpSection[] } {
  const brief = briefs.get(cmd);
  const globals = cmd.options.filter(isGlobalOption);
  const summarised = globals.length > 1;
  const chosen = (option: Option) =>
    option.long === "--help" ||
    option.long === "--version" ||
    (isGlobalOption(option)
      ? !summarised
      : brief?.options === undefined || Object.hasOwn(brief.options, option.long ?? ""));
  const view: Help = Object.create(helper) as Help;
  view.visibleOptions = (of) => helper.visibleOptions(of).filter((option) => of !== cmd || chosen(option));
  view.optionDescription = (option) => (brief?.options?.[option.long ?? ""] ?? "") || helper.optionDescription(option);

  const before: HelpSection[] = [];
  if (summarised) {
    const flags = globals.filter((option) => !option.hidden).map((option) => option.long ?? option.short);
    before.push({ heading: "Global options (msgstat help options):", text: flags.join(", ") });
  }
  const after: HelpSection[] = [];
  const leftOut = cmd.options.some((option) => !option.hidden && !isGlobalOption(option) && !chosen(option));
  // A topic of the command's name (stats) is shown with every option of the command after it.
  const path = pathOf(cmd);
  const topics = brief?.topics ?? [];
  const more = [
    ...(topics.includes(path) ? [`msgstat help ${path} (the topic, then every option)`] : []),
    ...(leftOut && !topics.includes(path) ? [`msgstat help ${path} (every option)`] : []),
    ...topics.filter((topic) => topic !== path).map((topic) => `msgstat help ${topic}`),
  ];
  if (more.length > 0) after.push({ heading: "More:", text: `${more.join(", ")}.` });
  return { helper: view, before, after };
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
