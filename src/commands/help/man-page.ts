// The man page, msgstat.1, as roff: a manual of its own, not the help topics put end to end. NAME,
// SYNOPSIS, a DESCRIPTION, each command's full help (every option) kept as laid out, the shortest
// reference topics in full (exit status, environment), the files, examples, and SEE ALSO naming each
// `msgstat help` topic. Markdown is read as the help topics are (terminal/markdown.ts); only the man(7)
// macros every man reader knows are used (no tbl): a table becomes tagged paragraphs, one a row.
// scripts/man-page.mjs gathers the parts at build time.
import { linksAsText, parseMarkdown, type Block } from "../../terminal/markdown.js";

export interface ManPage {
  version: string;
  /** One line: what the program is, for NAME. */
  summary: string;
  /** Markdown: the overview, for DESCRIPTION. */
  description: string;
  /** Each command's help text as it prints at 72 columns (man indents it by 7). */
  commands: readonly { name: string; help: string }[];
  /** The sections after COMMANDS (EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES): a title and markdown. */
  sections: readonly { title: string; markdown: string }[];
  /** The help topics, for SEE ALSO: each name and its one-line summary. */
  topics: readonly { name: string; summary: string }[];
}

export function manPage(page: ManPage): string {
  const lines = [
    `.TH MSGSTAT 1 "" "msgstat ${escape(page.version)}" "User Commands"`,
    ".SH NAME",
    `msgstat \\- ${escape(page.summary)}`,
    ".SH SYNOPSIS",
    ".B msgstat",
    "[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]",
    ".br",
    ".B msgstat help",
    "[\\fIcommand\\fR | \\fItopic\\fR]",
    ".SH DESCRIPTION",
    ...roffBlocks(parseMarkdown(page.description)),
    ".SH COMMANDS",
  ];
  for (const command of page.commands) {
    lines.push(`.SS ${escape(command.name)}`, ".nf", ...verbatim(command.help.replace(/\n+$/, "").split("\n")), ".fi");
  }
  for (const section of page.sections) {
    const blocks = parseMarkdown(section.markdown);
    // A topic's own title is the section's title here.
    const body = blocks[0]?.kind === "heading" && blocks[0].level === 1 ? blocks.slice(1) : blocks;
    lines.push(`.SH ${escape(section.title.toUpperCase())}`, ...roffBlocks(body));
  }
  lines.push(".SH SEE ALSO", ".PP", "Each topic, at the terminal's width:");
  for (const topic of page.topics) {
    lines.push(".TP", `\\fBmsgstat help ${escape(topic.name)}\\fR`, escape(topic.summary));
  }
  const body = lines.slice(1);
  // Left-aligned, not justified: lines holding a long name (a CSV header) cannot be spread evenly, and groff
  // warns on stderr for each.
  return `${[lines[0]!, ".ad l", ".nh", ...asciiFallbacks(body.join("\n")), ...body].join("\n")}\n`;
}

/**
 * Where man runs without a UTF-8 locale (cron, a bare `env -i`, LANG=C), groff's ASCII device has no
 * glyph for the report's bars, the ellipsis, the spinner or a tick, warns on stderr and leaves them out.
 * For each such character the page uses, a fallback: `.fchar` defines it only where the device has
 * none (a UTF-8 terminal keeps the real one); `\n(.g` limits it to groff.
 */
const ASCII_FALLBACKS: Readonly<Record<string, string>> = {
  "\u2026": "...",
  "\u25CF": "*",
  "\u2592": ":",
  "\u2588": "#",
  "\u2589": "#",
  "\u258A": "#",
  "\u258B": "#",
  "\u258C": "#",
  "\u258D": "#",
  "\u258E": "#",
  "\u258F": "#",
  "\u283C": "*",
  "\u2713": "ok",
  "\u2717": "x",
};

function asciiFallbacks(roff: string): string[] {
  return Object.entries(ASCII_FALLBACKS)
    .filter(([character]) => roff.includes(character))
    .map(([character, fallback]) => {
      const name = character === "\u2713" ? "OK" : `u${character.codePointAt(0)!.toString(16).toUpperCase()}`;
      return `.if \\n(.g .fchar \\[${name}] ${fallback}`;
    });
}

/** Blocks as roff: second-level headings are subsections, deeper ones bold paragraphs. */
function roffBlocks(blocks: readonly Block[]): string[] {
  const lines: string[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case "heading":
        if (block.level <= 2) lines.push(`.SS ${inline(block.text)}`);
        else lines.push(".PP", `\\fB${inline(block.text)}\\fR`);
        break;
      case "paragraph":
        lines.push(".PP", inline(block.text));
        break;
      case "list":
        for (const item of block.items) {
          const marker = item.marker.startsWith("-") ? "\\(bu" : item.marker.trim();
          lines.push(`.IP "${marker}" 4`, inline(item.text));
        }
        break;
      case "code":
        lines.push(".PP", ".RS 2", ".nf", ...verbatim(block.lines), ".fi", ".RE");
        break;
      case "table":
        for (const row of block.rows) {
          lines.push(".TP", `\\fB${inline(row[0] ?? "")}\\fR`);
          const rest = row.slice(1).map((cell, index) => ({ cell, header: block.header[index + 1] ?? "" }));
          if (rest.length === 1) lines.push(inline(rest[0]!.cell));
          else {
            const filled = rest.filter(({ cell }) => cell !== "");
            filled.forEach(({ cell, header }, index) => {
              if (index > 0) lines.push(".br");
              lines.push(`${inline(header)}: ${inline(cell)}`);
            });
          }
        }
        break;
    }
  }
  return lines;
}

/** Markdown inline text as roff: `code` and **bold** in bold, links and images as their text (and target). */
function inline(text: string): string {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/);
  const roff = parts
    .map((part) => {
      // \: after a comma lets a long list of names (a CSV header) break there instead of overrunning the line.
      if (/^`[^`]+`$/.test(part)) return `\\fB${escape(part.slice(1, -1)).replace(/,(?=\S)/g, ",\\:")}\\fR`;
      // **`MSGSTAT_TOKEN`**: bold already, the code's backticks go.
      if (/^\*\*[^*]+\*\*$/.test(part)) return `\\fB${escape(part.slice(2, -2).replace(/`([^`]+)`/g, "$1"))}\\fR`;
      return escape(linksAsText(part));
    })
    .join("");
  return guardLineStart(roff);
}

/** Lines kept as written (code, a command's help): escaped, each line's start made safe. */
function verbatim(lines: readonly string[]): string[] {
  return lines.map((line) => guardLineStart(escape(line)));
}

/** Text as roff prints it: backslashes escaped, and "-" as a minus, as options are written. */
function escape(text: string): string {
  return text.replace(/\\/g, "\\e").replace(/-/g, "\\-");
}

/** A line starting with "." or "'" would be read as a request: \& before it makes it text. */
function guardLineStart(line: string): string {
  return /^[.']/.test(line) ? `\\&${line}` : line;
}
