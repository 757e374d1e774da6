// The rule for the config folder and its files (issue 25, item 11), for a user other than root: their own files
// and root's are trusted unless group or others can write them; another user's never.
import { describe, expect, it } from "vitest";
import { untrusted } from "../../src/config/file-safety.js";

const ME = 1000;

describe("untrusted", () => {
  it.each([
    ["mine, 0600", { uid: ME, mode: 0o100600 }, undefined],
    ["mine, 0644 (others may read config.json, not change it)", { uid: ME, mode: 0o100644 }, undefined],
    ["root's, 0755 folder", { uid: 0, mode: 0o040755 }, undefined],
    ["mine, 0664", { uid: ME, mode: 0o100664 }, "its mode 0664 lets its group change it"],
    ["mine, 0646", { uid: ME, mode: 0o100646 }, "its mode 0646 lets others change it"],
    ["root's, 0777", { uid: 0, mode: 0o040777 }, "its mode 0777 lets others change it"],
    ["another user's, 0600", { uid: 1001, mode: 0o100600 }, "it belongs to another user (uid 1001)"],
  ])("%s", (_name, stats, reason) => {
    const problem = untrusted("the config file", "/c/config.json", stats, ME);
    expect(problem?.reason).toBe(
      reason === undefined ? undefined : `refusing to use the config file /c/config.json: ${reason}`,
    );
  });

  it("says what to run: chown (as root) for another user's file, chmod go-w for one others can write", () => {
    expect(untrusted("the config file", "/c/config.json", { uid: 1001, mode: 0o100600 }, ME)?.hint).toMatch(
      /^Only your own files are trusted there, as ssh does; if it is yours: chown \S+ \/c\/config\.json \(as root\)$/,
    );
    expect(untrusted("the config file", "/c/config.json", { uid: ME, mode: 0o100666 }, ME)?.hint).toBe(
      "Let only its owner write it, as ssh asks: chmod go-w /c/config.json",
    );
  });

  it("trusts what Windows gives (no uid: its ACLs are its own)", () => {
    expect(untrusted("the config file", "C:\\c\\config.json", { uid: 0, mode: 0o100666 }, null)).toBeUndefined();
  });
});
