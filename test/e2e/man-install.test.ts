// The package as users get it: `npm pack`, then `npm install -g` of the tarball into a temporary
// prefix. `man msgstat` must find and render the page (package.json `man`), and `msgstat help <topic>`
// must read the docs/ the tarball ships. Without man and groff this test fails rather than passing
// unchecked: .ci/run installs them (man-db, groff-base).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scratchFolder } from "../support/scratch.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function found(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
}

describe("npm install -g of the packed tarball", () => {
  it("installs the man page where man finds it, and the docs msgstat help reads", { timeout: 240_000 }, () => {
    for (const tool of ["man", "groff"]) {
      expect(found(tool), `${tool} is not installed here (.ci/run installs man-db and groff-base)`).toBe(true);
    }
    const scratch = scratchFolder("msgstat-man-");
    // dist/ (with dist/msgstat.1) was built by the tests' global setup: packing does not build again,
    // which would replace dist/ under the other test files running now.
    const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], {
      cwd: root,
      encoding: "utf8",
    }).trim();
    const tarball = path.join(scratch, packed.split("\n").pop()!);
    const listing = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n");
    for (const file of ["package/dist/msgstat.1", "package/docs/config.md", "package/docs/exit-codes.md"]) {
      expect(listing).toContain(file);
    }

    const prefix = path.join(scratch, "prefix");
    execFileSync(
      "npm",
      ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--prefer-offline", "--silent", tarball],
      { cwd: scratch, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );

    const env = { ...process.env, MANPATH: path.join(prefix, "share", "man"), MANWIDTH: "80", MANPAGER: "cat" };
    const where = spawnSync("man", ["-w", "msgstat"], { env, encoding: "utf8" });
    expect({ status: where.status, stderr: where.stderr }).toEqual({ status: 0, stderr: "" });
    // npm links the page into <prefix>/share/man/man1; man names the file the link leads to.
    const installed = realpathSync(path.join(prefix, "lib", "node_modules", "msgstat", "dist", "msgstat.1"));
    expect(realpathSync(path.join(prefix, "share", "man", "man1", "msgstat.1"))).toBe(installed);
    expect(realpathSync(where.stdout.trim())).toBe(installed);

    const shown = spawnSync("man", ["msgstat"], { env, encoding: "utf8" });
    expect(shown.status).toBe(0);
    const text = shown.stdout.replace(/.\x08/g, ""); // overstrike bold, should a man still use it
    expect(text).toMatch(/^MSGSTAT\(1\) +User Commands +MSGSTAT\(1\)$/m);
    expect(text).toContain("msgstat - inspect the delivery status of SMS campaigns");
    for (const section of ["DESCRIPTION", "COMMANDS", "CONFIG", "EXIT-CODES", "SANDBOX", "SEE ALSO"]) {
      expect(text).toMatch(new RegExp(`^${section}$`, "m"));
    }
    expect(text.split("\n").filter((line) => line.length > 80 && !line.startsWith("         "))).toEqual([]);

    // The installed program reads its own docs/.
    const bin = path.join(prefix, "bin", "msgstat");
    expect(existsSync(bin)).toBe(true);
    const help = spawnSync(bin, ["help", "exit-codes"], { env: { ...env, COLUMNS: "80" }, encoding: "utf8" });
    expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: "" });
    expect(help.stdout.startsWith("Exit codes\n==========\n")).toBe(true);
    expect(readdirSync(path.join(prefix, "lib", "node_modules", "msgstat", "docs"))).toContain("exit-codes.md");
  });
});
