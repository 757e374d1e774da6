// A flag that several commands take with one meaning is declared once (in src/commands/shared/) and
// reused, so its help and its checks cannot drift apart; the source is searched for declarations.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const COMMANDS = fileURLToPath(new URL("../../../src/commands", import.meta.url));

// Flags of one name whose meaning differs by command: declared by each, with its own help.
const MEANING_DIFFERS = [
  "--all", // every message of a listing; find's default
  "--csv", // a listing as CSV; one table of the stats report
  "--every", // --follow's, --watch's and --wait's polling, with their own bounds
  "--fields", // the listing's, whose help lists them; find's points there
  "--format", // a listing's, the stats report's and export's formats
  "--json", // a listing's array, the report's figures, the message as sent
  "--limit", // 50 in a listing's table; every match for find
  "--partial", // several campaigns of messages; the campaigns find looks in
  "--token", // the sandbox's own token, and the one sent to the service
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : entry.name.endsWith(".ts") ? [file] : [];
  });
}

/** Each long flag declared (option("--x", ...), new Option("--x ..."), textOption("-o, --x <v>", ...)), and where. */
function declarations(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const file of sourceFiles(COMMANDS)) {
    const text = readFileSync(file, "utf8");
    for (const [, flag] of text.matchAll(
      /\b(?:option|Option|[a-z][A-Za-z]*Option)\(\s*"(?:-[a-zA-Z], )?(--[a-z][a-z-]*)[^"]*"/g,
    ))
      where.set(flag!, [...(where.get(flag!) ?? []), path.relative(COMMANDS, file)]);
  }
  return where;
}

describe("flags several commands share", () => {
  it("are declared once; only flags whose meaning differs by command are declared by each", () => {
    const found = declarations();
    // The search finds declarations: the shared ones, and those of one command.
    expect(found.get("--campaigns-file")).toEqual(["shared/campaign-ids.ts"]);
    expect(found.get("--status")).toEqual(["shared/filters.ts"]);
    expect(found.get("--max-failure-rate")).toEqual(["stats/flags.ts"]);
    const several = [...found].filter(([, files]) => files.length > 1).map(([flag]) => flag);
    expect(several.sort()).toEqual(MEANING_DIFFERS);
  });
});
