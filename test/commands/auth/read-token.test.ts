// readToken at a terminal: the order of what it does to the terminal, which the prompt's whole point
// (no echo) depends on. The command's own scenarios are in run.test.ts.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readToken } from "../../../src/commands/auth/read-token.js";
import type { Io } from "../../../src/commands/context.js";

/** A terminal and a stderr that write what happens to them, in order, to one list. */
function terminal() {
  const events: string[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(raw: boolean) {
      events.push(`raw ${raw}`);
    },
  });
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      events.push(`write ${JSON.stringify(String(chunk))}`);
      done();
    },
  });
  const io = {
    stdout: new PassThrough(),
    stderr,
    stdoutIsTTY: false,
    stderrIsTTY: true,
    columns: 80,
    env: {},
    now: () => 0,
    signal: new AbortController().signal,
    stdin: () => stdin,
  } satisfies Io;
  return { io, stdin, events };
}

describe("readToken on a terminal", () => {
  it("turns echo off before it writes the prompt, and back on before the line break after it", async () => {
    const { io, stdin, events } = terminal();
    const token = readToken(io, false, "Token: ");
    stdin.write("tok-1234\r");
    expect(await token).toBe("tok-1234");
    expect(events).toEqual(["raw true", 'write "Token: "', "raw false", 'write "\\n"']);
  });
});
