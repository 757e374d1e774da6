// token-command is run without a shell: its text is split into words here, with the quoting a
// person expects (single quotes, double quotes, backslashes), and nothing else of a shell's.
// Hand-written because the libraries that split shell words also expand $VARS or return pipes as
// operators; here anything a shell would interpret is refused, so it can never be silently passed
// to the program as text. A person who wants a shell says so: `sh -c 'pass show x | head -1'`.

export type Split = { words: string[] } | { reason: string; hint: string };

const SHELL_ONLY = new Set(["|", "&", ";", "<", ">", "(", ")", "$", "`", "*", "?"]);
const WITH_A_SHELL = "token-command runs the program directly, without a shell; to use one, say so: sh -c '...'";

export function splitCommand(text: string): Split {
  const words: string[] = [];
  let word: string | undefined;
  const append = (chars: string) => (word = (word ?? "") + chars);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return { reason: "has an unclosed ' quote", hint: WITH_A_SHELL };
      append(text.slice(i + 1, end));
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      let quoted = "";
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\" && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) j++;
        else if (text[j] === "$" || text[j] === "`")
          return { reason: `uses ${text[j]} inside double quotes, which only a shell expands`, hint: WITH_A_SHELL };
        quoted += text[j];
      }
      if (j >= text.length) return { reason: 'has an unclosed " quote', hint: WITH_A_SHELL };
      append(quoted);
      i = j;
    } else if (char === "\\") {
      if (i + 1 >= text.length) return { reason: "ends with a backslash", hint: WITH_A_SHELL };
      append(text[++i]!);
    } else if (SHELL_ONLY.has(char) || (char === "~" && word === undefined)) {
      return { reason: `uses ${char}, which only a shell understands`, hint: WITH_A_SHELL };
    } else {
      append(char);
    }
  }
  if (word !== undefined) words.push(word);
  if (words.length === 0)
    return { reason: "is empty", hint: "Give the command that prints the token, e.g. pass show msgstat/prod" };
  return { words };
}
