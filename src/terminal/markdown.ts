// The help topics (docs/<topic>.md) as text for a terminal of a given width, and the same reading of
// them for the man page (scripts/man-page.mjs renders these blocks as roff). Written here rather than
// with a markdown package: msgstat's docs use a small subset (headings, paragraphs, one level of
// lists, fenced code, pipe tables, `code`, **bold** and links), and the tables are laid out with the
// project's own layout (terminal/layout.ts) and wrapped with its own wrap (terminal/wrap.ts), so a
// topic fits the width exactly as the listing and the report do.
import { drawLine, layOut, type Slot } from "./layout.js";
import { displayWidth } from "./width.js";
import { hanging, wrapText } from "./wrap.js";

export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: { marker: string; text: string }[] }
  | { kind: "code"; lines: string[] }
  | { kind: "table"; header: string[]; rows: string[][] };

/** The blocks of a markdown text, their inline markup kept (see `plainInline`). */
export function parseMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === "";
  const startsBlock = (line: string) =>
    /^#{1,6} /.test(line) || /^\s*```/.test(line) || /^\|/.test(line) || LIST_ITEM.test(line) || /^<!--/.test(line);
  while (i < lines.length) {
    const line = lines[i]!;
    // A comment is for whoever edits the file (bench:quote's markers), not for the reader.
    if (isBlank(line) || /^<!--.*-->\s*$/.test(line)) {
      i++;
    } else if (/^\s*```/.test(line)) {
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!); i++) code.push(lines[i]!);
      i++; // the closing fence
      blocks.push({ kind: "code", lines: code });
    } else if (/^#{1,6} /.test(line)) {
      const [, hashes, text] = /^(#+) +(.*)$/.exec(line)!;
      blocks.push({ kind: "heading", level: hashes!.length, text: text!.trim() });
      i++;
    } else if (line.startsWith("|")) {
      const table: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith("|"); i++) table.push(tableCells(lines[i]!));
      const [header = [], ...rest] = table;
      // The second line is the alignment row (|---|---|).
      const rows = rest.filter((cells) => !cells.every((cell) => /^:?-+:?$/.test(cell)));
      blocks.push({ kind: "table", header, rows });
    } else if (LIST_ITEM.test(line)) {
      const items: { marker: string; text: string }[] = [];
      // One list: items of one kind (bullets, or numbers), blank lines between them allowed.
      const ordered = (item: string) => /^\d/.test(item);
      const sameList = (item: string | undefined) =>
        item !== undefined && LIST_ITEM.test(item) && ordered(item) === ordered(line);
      while (i < lines.length && sameList(lines[i])) {
        const [, marker, text] = LIST_ITEM.exec(lines[i]!)!;
        let itemText = text!;
        // Continuation lines are indented under the item.
        for (i++; i < lines.length && /^\s+\S/.test(lines[i]!) && !LIST_ITEM.test(lines[i]!); i++) {
          itemText += ` ${lines[i]!.trim()}`;
        }
        items.push({ marker: marker!, text: itemText });
        while (isBlank(lines[i]) && i + 1 < lines.length && sameList(lines[i + 1])) i++;
      }
      blocks.push({ kind: "list", items });
    } else {
      const text: string[] = [];
      for (; i < lines.length && !isBlank(lines[i]) && (text.length === 0 || !startsBlock(lines[i]!)); i++) {
        text.push(lines[i]!.trim());
      }
      blocks.push({ kind: "paragraph", text: text.join(" ") });
    }
  }
  return blocks;
}

const LIST_ITEM = /^(- |\d+\. )(.*)$/;

/** The cells of a table line `| a | b \| c |`: `\|` is a pipe inside a cell. */
function tableCells(line: string): string[] {
  const cells = line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/);
  return cells.map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

/**
 * Links and images as text: a link keeps its text, an image its alt text, and, unless it points
 * inside the page, the target follows in brackets.
 */
export function linksAsText(text: string): string {
  return text.replace(/!?\[([^\]]*)\]\(([^)\s]+)\)/g, (_match, label: string, target: string) =>
    target.startsWith("#") ? label : label === "" ? target : `${label} (${target})`,
  );
}

/** Inline markup as plain text: `code` and **bold** lose their marks, links and images as `linksAsText`. */
export function plainInline(text: string): string {
  return linksAsText(text)
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/`([^`]+)`/g, "$1");
}

/** A line of a rendered topic; `code` lines are kept as written, so only they may be wider than asked. */
export interface RenderedLine {
  text: string;
  code: boolean;
}

const CODE_INDENT = "  ";
const TABLE_GAP = 2;

/** A markdown text as lines for a terminal `width` cells wide. */
export function renderMarkdown(markdown: string, width: number): RenderedLine[] {
  const out: RenderedLine[] = [];
  const text = (line: string) => out.push({ text: line, code: false });
  const wrapped = (paragraph: string, first = "", rest = first) => {
    const lines = wrapText(paragraph, width - displayWidth(first), width - displayWidth(rest));
    for (const line of hanging(lines, first, rest).split("\n")) text(line);
  };
  for (const block of parseMarkdown(markdown)) {
    if (out.length > 0) text("");
    switch (block.kind) {
      case "heading": {
        const heading = plainInline(block.text);
        wrapped(heading);
        if (block.level <= 2) text((block.level === 1 ? "=" : "-").repeat(Math.min(width, displayWidth(heading))));
        break;
      }
      case "paragraph":
        wrapped(plainInline(block.text));
        break;
      case "list":
        for (const item of block.items) {
          wrapped(plainInline(item.text), item.marker, " ".repeat(item.marker.length));
        }
        break;
      case "code":
        for (const line of block.lines) out.push({ text: line === "" ? "" : CODE_INDENT + line, code: true });
        break;
      case "table":
        for (const line of renderTable(block, width)) text(line);
        break;
    }
  }
  return out;
}

/**
 * A table within `width`: its columns placed by the project's layout, each cell wrapped within its
 * column (the docs' cells are sentences, which a listing would cut but a reader needs whole). When
 * even the narrowest columns do not fit, each row becomes a short record, one "header: value" a line.
 */
function renderTable(table: { header: string[]; rows: string[][] }, width: number): string[] {
  const header = table.header.map(plainInline);
  const rows = table.rows.map((row) => header.map((_, column) => plainInline(row[column] ?? "")));
  const slots: Slot[] = header.map((title, column) => {
    const cells = [title, ...rows.map((row) => row[column]!)];
    const natural = Math.max(...cells.map(displayWidth));
    const longestWord = Math.max(...cells.flatMap((cell) => cell.split(/\s+/)).map(displayWidth));
    return { widths: [natural], min: Math.min(natural, Math.max(longestWord, 12)) };
  });
  const placed = layOut(slots, width, TABLE_GAP);
  const used = placed.reduce((sum, column) => sum + column.width + TABLE_GAP, -TABLE_GAP);
  if (placed.length < header.length || used > width) return records(header, rows, width);

  const drawRow = (cells: string[]) => {
    const columns = cells.map((cell, index) => wrapText(cell, placed[index]!.width));
    const height = Math.max(...columns.map((lines) => lines.length));
    return Array.from({ length: height }, (_, line) =>
      drawLine(
        placed,
        columns.map((lines) => ({ text: lines[line] ?? "" })),
        TABLE_GAP,
      ),
    );
  };
  const body = rows.map(drawRow);
  // Rows of several lines each are told apart by a blank line between them.
  const spaced = body.some((lines) => lines.length > 1);
  const rule = drawLine(
    placed,
    placed.map((column) => ({ text: "-".repeat(column.width) })),
    TABLE_GAP,
  );
  return [...drawRow(header), rule, ...body.flatMap((lines, index) => (spaced && index > 0 ? ["", ...lines] : lines))];
}

/** A table too wide for the width, row by row: the first cell, then each other cell under its header. */
function records(header: string[], rows: string[][], width: number): string[] {
  const lines: string[] = [];
  rows.forEach((row, index) => {
    if (index > 0) lines.push("");
    lines.push(...wrapText(row[0]!, width));
    row.slice(1).forEach((cell, column) => {
      if (cell === "") return;
      const label = `  ${header[column + 1]}: `;
      lines.push(...hanging(wrapText(cell, width - displayWidth(label), width - 4), label, "    ").split("\n"));
    });
  });
  return lines;
}
