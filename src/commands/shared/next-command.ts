// The continuation hint: the whole next command, shell-quoted, on a line of its own, so a person can
// copy it whole and a script can read it back as words.
import { shellWord } from "../../core/text.js";

const CURSOR_FLAGS = ["--after", "--before"];
// Credentials are never printed: the next command goes without them, and the hint says so.
const CREDENTIAL_FLAGS = ["--token", "--header", "-H"];

function takesFlag(arg: string, flags: readonly string[]): { flag: string; inline: boolean } | undefined {
  for (const flag of flags) {
    if (arg === flag) return { flag, inline: false };
    if (arg.startsWith(`${flag}=`) || (flag === "-H" && arg.startsWith("-H") && arg.length > 2))
      return { flag, inline: true };
  }
  return undefined;
}

/** What a next command left out, said once for every hint that prints one. */
const LEFT_OUT = {
  credentials: "--token and -H are left out above: add them again, or set MSGSTAT_TOKEN",
  proxyCredentials:
    "the proxy's user name and password are left out of --proxy above: add them again, or give them in HTTPS_PROXY",
};

/** A --proxy value without its user name and password, or undefined when it carries none. */
function withoutUserInfo(value: string): string | undefined {
  try {
    const url = new URL(value.includes("://") ? value : `http://${value}`);
    if (url.username === "" && url.password === "") return undefined;
    url.username = "";
    url.password = "";
    return value.includes("://") ? url.href.replace(/\/$/, "") : url.host;
  } catch {
    return undefined;
  }
}

/**
 * The command line again, with `--<direction> <cursor>` in place of any cursor it had, without
 * credentials, and with a --proxy's user name and password taken out; `leftOut` says what went.
 */
export function nextCommand(
  argv: readonly string[],
  direction: "after" | "before",
  cursor: string,
): { line: string; leftOut?: string } {
  const kept: string[] = [];
  let operands: readonly string[] = [];
  const leftOut = new Set<string>();
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
      if (credential) leftOut.add(LEFT_OUT.credentials);
      if (!dropped.inline) i++;
      continue;
    }
    const proxy = takesFlag(arg, ["--proxy"]);
    const value = proxy === undefined ? undefined : proxy.inline ? arg.slice("--proxy=".length) : argv[i + 1];
    const bare = value === undefined ? undefined : withoutUserInfo(value);
    if (proxy !== undefined && bare !== undefined) {
      leftOut.add(LEFT_OUT.proxyCredentials);
      kept.push("--proxy", bare);
      if (!proxy.inline) i++;
      continue;
    }
    kept.push(arg);
  }
  const words = ["msgstat", ...kept, `--${direction}`, cursor, ...operands];
  return { line: words.map(shellWord).join(" "), leftOut: leftOut.size > 0 ? [...leftOut].join("; ") : undefined };
}
