// `msgstat help <topic>`: every topic of docs/ at 80 and 160 columns, a command's help, unknown topics.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOPICS } from "../../../src/commands/help/topics.js";
import { fullHelpOf } from "../../support/help-texts.js";
import { runCli } from "../../support/run-cli.js";

const docs = new URL("../../../docs/", import.meta.url);
const markdownOf = (topic: string) => readFileSync(new URL(`${topic}.md`, docs), "utf8");

/** The lines of the topic's code blocks, as the help shows them (indented by two). */
function codeLines(markdown: string): Set<string> {
  const lines = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (fenced) lines.add(`  ${line}`);
  }
  return lines;
}

/** The topic's headings: `# ` lines outside code blocks (a shell comment in one is not a heading). */
function headings(markdown: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && /^#+ /.test(line)) found.push(line);
  }
  return found;
}

const width = (line: string) => [...line].length;

describe("msgstat help <topic>", () => {
  it("has a docs/ file for every topic the issue names, and more", () => {
    const names = TOPICS.map((topic) => topic.name);
    for (const name of ["config", "auth", "proxy", "formats", "fields", "exit-codes", "environment"])
      expect(names).toContain(name);
    for (const name of ["statuses", "dates", "stats", "security", "sandbox", "live-modes", "options"])
      expect(names).toContain(name);
  });

  for (const { name } of TOPICS) {
    for (const columns of [80, 160]) {
      it(`${name} at ${columns} columns: every heading, no line wider outside code blocks`, async () => {
        const markdown = markdownOf(name);
        const { code, stdout, stderr } = await runCli(["help", name], { columns });
        expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
        const code_ = codeLines(markdown);
        const tooWide = stdout.split("\n").filter((line) => width(line) > columns && !code_.has(line));
        expect(tooWide).toEqual([]);
        // Nothing of the file is lost: each heading, and each code line, is in the output.
        const shown = stdout.split("\n");
        for (const heading of headings(markdown)) {
          const text = heading.replace(/^#+ /, "").replace(/[`*]/g, "");
          expect(shown).toContain(text);
        }
        for (const line of code_) expect(shown).toContain(line.trimEnd() === "" ? "" : line);
        expect(stdout).not.toMatch(/\x1b/);
      });
    }
  }

  for (const { name } of TOPICS) {
    it(`${name} at 80 columns: no line over 80 characters, code blocks included`, async () => {
      const { code, stdout } = await runCli(["help", name], { columns: 80 });
      expect(code).toBe(0);
      expect(stdout.split("\n").filter((line) => width(line) > 80)).toEqual([]);
    });
  }

  it("exit-codes at 80 columns, exactly", async () => {
    const { code, stdout } = await runCli(["help", "exit-codes"], { columns: 80 });
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "Exit codes",
      "==========",
      "",
      "Every command ends with one of these codes; a script or a cron job can act on",
      "them (msgstat help formats for what -o leaves behind on failure).",
      "",
      "code  meaning",
      "----  --------------------------------------------------------------------------",
      "0     success, an empty result included",
      "",
      "1     the service failed, was unreachable, or sent a response msgstat cannot",
      "      read; or the output could not be written",
      "",
      "2     usage error: nothing was sent (also: the service refused an",
      "      --after/--before cursor with HTTP 400, as one of another listing or query)",
      "",
      "3     not found (HTTP 404)",
      "",
      "4     not authorised (HTTP 401 or 403)",
      "",
      "5     stats --max-failure-rate or --max-time-to-final exceeded (the report is",
      "      still written; with --watch, the first round above it)",
      "",
      "6     message --wait: the message ended in failure (it is printed)",
      "",
      "7     message --wait: the message was not final when --wait-timeout ran out (its",
      "      last state is printed)",
      "",
      "8     stats --max-failure-rate or --max-time-to-final not checked: no message",
      "      was final (an empty window, only created ones); the report is still",
      "      written",
      "",
      "130   interrupted (Ctrl-C); 143 for SIGTERM",
      "",
      '"Final" means latestStatus is success or failure: the statuses after which',
      "nothing more happens to a message. created (an attempt under way, or another",
      "still to come) and any status the reference does not list are not final.",
      "",
      "With several campaigns (messages a b c, find, stats a b c), a campaign that",
      "cannot be read does not stop the others: the run then exits with the code of the",
      "cause, 3 when the incomplete campaigns were not found, 4 when not authorised, 1",
      "otherwise or when the causes differ. The last line on stderr says how many",
      "campaigns were complete. A campaign cut short by --limit is not incomplete",
      "(msgstat help many-campaigns). When every campaign was counted, stats over",
      "several exits 5 when any campaign or the total is above --max-failure-rate or",
      "--max-time-to-final, else 8 when any could not be checked.",
      "",
      "Errors are one or two plain lines on stderr: what failed, the HTTP status, the",
      "server's own message when it sent one, and what to try: after a 404, which id to",
      "check (the campaign id; the campaign and batch ids; or that the message belongs",
      "to another campaign). No stack trace unless --verbose.",
      "",
      "In a script:",
      "",
      "  msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5% \\",
      "    --json > report.json",
      "  code=$?",
      "  case $code in",
      "    0) ;;                                  # within the threshold",
      '    5) echo "failure rate above 5 %" ;;    # the report is still written',
      "    # an empty window: 0 here if that is fine",
      '    8) echo "no final message to measure" ;;',
      '    *) echo "msgstat failed: exit $code" ;;',
      "  esac",
      "",
    ]);
  });

  it("exit-codes at 160 columns, exactly: the table's rows on one line each", async () => {
    const { code, stdout } = await runCli(["help", "exit-codes"], { columns: 160 });
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "Exit codes",
      "==========",
      "",
      "Every command ends with one of these codes; a script or a cron job can act on them (msgstat help formats for what -o leaves behind on failure).",
      "",
      "code  meaning",
      `----  ${"-".repeat(147)}`,
      "0     success, an empty result included",
      "1     the service failed, was unreachable, or sent a response msgstat cannot read; or the output could not be written",
      "2     usage error: nothing was sent (also: the service refused an --after/--before cursor with HTTP 400, as one of another listing or query)",
      "3     not found (HTTP 404)",
      "4     not authorised (HTTP 401 or 403)",
      "5     stats --max-failure-rate or --max-time-to-final exceeded (the report is still written; with --watch, the first round above it)",
      "6     message --wait: the message ended in failure (it is printed)",
      "7     message --wait: the message was not final when --wait-timeout ran out (its last state is printed)",
      "8     stats --max-failure-rate or --max-time-to-final not checked: no message was final (an empty window, only created ones); the report is still written",
      "130   interrupted (Ctrl-C); 143 for SIGTERM",
      "",
      '"Final" means latestStatus is success or failure: the statuses after which nothing more happens to a message. created (an attempt under way, or another still to',
      "come) and any status the reference does not list are not final.",
      "",
      "With several campaigns (messages a b c, find, stats a b c), a campaign that cannot be read does not stop the others: the run then exits with the code of the",
      "cause, 3 when the incomplete campaigns were not found, 4 when not authorised, 1 otherwise or when the causes differ. The last line on stderr says how many",
      "campaigns were complete. A campaign cut short by --limit is not incomplete (msgstat help many-campaigns). When every campaign was counted, stats over several",
      "exits 5 when any campaign or the total is above --max-failure-rate or --max-time-to-final, else 8 when any could not be checked.",
      "",
      "Errors are one or two plain lines on stderr: what failed, the HTTP status, the server's own message when it sent one, and what to try: after a 404, which id to",
      "check (the campaign id; the campaign and batch ids; or that the message belongs to another campaign). No stack trace unless --verbose.",
      "",
      "In a script:",
      "",
      "  msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5% \\",
      "    --json > report.json",
      "  code=$?",
      "  case $code in",
      "    0) ;;                                  # within the threshold",
      '    5) echo "failure rate above 5 %" ;;    # the report is still written',
      "    # an empty window: 0 here if that is fine",
      '    8) echo "no final message to measure" ;;',
      '    *) echo "msgstat failed: exit $code" ;;',
      "  esac",
      "",
    ]);
  });

  it("environment at 80 columns: its tables wrap inside their columns", async () => {
    const { stdout } = await runCli(["help", "environment"], { columns: 80 });
    const lines = stdout.split("\n");
    const start = lines.indexOf("variable              meaning");
    expect(lines.slice(start, start + 6)).toEqual([
      "variable              meaning",
      "--------------------  ----------------------------------------------------------",
      "MSGSTAT_BASE_URL      the service's base URL, as --base-url (it may carry a path",
      "                      prefix)",
      "",
      "MSGSTAT_TOKEN         the bearer token: for CI and scripts; safer than --token,",
    ]);
  });

  it("a topic that is also a command: the topic, then every option of the command", async () => {
    const { stdout } = await runCli(["help", "stats"], { columns: 80 });
    expect(stdout.startsWith("msgstat stats\n=============\n")).toBe(true);
    const full = await fullHelpOf(["stats"], 80);
    expect(stdout.endsWith(`\n\n${full}`)).toBe(true);
    expect(full).toContain("\n  --concurrency <n> ");
  });

  it("config, a topic and a command: the topic, then every option of the command", async () => {
    const { code, stdout } = await runCli(["help", "config"], { columns: 80 });
    expect(code).toBe(0);
    expect(stdout.startsWith("Configuration: profiles and settings\n====")).toBe(true);
    expect(stdout.endsWith(`\n\n${await fullHelpOf(["config"], 80)}`)).toBe(true);
  });

  it("msgstat help <command> is every option of the command, where its --help shows the most used", async () => {
    const help = await runCli(["help", "messages"], { columns: 80 });
    const brief = await runCli(["messages", "--help"], { columns: 80 });
    expect(help).toEqual({ code: 0, stdout: await fullHelpOf(["messages"], 80), stderr: "" });
    expect(help.stdout).toMatch(/^Usage: msgstat messages /);
    expect(help.stdout).toContain("\n  --page-size <n> ");
    expect(brief.stdout).not.toContain("--page-size");
  });

  it("msgstat help alone is the program's help, then the topics", async () => {
    const { code, stdout, stderr } = await runCli(["help"], { columns: 80 });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^Usage: msgstat /);
    expect(stdout).toContain("\nHelp topics (msgstat help <topic>):\n  config ");
    for (const { name, summary } of TOPICS) expect(stdout).toContain(`\n  ${name.padEnd(14)}  ${summary}\n`);
  });

  it("msgstat help --help lists every topic and its examples within 80 columns", async () => {
    const { code, stdout } = await runCli(["help", "--help"], { columns: 80 });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: msgstat help \[options\] \[topic\]\n/);
    for (const { name } of TOPICS) expect(stdout).toContain(`\n  ${name} `);
    expect(stdout).toContain("\n  $ msgstat help config\n");
    expect(stdout.split("\n").filter((line) => line.length > 80)).toEqual([]);
  });

  it("an unknown topic is exit 2, listing the topics and the commands", async () => {
    const { code, stdout, stderr } = await runCli(["help", "confg"], { columns: 80 });
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toBe(
      [
        'msgstat: no help topic "confg"',
        "  topics: config, auth, proxy, formats, fields, parquet, exit-codes,",
        "  environment, options, statuses, dates, stats, report, monitoring, live-modes,",
        "  many-campaigns, export, sandbox, security",
        "  or a command (every option): messages, batch, find, message, stats, export,",
        "  sandbox, auth, config, completion",
        "",
      ].join("\n"),
    );
  });
});
