// Lay out JSON text without parsing it, so every number and string stays exactly as the server wrote
// it: on one line (for JSONL) or indented as JSON.stringify(value, null, 2) would (for a terminal).

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** The index after the string that opens at `at`. */
function endOfString(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 2;
    else if (code === QUOTE) return i + 1;
    else i++;
  }
  return text.length;
}

/** Text that may span lines, on one line: the spaces between tokens dropped, nothing else touched. */
export function oneLineJson(text: string): string {
  if (!text.includes("\n") && !text.includes("\r")) return text;
  let out = "";
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end;
    } else {
      if (!isSpace(code)) out += text[i];
      i++;
    }
  }
  return out;
}

/** Indented by `indent` per level, as JSON.stringify(JSON.parse(text), null, indent) lays it out. */
export function indentedJson(text: string, indent: string): string {
  let out = "";
  let depth = 0;
  const newline = () => "\n" + indent.repeat(depth);
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    const char = text[i]!;
    if (code === QUOTE) {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    i++;
    if (isSpace(code)) continue;
    if (char === "{" || char === "[") {
      let next = i;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      if (text[next] === (char === "{" ? "}" : "]")) {
        out += char + text[next];
        i = next + 1;
      } else {
        depth++;
        out += char + newline();
      }
    } else if (char === "}" || char === "]") {
      depth--;
      out += newline() + char;
    } else if (char === ",") out += "," + newline();
    else if (char === ":") out += ": ";
    else out += char;
  }
  return out;
}
