// Issue 25, a suspected item decided: COLUMNS is a width only as a positive whole number; -5 is ignored as abc
// and 0 are (it was taken as the narrowest width), and the terminal's width, else 80, is used.
import { describe, expect, it } from "vitest";
import { runBin } from "../support/run-cli.js";

describe("COLUMNS", () => {
  it("-5, abc and 0 are ignored alike; 100 is a width", async () => {
    const help = (columns?: string) =>
      runBin(["messages", "--help"], { env: columns === undefined ? {} : { COLUMNS: columns } });
    const unset = await help();
    expect(unset.code).toBe(0);
    for (const ignored of ["-5", "abc", "0", "", "2.5"])
      expect(await help(ignored), `COLUMNS=${ignored}`).toEqual(unset);
    const wide = await help("100");
    expect(wide.stdout).not.toBe(unset.stdout);
    expect(Math.max(...wide.stdout.split("\n").map((line) => line.length))).toBeGreaterThan(80);
  });
});
