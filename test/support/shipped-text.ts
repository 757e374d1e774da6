// What a user reads, checked as a user sees it: the help topics, each command's help and the man page,
// rendered. A line is a problem when it is wider than the page, shows Markdown markup left raw, or
// names what is for the workshop only (an issue number, a path of the sources or of the tests).
import { displayWidth } from "../../src/terminal/width.js";

const RAW_MARKUP: readonly [string, RegExp][] = [
  ["a table row not laid out", /^\s*\|.*\|\s*$/],
  ["an image", /!\[/],
  ["a link", /\]\(/],
  ["bold marks", /\*\*[\w`][^*]*\*\*/],
  ["a code span's backticks", /`[^`\s][^`]*`/],
  ["a heading's hashes", /^#{1,6} \S/],
  ["an HTML comment", /<!--|-->/],
  ["an HTML tag", /<\/?(?:img|br|details|summary|sup|sub)\b[^>]*>|<a href/i],
];

const WORKSHOP: readonly [string, RegExp][] = [
  ["an issue number", /\b[Ii]ssues? #?\d+|(?:^|[\s(])#\d+\b/],
  ["a path of src/ or test/", /(?:^|[^\w-])(?:src|test)\/\w/],
  ["a source import", /^\s*import .* from ["']/],
];

/** Each line that breaks a rule, as "line N (rule): text"; none for a clean text. */
export function problemsOf(text: string, width: number): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((line, index) => {
    const at = (rule: string) => problems.push(`line ${index + 1} (${rule}): ${line}`);
    if (displayWidth(line) > width) at(`wider than ${width}`);
    for (const [rule, pattern] of [...RAW_MARKUP, ...WORKSHOP]) if (pattern.test(line)) at(rule);
  });
  return problems;
}

/** Each line of a file as shipped (Markdown as written) that names what is for the workshop only. */
export function workshopLinesOf(text: string): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const [rule, pattern] of WORKSHOP)
      if (pattern.test(line)) problems.push(`line ${index + 1} (${rule}): ${line}`);
  });
  return problems;
}
