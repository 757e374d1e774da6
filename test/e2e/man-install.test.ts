// The package as users get it: `npm pack`, then `npm install -g` of the tarball into a temporary
// prefix. `man msgstat` must find and render the page (package.json `man`), and `msgstat help <topic>`
// must read the docs/ the tarball ships. Without man and groff this test fails rather than passing
// unchecked: .ci/run installs them (man-db, groff-base).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
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
    // Issue 21, defect 5: every document the shipped texts name is in the package.
    // The workshop's documents stay out: the contributors' guide and the benchmark.
    for (const named of ["CONTRIBUTING.md", "docs/bench.md"]) {
      expect(existsSync(path.join(root, named))).toBe(true);
      expect(listing).not.toContain(`package/${named}`);
    }
    for (const text of ["README.md", ...listing.filter((file) => /^package\/docs\//.test(file))]) {
      const shipped = execFileSync(
        "tar",
        ["xzf", tarball, "-O", text.startsWith("package/") ? text : `package/${text}`],
        {
          encoding: "utf8",
        },
      );
      for (const [named] of shipped.matchAll(/\b(?:docs\/[a-z-]+|README|CONTRIBUTING)\.md\b/g)) {
        expect(listing, `${text} names ${named}`).toContain(`package/${named}`);
      }
      // The README's screenshots are left out of the package on purpose (half a megabyte a user never
      // reads in a terminal); they must exist in the repository, where the README is read with them.
      for (const [named] of shipped.matchAll(/\bdocs\/images\/[a-z0-9-]+\.png\b/g)) {
        expect(existsSync(path.join(root, named)), `${text} names ${named}`).toBe(true);
        expect(listing).not.toContain(`package/${named}`);
      }
    }
    // No script npm runs when it installs the package (a `prepare` made npm warn on every install -g).
    const manifest = JSON.parse(
      execFileSync("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" }),
    ) as {
      scripts: Record<string, string>;
    };
    expect(Object.keys(manifest.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);

    const prefix = path.join(scratch, "prefix");
    const install = spawnSync(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--loglevel",
        "warn",
        tarball,
      ],
      { cwd: scratch, encoding: "utf8" },
    );
    expect(install.status).toBe(0);
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts|prepare/);

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
    for (const section of ["DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"]) {
      expect(text).toMatch(new RegExp(`^${section}$`, "m"));
    }
    expect(text.split("\n").filter((line) => line.length > 80 && !line.startsWith("         "))).toEqual([]);
    // Without a UTF-8 locale (cron, env -i), groff's ASCII device: no warning on stderr, nothing lost.
    const bare = { PATH: process.env.PATH, MANPATH: env.MANPATH, MANWIDTH: "80", MANPAGER: "cat" };
    const inAscii = spawnSync("man", ["msgstat"], { env: bare, encoding: "utf8" });
    expect({ status: inAscii.status, stderr: inAscii.stderr }).toEqual({ status: 0, stderr: "" });
    expect(inAscii.stdout.replace(/.\x08/g, "")).toBe(text);

    // The installed program reads its own docs/.
    const bin = path.join(prefix, "bin", "msgstat");
    expect(existsSync(bin)).toBe(true);
    const help = spawnSync(bin, ["help", "exit-codes"], { env: { ...env, COLUMNS: "80" }, encoding: "utf8" });
    expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: "" });
    expect(help.stdout.startsWith("Exit codes\n==========\n")).toBe(true);
    expect(readdirSync(path.join(prefix, "lib", "node_modules", "msgstat", "docs"))).toContain("exit-codes.md");
  });
});

describe("npm pack in a clone that never built", () => {
  it("builds dist/ itself (prepack), so the tarball holds the program and its man page", { timeout: 240_000 }, () => {
    // A copy of the sources without dist/, sharing node_modules (esbuild): as a fresh clone after npm install,
    // which no longer builds.
    const clone = path.join(scratchFolder("msgstat-clone-"), "msgstat");
    mkdirSync(clone);
    for (const part of [
      "package.json",
      "tsconfig.json",
      "README.md",
      "CONTRIBUTING.md",
      "bin",
      "scripts",
      "src",
      "docs",
    ])
      cpSync(path.join(root, part), path.join(clone, part), { recursive: true });
    symlinkSync(path.join(root, "node_modules"), path.join(clone, "node_modules"));
    expect(existsSync(path.join(clone, "dist"))).toBe(false);
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", clone], {
      cwd: clone,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    const listing = execFileSync("tar", ["tzf", path.join(clone, packed.split("\n").pop()!)], {
      encoding: "utf8",
    }).split("\n");
    for (const file of [
      "package/dist/cli.js",
      "package/dist/sandbox.js",
      "package/dist/msgstat.1",
      "package/bin/msgstat.js",
      "package/bin/process-io.js",
    ])
      expect(listing).toContain(file);
  });
});
