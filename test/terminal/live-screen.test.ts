import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LiveScreen } from "../../src/terminal/live-screen.js";

function captured(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

describe("LiveScreen", () => {
  it("on a terminal redraws each frame in the alternate screen and keeps the last one on the normal screen", () => {
    const out = captured();
    const screen = new LiveScreen(out.stream, true);
    screen.draw("round 1\n");
    screen.draw("round 2\n");
    screen.close();
    expect(out.text()).toBe(
      "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2Jround 1\n\x1b[H\x1b[2Jround 2\n\x1b[?25h\x1b[?1049lround 2\n",
    );
  });

  it("piped writes frames one after another, with no escapes", () => {
    const out = captured();
    const screen = new LiveScreen(out.stream, false);
    screen.draw("a\n");
    screen.draw("b\n");
    screen.close();
    expect(out.text()).toBe("a\nb\n");
  });

  it("closing before any frame writes nothing", () => {
    const out = captured();
    new LiveScreen(out.stream, true).close();
    expect(out.text()).toBe("");
  });
});
