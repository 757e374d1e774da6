// `msgstat help environment` (docs/environment.md) names every environment variable msgstat reads, and
// no MSGSTAT_ variable that it does not: the source and the executable are searched for the names.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.[cm]?[jt]s$/.test(entry.name) ? [file] : [];
  });
}

/** Every variable name the program reads: each MSGSTAT_ name, env.NAME, env["NAME"], and the proxy variables' lists (config/network.ts). */
function namesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of [...sourceFiles(path.join(ROOT, "src")), ...sourceFiles(path.join(ROOT, "bin"))]) {
    const text = readFileSync(file, "utf8");
    for (const [name] of text.matchAll(/\bMSGSTAT_[A-Z0-9_]+/g)) names.add(name);
    for (const match of text.matchAll(/\benv(?:\.|\[")([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1]!);
    for (const match of text.matchAll(/(?:firstSet\(env, |forScheme\()\[([^\]]*)\]/g))
      for (const [, name] of match[1]!.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"/g)) names.add(name!);
  }
  return names;
}

/** The names in the first column of the topic's tables. */
function namesDocumented(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path.join(ROOT, "docs", "environment.md"), "utf8").split("\n")) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1];
    if (first !== undefined) for (const [, name] of first.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) names.add(name!);
  }
  return names;
}

describe("msgstat help environment", () => {
  it("names every variable msgstat reads", () => {
    const read = namesRead();
    // The search finds what it should: the settings' variables, the proxies', and the executable's.
    expect([...read]).toEqual(expect.arrayContaining(["MSGSTAT_TIMEOUT", "HTTPS_PROXY", "no_proxy", "COLUMNS"]));
    const documented = namesDocumented();
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it("names no MSGSTAT_ variable that msgstat does not read", () => {
    const read = namesRead();
    expect([...namesDocumented()].filter((name) => name.startsWith("MSGSTAT_") && !read.has(name)).sort()).toEqual([]);
  });
});
