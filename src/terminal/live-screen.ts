// A screen redrawn in place for `stats --watch`: on a terminal, each frame replaces the last in the
// alternate screen (as watch(1) and top do), so a long watch never fills the scrollback; when the watch
// ends the normal screen comes back and the last frame is printed there once, to keep. Not on a
// terminal, frames are simply written one after another.
import type { Writable } from "node:stream";

const ENTER = "\x1b[?1049h\x1b[?25l";
const LEAVE = "\x1b[?25h\x1b[?1049l";
const HOME_AND_CLEAR = "\x1b[H\x1b[2J";

export class LiveScreen {
  private entered = false;
  private last = "";

  constructor(
    private readonly stream: Writable,
    private readonly terminal: boolean,
  ) {}

  /** `whole`: what to keep on the normal screen if this is the last frame (a frame may be cut to fit). */
  draw(frame: string, whole = frame): void {
    this.last = whole;
    if (!this.terminal) {
      this.stream.write(frame);
      return;
    }
    if (!this.entered) {
      this.entered = true;
      this.stream.write(ENTER);
    }
    this.stream.write(HOME_AND_CLEAR + frame);
  }

  /** Leaves the alternate screen (if entered) and prints the last frame on the normal one. */
  close(): void {
    if (!this.entered) return;
    this.entered = false;
    this.stream.write(LEAVE + this.last);
  }
}
