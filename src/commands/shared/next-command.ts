// The continuation hint: the whole next command, shell-quoted, on a line of its own, so a person can
// copy it whole and a script can read it back as words.
import { shellWord } from "../../core/text.js";

const CURSOR_FLAGS = ["--after", "--before"];
// Credentials are never printed: the next command goes without them, and the hint says so.
const CREDENTIAL_FLAGS = ["--token", "--header", "-H"];

function takesFlag(arg: string, flags: readonly string[]): { flag: string; inline: boolean } | undefined {
  for (const flag of flags) {
    if (arg === flag) return { flag, inline: false };
    if (arg.startsWith(`${flag}=`) || (flag === "-H" && arg.startsWith("-H") && arg.length > 2)) return { flag, inline: true };
  }
  return undefined;
}

/** The command line again, with `--<direction> <cursor>` in place of any cursor it had, and without credentials. */
export function nextCommand(argv: readonly string[], direction: "after" | "before", cursor: string): { line: string; droppedCredentials: boolean } {
  const kept: string[] = [];
  let operands: readonly string[] = [];
  let droppedCredentials = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      operands = argv.slice(i);
      break;
    }
    const cursorFlag = takesFlag(arg, CURSOR_FLAGS);
    const credential = takesFlag(arg, CREDENTIAL_FLAGS);
    const dropped = cursorFlag ?? credential;
    if (dropped) {
      if (credential) droppedCredentials = true;
      if (!dropped.inline) i++;
      continue;
    }
    kept.push(arg);
  }
  const words = ["msgstat", ...kept, `--${direction}`, cursor, ...operands];
  return { line: words.map(shellWord).join(" "), droppedCredentials };
}
