// The token for `auth login`: from a pipe (--with-token), or typed at a terminal without echo.
// Never from argv, where ps and shell history would keep it.
import { InterruptedError, UsageError } from "../../core/errors.js";
import { checkHeaderValue } from "../../config/keys.js";
import type { Io } from "../context.js";

// A token is short; past this, stdin is not a token.
const MAX_TOKEN = 64 * 1024;

export async function readToken(io: Io, withToken: boolean, question: string): Promise<string> {
  const stdin = io.stdin?.();
  if (stdin?.isTTY === true) return checked(await promptHidden(stdin, io, question));
  if (!withToken || stdin === undefined) {
    throw new UsageError("auth login reads the token from standard input: pipe it in with --with-token").withHint(
      "For example: msgstat auth login --with-token < token.txt, or pass show msgstat | msgstat auth " +
        "login --with-token",
    );
  }
  let text = "";
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > MAX_TOKEN)
      throw new UsageError(`standard input holds more than ${MAX_TOKEN / 1024} KiB, which is not a token`);
  }
  return checked(text);
}

function checked(text: string): string {
  const token = text.trim();
  if (token === "") throw new UsageError("no token was given on standard input");
  if (/[\u0000-\u001f\u007f]/.test(token))
    throw new UsageError("the token holds line breaks or control characters: give the token alone, on one line");
  const problem = checkHeaderValue(token);
  if (problem !== undefined) throw new UsageError(`the token given ${problem}`);
  return token;
}

/** Reads one line from a terminal in raw mode, echoing nothing. Ctrl-C interrupts, Ctrl-D ends. */
function promptHidden(stdin: ReturnType<NonNullable<Io["stdin"]>>, io: Io, question: string): Promise<string> {
  // Echo off first: a key typed as soon as the prompt shows must not be echoed.
  stdin.setRawMode?.(true);
  io.stderr.write(question);
  return new Promise<string>((resolve, reject) => {
    let typed = "";
    const finish = (outcome: () => void) => {
      stdin.off("data", onData);
      io.signal.removeEventListener("abort", onAbort);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write("\n");
      outcome();
    };
    const onAbort = () => finish(() => reject(io.signal.reason));
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n") return finish(() => resolve(typed));
        if (char === "\u0003") return finish(() => reject(new InterruptedError("SIGINT")));
        if (char === "\u0004")
          return finish(() => (typed === "" ? reject(new UsageError("no token was typed")) : resolve(typed)));
        if (char === "\u007f" || char === "\b") typed = Array.from(typed).slice(0, -1).join("");
        else if (char >= " ") typed += char;
      }
    };
    io.signal.addEventListener("abort", onAbort, { once: true });
    stdin.on("data", onData);
    stdin.resume();
  });
}
