// Global options are declared once; a command's own option of the same name is never shadowed by a
// global (`msgstat sandbox --token` is the sandbox's token, not the one msgstat sends).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { buildProgram, main } from "../../../src/cli.js";
import { globalOptionsOf, isGlobalOption } from "../../../src/commands/shared/global-options.js";
import type { Io } from "../../../src/commands/context.js";
import { runCli } from "../../support/run-cli.js";

function io(signal = new AbortController().signal): Io & { firstLine: Promise<string> } {
  const stdout = new PassThrough();
  let text = "";
  const firstLine = new Promise<string>((resolve) => {
    stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes("\n")) resolve(text.split("\n")[0]!);
    });
  });
  return {
    stdout,
    stderr: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: 80,
    env: {},
    now: () => Date.now(),
    signal,
    firstLine,
  };
}

/** The program with every action replaced, so parsing a command line runs nothing (its hooks still run: hence async). */
async function parsedBy(argv: string[]): Promise<CommandUnknownOpts> {
  const program = await buildProgram(io());
  let ran: CommandUnknownOpts | undefined;
  for (const command of program.commands)
    command.action((...args: unknown[]) => void (ran = args.at(-1) as CommandUnknownOpts));
  await program.parseAsync(argv, { from: "user" });
  if (!ran) throw new Error(`no command ran for ${argv.join(" ")}`);
  return ran;
}

/** Placeholder values for a command's required arguments. */
const argumentsOf = (command: CommandUnknownOpts) =>
  command.registeredArguments.filter((argument) => argument.required).map((_, i) => `arg-${i}`);

const WHOLE_PROGRAM = await buildProgram(io());

describe("a command's own option with a global's name", () => {
  const program = WHOLE_PROGRAM;
  // The program itself takes every global option.
  const globals = new Set(program.options.filter(isGlobalOption).map((option) => option.attributeName()));
  const collisions = program.commands.flatMap((command) =>
    command.options
      .filter((option) => !isGlobalOption(option) && globals.has(option.attributeName()))
      .map((option) => [command.name(), option.long!, option] as const),
  );

  it("exists today (the sandbox's --token), so the check below is not empty", () => {
    expect(collisions.map(([name, flag]) => `${name} ${flag}`)).toContain("sandbox --token");
  });

  // Every such option of every command, found from the program itself: a new one is checked as it lands.
  it.each(collisions.map(([name, flag, option]) => [`${name} ${flag}`, name, flag, option] as const))(
    "%s is the command's own, not the global",
    async (_label, name, flag, option) => {
      const command = program.commands.find((candidate) => candidate.name() === name)!;
      const value = option.required || option.optional ? (option.argChoices?.[0] ?? "7") : undefined;
      const parsed = await parsedBy([name, ...argumentsOf(command), flag, ...(value === undefined ? [] : [value])]);
      const expected =
        value === undefined ? !option.negate : option.parseArg ? option.parseArg(value, undefined) : value;
      expect(parsed.opts()[option.attributeName()]).toEqual(expected);
      expect(globalOptionsOf(parsed)[option.attributeName() as keyof ReturnType<typeof globalOptionsOf>]).not.toEqual(
        expected,
      );
    },
  );

  it("a command that takes the global options cannot also declare one of their names (commander refuses the program)", () => {
    for (const command of program.commands) {
      const names = command.options.map((option) => option.long);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});

describe("global options before and after the command's name", () => {
  it("after the name wins over before it; a default applies only when neither is given", async () => {
    const parsed = await parsedBy([
      "--timeout",
      "5",
      "--token",
      "before",
      "messages",
      "c",
      "--token",
      "after",
      "--retries",
      "1",
    ]);
    expect(globalOptionsOf(parsed)).toMatchObject({ timeout: 5, token: "after", retries: 1 });
    expect(globalOptionsOf(await parsedBy(["messages", "c"]))).toMatchObject({ timeout: 30, retries: 3, color: true });
    expect(globalOptionsOf(await parsedBy(["messages", "c", "--no-color", "-H", "A: 1", "-H", "B: 2"]))).toMatchObject({
      color: false,
      header: ["A: 1", "B: 2"],
    });
  });

  it("the sandbox takes none of them after its name", async () => {
    const sandbox = (await buildProgram(io())).commands.find((command) => command.name() === "sandbox")!;
    expect(sandbox.options.filter((option) => isGlobalOption(option))).toEqual([]);
  });
});

describe("msgstat sandbox --token s3cret", () => {
  it("answers 401 without the token and 200 with it, over loopback", async () => {
    const controller = new AbortController();
    const run = io(controller.signal);
    const exit = main(["sandbox", "--token", "s3cret", "--port", "0", "--messages", "10"], run);
    try {
      const url = await run.firstLine;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const path = `${url}/campaigns/cmp-otp-alerts/messages?limit=1`;
      expect((await fetch(path)).status).toBe(401);
      expect((await fetch(path, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(path, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
  });

  it("given before the command's name, where it is msgstat's own token, it is refused rather than start a sandbox that answers anyone", async () => {
    const result = await runCli(["--token", "s3cret", "sandbox", "--port", "0", "--messages", "10"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: --token before sandbox is the token msgstat sends to a service, not one the sandbox requires\n  To make the sandbox require a token, put it after the command's name: msgstat sandbox --token <token>\n",
    });
  });
});
