// Help a person reads at 80 columns: about one screen for --help (its most used options, the global
// ones named, examples, where to read the rest), every option in the full help (msgstat help
// <command>), every line within the width. That every example runs as shown: e2e/help-examples.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/terminal/width.js";
import { isGlobalOption } from "../../../src/commands/shared/global-options.js";
import { SETTING_KEYS } from "../../../src/config/keys.js";
import { COMMANDS, EVERY_COMMAND, fullHelpOf, helpOf, SUBCOMMANDS } from "../../support/help-texts.js";
import { runCli } from "../../support/run-cli.js";

const SERVICE_COMMANDS = SUBCOMMANDS.filter((command) => command.options.some(isGlobalOption)).map((command) =>
  command.name(),
);
const OTHER_COMMANDS = SUBCOMMANDS.map((command) => command.name()).filter((name) => !SERVICE_COMMANDS.includes(name));

const named = (commands: string[][]) => commands.map((command) => [`msgstat ${command.join(" ")}`, command] as const);

describe.each([80, 160])("help at %i columns", (columns) => {
  it.each(named(EVERY_COMMAND))(
    "%s --help and its full help: no line wider than the terminal",
    async (_name, command) => {
      for (const help of [await helpOf(command, columns), await fullHelpOf(command, columns)]) {
        const wide = help.split("\n").filter((line) => displayWidth(line) > columns);
        expect(wide).toEqual([]);
      }
    },
  );

  it.each(COMMANDS.map((command) => [`msgstat ${command.join(" ")} --help`, command] as const))(
    "%s: printable ASCII only, so its length is its width (shared/help.ts measures so)",
    async (_name, command) => {
      const help = await helpOf(command, columns);
      expect(help.split("\n").filter((line) => !/^[\x20-\x7e]*$/.test(line))).toEqual([]);
    },
  );
});

describe("help layout", () => {
  it.each(SERVICE_COMMANDS)(
    "%s, full help: its own options first, then the global ones under their own heading",
    async (name) => {
      const help = await fullHelpOf([name], 80);
      const own = help.indexOf("\nOptions:\n");
      const global = help.indexOf("\nGlobal options:\n");
      expect(own).toBeGreaterThan(0);
      expect(global).toBeGreaterThan(own);
      expect(help.slice(own, global)).not.toContain("--base-url");
      expect(help.slice(global)).toContain("--base-url <url>");
    },
  );

  it.each(OTHER_COMMANDS)("%s talks to no service and lists no global options", async (name) => {
    expect(await helpOf([name], 80)).not.toContain("Global options");
  });

  it.each([
    // config, auth, stats and sandbox are help topics too: `msgstat help config` is the topic, then
    // this (test/commands/help/help.test.ts).
    ["help messages", ["help", "messages"], ["messages"], fullHelpOf],
    ["help completion", ["help", "completion"], ["completion"], fullHelpOf],
    ["auth help login", ["auth", "help", "login"], ["auth", "login"], helpOf],
  ])("msgstat %s: the command's help (it is defined when named)", async (_name, asked, command, expected) => {
    const viaHelp = await runCli(asked, { columns: 80 });
    expect({ code: viaHelp.code, stderr: viaHelp.stderr, stdout: viaHelp.stdout }).toEqual({
      code: 0,
      stderr: "",
      stdout: await expected(command, 80),
    });
  });

  it("the commands that talk to the service take the global options", () => {
    expect(SERVICE_COMMANDS).toEqual(["messages", "batch", "find", "message", "stats", "export"]);
  });

  it("the network options are in the full help of the program and of each command that talks to the service", async () => {
    const help = await fullHelpOf([], 80);
    expect(help).toContain(
      '  --proxy <url>          HTTP proxy for every request, "" for none (default:\n                         HTTPS_PROXY, HTTP_PROXY; NO_PROXY applies)\n',
    );
    expect(help).toContain(
      "  --ca-file <pem>        certificates to trust besides the default ones, a PEM\n                         file (NODE_EXTRA_CA_CERTS too)\n",
    );
    for (const name of ["messages", "stats"])
      expect((await fullHelpOf([name], 80)).split("\nGlobal options:\n")[1]).toMatch(
        /--proxy <url>[\s\S]*--ca-file <pem>/,
      );
  });
});

// --help is about one screen at 80 columns; the rest is a command away.
describe("config --help", () => {
  it("names every key config set takes (campaigns, country-code and quiet were once missing)", async () => {
    const keys = (await helpOf(["config"], 80)).split("\nKeys:\n")[1]!.split("\n\n")[0]!.replace(/\s+/g, " ");
    for (const { name } of SETTING_KEYS) expect(keys, name).toMatch(new RegExp(`(^| )${name}(,| and|$)`));
    expect(keys).toContain("headers.<Name>");
  });
});

describe("help length", () => {
  const lines = (text: string) => text.trimEnd().split("\n").length;

  it.each(named(EVERY_COMMAND))("%s --help: at most 40 lines at 80 columns", async (_name, command) => {
    expect(lines(await helpOf(command, 80))).toBeLessThanOrEqual(40);
  });

  it("the full help of the program and of each command says at least as much as its --help", async () => {
    for (const command of COMMANDS) {
      const brief = lines(await helpOf(command, 80));
      const full = lines(await fullHelpOf(command, 80));
      expect(full, `msgstat ${command.join(" ")}`).toBeGreaterThanOrEqual(brief);
    }
    for (const name of ["messages", "batch", "find", "stats"])
      expect(lines(await fullHelpOf([name], 80)), name).toBeGreaterThan(90);
  });

  it.each(["messages", "batch", "find"])("%s --help: the -o line names .parquet and .gz", async (name) => {
    expect(await helpOf([name], 80)).toMatch(
      /\n {2}-o, --output <file> +write to a file: \.csv, \.json, \.jsonl, \.parquet, \+\.gz\n/,
    );
  });

  it("--help names every global option in one paragraph, pointing to msgstat help options", async () => {
    const help = await helpOf(["messages"], 80);
    expect(help).toContain(
      "\nGlobal options (msgstat help options):\n" +
        "  --base-url, --token, --header, --timeout, --retries, --proxy, --ca-file, --tz,\n" +
        "  --profile, --no-color, --verbose, --quiet, --allow-insecure-http\n",
    );
    expect(help).not.toContain("--page-size");
    expect(help).toContain("\nMore:\n  msgstat help messages (every option), msgstat help fields");
    const full = await fullHelpOf(["messages"], 80);
    for (const flag of ["--page-size", "--after", "--before", "--format", "--bom", "--no-formula-guard", "--base-url"])
      expect(full).toContain(`  ${flag} `);
    expect(full).toContain("\nFields (--fields):\n");
  });

  it("every global option is in docs/options.md, the topic --help points to", async () => {
    const topic = readFileSync(new URL("../../../docs/options.md", import.meta.url), "utf8");
    const program = SUBCOMMANDS[0]!.parent!;
    const flags = program.options.filter(isGlobalOption).map((option) => option.flags);
    expect(flags.length).toBeGreaterThan(10);
    for (const flags_ of flags) expect(topic).toContain(`| \`${flags_}\` |`);
  });

  it("a help text that names exit codes names them all, or points to msgstat help exit-codes", async () => {
    for (const command of EVERY_COMMAND)
      for (const help of [await helpOf(command, 80), await fullHelpOf(command, 80)]) {
        const text = help.replace(/\s+/g, " ");
        if (/\bexit \d/.test(text))
          expect(text).toMatch(/msgstat help exit-codes|0,? 1,? 2,? 3,? 4,? 5,? 6,? 7,? (and )?8/);
      }
  });
});
