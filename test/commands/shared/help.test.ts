// Help a person reads at 80 columns: every line fits, the command's own options come before the
// global ones, and the exit codes line up. That every example runs as shown: e2e/help-examples.test.ts.
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../../src/render/width.js";
import { isGlobalOption } from "../../../src/commands/shared/global-options.js";
import { COMMANDS, helpOf, SUBCOMMANDS } from "../../support/help-texts.js";
import { runCli } from "../../support/run-cli.js";

const SERVICE_COMMANDS = SUBCOMMANDS.filter((command) => command.options.some(isGlobalOption)).map((command) =>
  command.name(),
);
const OTHER_COMMANDS = SUBCOMMANDS.map((command) => command.name()).filter((name) => !SERVICE_COMMANDS.includes(name));

describe.each([80, 160])("help at %i columns", (columns) => {
  it.each(COMMANDS.map((command) => [`msgstat ${command.join(" ")} --help`, command] as const))(
    "%s: no line wider than the terminal",
    async (_name, command) => {
      const help = await helpOf(command, columns);
      const wide = help.split("\n").filter((line) => displayWidth(line) > columns);
      expect(wide).toEqual([]);
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
  it.each(SERVICE_COMMANDS)("%s: its own options first, then the global ones under their own heading", async (name) => {
    const help = await helpOf([name], 80);
    const own = help.indexOf("\nOptions:\n");
    const global = help.indexOf("\nGlobal options:\n");
    expect(own).toBeGreaterThan(0);
    expect(global).toBeGreaterThan(own);
    expect(help.slice(own, global)).not.toContain("--base-url");
    expect(help.slice(global)).toContain("--base-url <url>");
  });

  it.each(OTHER_COMMANDS)("%s talks to no service and lists no global options", async (name) => {
    expect(await helpOf([name], 80)).not.toContain("Global options:");
  });

  it.each([
    ["help messages", ["help", "messages"], ["messages"]],
    // config, auth, stats and sandbox are help topics too: `msgstat help config` is the topic
    // (test/commands/help/help.test.ts), which ends by pointing at `msgstat config --help`.
    ["help completion", ["help", "completion"], ["completion"]],
    ["auth help login", ["auth", "help", "login"], ["auth", "login"]],
  ])("msgstat %s shows the same help as --help (the command is defined when named)", async (_name, asked, command) => {
    const viaHelp = await runCli(asked, { columns: 80 });
    expect({ code: viaHelp.code, stderr: viaHelp.stderr, stdout: viaHelp.stdout }).toEqual({
      code: 0,
      stderr: "",
      stdout: await helpOf(command, 80),
    });
  });

  it("the commands that talk to the service take the global options", () => {
    expect(SERVICE_COMMANDS).toEqual(["messages", "batch", "find", "message", "stats"]);
  });

  it("the network options and their variables are listed: --proxy, --ca-file, the proxy variables, NODE_EXTRA_CA_CERTS", async () => {
    const help = await helpOf([], 80);
    expect(help).toContain(
      '  --proxy <url>          HTTP proxy for every request, "" for none (default:\n                         HTTPS_PROXY, HTTP_PROXY; NO_PROXY applies)\n',
    );
    expect(help).toContain(
      "  --ca-file <pem>        certificates to trust besides the default ones, a PEM\n                         file (NODE_EXTRA_CA_CERTS too)\n",
    );
    const environment = help.split("\nEnvironment:\n")[1]!.split("\n\n")[0]!;
    expect(environment.match(/^ {2}\S.*?(?= {2})/gm)).toEqual([
      "  MSGSTAT_BASE_URL",
      "  MSGSTAT_TOKEN",
      "  MSGSTAT_PROFILE",
      "  MSGSTAT_CONFIG_DIR",
      "  MSGSTAT_TIMEOUT, MSGSTAT_RETRIES, MSGSTAT_TZ",
      "  MSGSTAT_PROXY, MSGSTAT_CA_FILE",
      "  HTTPS_PROXY, HTTP_PROXY, NO_PROXY",
      "  NODE_EXTRA_CA_CERTS",
      "  NO_COLOR, FORCE_COLOR",
      "  COLUMNS",
    ]);
    for (const name of ["messages", "stats"])
      expect((await helpOf([name], 80)).split("\nGlobal options:\n")[1]).toMatch(/--proxy <url>[\s\S]*--ca-file <pem>/);
  });

  it("the exit codes are a table: every description starts in the same column", async () => {
    const help = await helpOf([], 80);
    const table = help.split("\nExit codes:\n")[1]!.split("\n\n")[0]!.split("\n");
    const rows = table.filter((line) => /^ {2}\d+ +\S/.test(line));
    expect(rows.map((line) => line.trim().split(/\s+/)[0])).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "130",
      "143",
    ]);
    const columns = new Set(rows.map((line) => /^ {2}\d+ +/.exec(line)![0].length));
    expect([...columns]).toHaveLength(1);
    // A wrapped description continues under its own first word.
    const continued = table.filter((line) => /^ +\S/.test(line) && !/^ {2}\d/.test(line));
    for (const line of continued) expect(/^ +/.exec(line)![0].length).toBe([...columns][0]);
  });
});
