// Text for a terminal and a shell: a word quoted so a POSIX shell reads it back as it was.
import { describe, expect, it } from "vitest";
import { shellWord } from "../../src/core/text.js";

describe("shellWord", () => {
  it("quotes a cursor holding shell syntax", () => {
    expect(shellWord("WyJj-YW_1=")).toBe("WyJj-YW_1=");
    expect(shellWord("x $(touch /tmp/p)|3")).toBe("'x $(touch /tmp/p)|3'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("a\u001b[2Jb")).toBe("'a\\x1b[2Jb'");
  });
});
