// Tier 2: usage errors (exit 2, nothing sent), HTTP failures as exit codes 3/4/1, what goes on the
// wire (path prefix, ids as single segments, token, verbose lines). -o: commands/shared/output-file.test.ts.
import type { LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../src/sandbox/index.js";
import { runCli } from "./support/run-cli.js";
import {
  cli,
  cliWithRequests,
  jsonlText,
  NOW,
  sandboxForTest,
  serverListing,
  startTestSandbox,
} from "./support/cli-helpers.js";

let sandbox: Sandbox;
let locked: Sandbox;
beforeAll(async () => {
  [sandbox, locked] = await Promise.all([startTestSandbox(), startTestSandbox({ messages: 20, token: "s3cret" })]);
});
afterAll(() => Promise.all([sandbox.close(), locked.close()]));

describe("usage errors: exit 2, a plain message, no request", () => {
  it.each<[string, string[], string]>([
    [
      "--after with --before",
      ["--after", "a", "--before", "b"],
      "msgstat: --after and --before cannot be used together: page forward or back, not both\n",
    ],
    [
      "--page-size 0",
      ["--page-size", "0"],
      'msgstat: --page-size must be a whole number from 1 to 1000 (the API\'s limit), not "0"\n',
    ],
    [
      "--page-size 1001",
      ["--page-size", "1001"],
      'msgstat: --page-size must be a whole number from 1 to 1000 (the API\'s limit), not "1001"\n',
    ],
    [
      "--page-size 2.5",
      ["--page-size", "2.5"],
      'msgstat: --page-size must be a whole number from 1 to 1000 (the API\'s limit), not "2.5"\n',
    ],
    ["--limit 0", ["--limit", "0"], 'msgstat: --limit must be a whole number of at least 1, not "0"\n'],
    ["--all with -n", ["--all", "-n", "5"], "msgstat: --all and --limit cannot be used together\n"],
    ["two formats", ["--json", "--csv"], "msgstat: choose one output format, not json and csv\n"],
    [
      "--since nonsense",
      ["--since", "last fortnight"],
      'msgstat: --since "last fortnight" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, "this week", "last month")\n  Every form, with examples: msgstat help dates\n',
    ],
    [
      "--since lastweek",
      ["--since", "lastweek"],
      'msgstat: --since "lastweek" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, "this week", "last month")\n  Did you mean --since \'last week\'?\n  Every form, with examples: msgstat help dates\n',
    ],
    [
      "--until yesteday",
      ["--until", "Yesteday"],
      'msgstat: --until "Yesteday" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, "this week", "last month")\n  Did you mean --until yesterday?\n  Every form, with examples: msgstat help dates\n',
    ],
    [
      "--since after --until",
      ["--since", "1d", "--until", "2d"],
      "msgstat: --since is after --until: no message could match\n",
    ],
    [
      "--search of formatting only",
      ["--search", "()"],
      'msgstat: --search "()" has nothing left to search for once formatting is dropped\n',
    ],
    ["--status empty", ["--status", ","], "msgstat: --status needs at least one status, e.g. --status failure\n"],
    [
      "-o into a missing folder",
      ["-o", "/nonexistent-msgstat-dir/out.csv"],
      "msgstat: -o /nonexistent-msgstat-dir/out.csv: the folder /nonexistent-msgstat-dir does not exist\n",
    ],
    [
      "--timeout 0",
      ["--timeout", "0"],
      'msgstat: --timeout must be a number of seconds above 0 (at most 3600), not "0"\n',
    ],
    ["--retries many", ["--retries", "many"], 'msgstat: --retries must be a whole number from 0 to 20, not "many"\n'],
    ["-H without a name", ["-H", ": v"], 'msgstat: -H expects "Name: value"; got a header without a valid name\n'],
    [
      "--format xml",
      ["--format", "xml"],
      'msgstat: --format must be one of table, tsv, json, jsonl, csv, parquet, not "xml"\n',
    ],
    [
      "an unknown option",
      ["--bogus"],
      "msgstat: messages has no option --bogus\n  Every option of messages: msgstat help messages\n",
    ],
    ["--limit without a value", ["--limit"], "msgstat: --limit needs a value (-n, --limit <n>)\n"],
  ])("messages with %s", async (_name, args, stderr) => {
    const {
      code,
      stdout,
      stderr: err,
      urls,
    } = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", ...args]);
    expect({ code, stdout, stderr: err, urls }).toEqual({ code: 2, stdout: "", stderr, urls: [] });
  });

  it.each<[string, string[], string]>([
    [
      "no base URL anywhere",
      ["messages", "cmp-spring-sale"],
      "msgstat: no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat config set base-url <url>)\n  To try msgstat against its built-in sandbox: msgstat sandbox --save-profile, then msgstat messages cmp-spring-sale\n",
    ],
    [
      "a missing campaign id",
      ["messages"],
      "msgstat: missing <campaignId>: msgstat messages <campaignId...>\n  Or name them in a file, one a line: --campaigns-file <path>.\n",
    ],
    [
      "a missing batch id",
      ["batch", "cmp-spring-sale"],
      "msgstat: missing <batchId>: msgstat batch <campaignId> <batchId>\n  msgstat stats cmp-spring-sale shows its batches and their ids.\n",
    ],
    ["an empty campaign id", ["messages", " "], "msgstat: <campaignId> may not be empty\n"],
    ["an empty message id", ["message", "cmp-spring-sale", ""], "msgstat: <messageId> may not be empty\n"],
    [
      "message with an empty -o",
      ["message", "cmp-spring-sale", "m1", "-o", ""],
      'msgstat: --output must be a file name, not ""\n',
    ],
    [
      "an unknown command",
      ["mesages", "cmp-spring-sale"],
      'msgstat: unknown command "mesages"\n  Did you mean messages?\n',
    ],
  ])("%s", async (_name, args, stderr) => {
    const before = sandbox.requests.length;
    const withUrl = args[0] === "messages" && args[1] === "cmp-spring-sale" ? [] : ["--base-url", sandbox.url];
    const result = await runCli([...withUrl, ...args], { now: NOW });
    expect(result).toEqual({ code: 2, stdout: "", stderr });
    expect(sandbox.requests.length).toBe(before);
  });

  // One style for every number and choice of every command: checked as the flag is read, exit 2, the flag named.
  it.each<[string[], string]>([
    [["messages", "c", "--limit", "ten"], '--limit must be a whole number of at least 1, not "ten"'],
    [["messages", "c", "-n", "1e3"], '--limit must be a whole number of at least 1, not "1e3"'],
    [
      ["batch", "c", "b", "--page-size", "abc"],
      '--page-size must be a whole number from 1 to 1000 (the API\'s limit), not "abc"',
    ],
    [["messages", "c", "--after", " "], '--after must be a cursor, not " "'],
    [
      ["messages", "c", "--timeout", "soon"],
      '--timeout must be a number of seconds above 0 (at most 3600), not "soon"',
    ],
    [["--retries", "-1", "messages", "c"], '--retries must be a whole number from 0 to 20, not "-1"'],
    [["message", "c", "m", "--retries", "1.5"], '--retries must be a whole number from 0 to 20, not "1.5"'],
    [["stats", "c", "--interval", "week"], '--interval must be one of hour, day, not "week"'],
    [
      ["stats", "c", "--csv", "--by", "nope"],
      '--by must be one of summary, status, error, batch, attempts, time, not "nope"',
    ],
    [["stats", "c", "--batch", ""], '--batch must be a batch id, not ""'],
    [["sandbox", "--port", "70000"], '--port must be a whole number from 0 to 65535, not "70000"'],
    [["sandbox", "--fail-rate", "2"], '--fail-rate must be a number from 0 to 1, not "2"'],
    [["sandbox", "--latency", "-1"], '--latency must be a number from 0 to 600000, not "-1"'],
    [["sandbox", "--rate-limit", "0"], '--rate-limit must be a number above 0, not "0"'],
    [["sandbox", "--seed", "x"], '--seed must be a whole number, not "x"'],
  ])("%j: exit 2, %s", async (args, message) => {
    const before = sandbox.requests.length;
    expect(await runCli(["--base-url", sandbox.url, ...args], { now: NOW })).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: ${message}\n`,
    });
    expect(sandbox.requests.length).toBe(before);
  });

  it("no arguments at all prints the help on stderr (stdout is for data) and exits 2", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: msgstat");
  });
});

// The parser's complaints (commander's) in the one style of every error, through cli.ts's one error
// path: "msgstat: ..." on stderr, a hint where the mistake is a likely one, exit 2, nothing sent.
describe("the command line's mistakes, said as every other error", () => {
  it.each<[string, string[], string[]]>([
    [
      "an unknown command near a real one",
      ["mesages"],
      ['msgstat: unknown command "mesages"', "  Did you mean messages?"],
    ],
    [
      "an unknown command near none",
      ["frobnicate", "cmp-spring-sale"],
      [
        'msgstat: unknown command "frobnicate"',
        "  The commands: messages, batch, find, message, stats, export, sandbox, auth, config, completion, help.",
      ],
    ],
    [
      "an unknown command of config",
      ["config", "lst"],
      ['msgstat: unknown command "config lst"', "  Did you mean list?"],
    ],
    [
      "an option a slip away from a real one",
      ["messages", "cmp-spring-sale", "--serach", "11"],
      ["msgstat: messages has no option --serach", "  Did you mean --search?"],
    ],
    [
      "the start of an option",
      ["message", "cmp-spring-sale", "msg-spring-0000042", "--wait-time", "5s"],
      ["msgstat: message has no option --wait-time", "  Did you mean --wait-timeout?"],
    ],
    [
      "a command's option before the command's name",
      ["--json", "messages", "cmp-spring-sale"],
      ["msgstat: unknown option --json", "  --json is an option of messages: it goes after the command's name."],
    ],
    [
      "an unknown option of the program",
      ["--bogus"],
      ["msgstat: unknown option --bogus", "  The options msgstat takes: msgstat help options"],
    ],
    [
      "a message id where the campaign id goes",
      ["message", "msg-spring-0001715"],
      [
        "msgstat: missing <messageId>: msgstat message <campaignId> <messageId>",
        "  If msg-spring-0001715 is a message id, the campaign id comes first: msgstat message <campaignId> msg-spring-0001715",
      ],
    ],
    [
      "a campaign id and no message id",
      ["message", "cmp-spring-sale"],
      [
        "msgstat: missing <messageId>: msgstat message <campaignId> <messageId>",
        "  msgstat messages cmp-spring-sale lists its messages and their ids.",
      ],
    ],
    [
      "a batch id where the campaign id goes",
      ["batch", "bat-spring-w1"],
      [
        "msgstat: missing <batchId>: msgstat batch <campaignId> <batchId>",
        "  If bat-spring-w1 is a batch id, the campaign id comes first: msgstat batch <campaignId> bat-spring-w1",
      ],
    ],
    ["find without a number", ["find"], ["msgstat: missing <recipient>: msgstat find <recipient> [campaignId...]"]],
    [
      "too many arguments for a command that takes one",
      ["completion", "bash", "zsh"],
      ["msgstat: too many arguments: msgstat completion <shell> takes 1, not 2 (bash zsh)"],
    ],
    [
      "a value with spaces, unquoted",
      ["config", "set", "token-command", "pass", "show", "msgstat"],
      [
        "msgstat: too many arguments: msgstat config set <key> <value> takes 2, not 4 (token-command pass show msgstat)",
        "  A value with spaces is one argument when quoted: msgstat config set token-command 'pass show msgstat'",
      ],
    ],
    [
      "a help topic in two words",
      ["help", "exit", "codes"],
      [
        "msgstat: too many arguments: msgstat help [topic] takes 1, not 2 (exit codes)",
        "  Did you mean msgstat help exit-codes?",
      ],
    ],
    [
      "help of a command under another",
      ["help", "auth", "login"],
      [
        "msgstat: too many arguments: msgstat help [topic] takes 1, not 2 (auth login)",
        "  msgstat auth login --help shows its options.",
      ],
    ],
    [
      "a value not among an argument's choices",
      ["completion", "tcsh"],
      ['msgstat: <shell> must be one of bash, zsh, fish, not "tcsh"'],
    ],
  ])("%s: exit 2, said in msgstat's words", async (_name, args, lines) => {
    const before = sandbox.requests.length;
    const result = await runCli(args, { env: { MSGSTAT_BASE_URL: sandbox.url }, now: NOW });
    expect(result).toEqual({ code: 2, stdout: "", stderr: `${lines.join("\n")}\n` });
    expect(sandbox.requests.length).toBe(before);
  });

  it("a command named without its subcommand shows its help on stderr, exit 2", async () => {
    const result = await runCli(["auth"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/^Usage: msgstat auth \[options\] \[command\]\n/);
  });
});

// An error read on a terminal is wrapped to it between words, its hints indented as they are; piped
// or logged, each is one line as before.
describe("an error's lines at the terminal's width", () => {
  // A campaign id long enough for the message to wrap at 160 columns too. The sandbox listens on an
  // ephemeral port, of five digits.
  const campaign = "cmp-autumn-clearance-2026-final-reminder-for-lapsed-customers";
  const run = (options: { stderrTty: boolean; columns: number }) =>
    runCli(["--base-url", sandbox.url, "message", campaign, "msg-autumn-0000001"], { ...options, now: NOW });
  const url = () => `${sandbox.url}/campaigns/${campaign}/messages/msg-autumn-0000001`;

  it("at 80 columns: the URL and the ids whole, on lines of their own where they must be", async () => {
    const { code, stdout, stderr } = await run({ stderrTty: true, columns: 80 });
    expect({ code, stdout }).toEqual({ code: 3, stdout: "" });
    expect(stderr.split("\n")).toEqual([
      "msgstat: not found: GET",
      `         ${url()}`,
      "         answered HTTP 404: Campaign",
      `         "${campaign}" does`,
      "         not exist. (campaign_not_found)",
      "  Check the message id msg-autumn-0000001 and the campaign id",
      `  ${campaign}: a message of`,
      "  another campaign is not found in this one.",
      "",
    ]);
  });

  it("at 160 columns: wrapped between words, no line wider", async () => {
    const { stderr } = await run({ stderrTty: true, columns: 160 });
    expect(new URL(sandbox.url).port).toHaveLength(5);
    expect(stderr.split("\n")).toEqual([
      `msgstat: not found: GET ${url()} answered HTTP`,
      `         404: Campaign "${campaign}" does not exist. (campaign_not_found)`,
      `  Check the message id msg-autumn-0000001 and the campaign id ${campaign}: a message of another campaign is`,
      "  not found in this one.",
      "",
    ]);
    for (const line of stderr.split("\n")) expect(line.length).toBeLessThanOrEqual(160);
  });

  it("piped: the message and each hint on one line, whatever the width", async () => {
    const { stderr } = await run({ stderrTty: false, columns: 80 });
    expect(stderr).toBe(
      `msgstat: not found: GET ${url()} answered HTTP 404: Campaign "${campaign}" does not exist. (campaign_not_found)\n` +
        `  Check the message id msg-autumn-0000001 and the campaign id ${campaign}: a message of another campaign is not found in this one.\n`,
    );
  });
});

describe("HTTP failures as exit codes", () => {
  it("a campaign that does not exist: exit 3, one line, stdout empty", async () => {
    const result = await cli(sandbox, ["messages", "cmp-nope", "--csv"]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr: `msgstat: not found: GET ${sandbox.url}/campaigns/cmp-nope/messages?limit=1000 answered HTTP 404: Campaign "cmp-nope" does not exist. (campaign_not_found)\n  Check the campaign id cmp-nope (ids are matched exactly, case included).\n`,
    });
  });

  it.each([[[]], [["--json"]], [["--jsonl"]]])("a 404 leaves stdout empty in every format (%j)", async (format) => {
    const result = await cli(sandbox, ["batch", "cmp-spring-sale", "bat-nope", ...format]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 3, stdout: "" });
  });

  it.each<[string, string[], Record<string, string>, string, () => string]>([
    [
      "no token",
      [],
      {},
      "Missing Authorization: Bearer <token>.",
      () =>
        `No token was sent: store one with msgstat auth login --base-url ${locked.url} (it asks for it), or set ` +
        `MSGSTAT_TOKEN.`,
    ],
    ["a wrong --token", ["--token", "wrong"], {}, "Invalid bearer token.", () => "Check the token given with --token."],
    [
      "a wrong MSGSTAT_TOKEN",
      [],
      { MSGSTAT_TOKEN: "wrong" },
      "Invalid bearer token.",
      () => "Check the token in MSGSTAT_TOKEN: it is sent before the profile's.",
    ],
    [
      "a wrong -H Authorization",
      ["-H", "Authorization: Bearer wrong"],
      {},
      "Invalid bearer token.",
      () => "Check the headers given with -H: no token was sent.",
    ],
  ])("%s: exit 4 and what to do", async (_name, args, env, said, advice) => {
    const result = await cli(locked, ["messages", "cmp-spring-sale", ...args], { env });
    expect(result).toEqual({
      code: 4,
      stdout: "",
      stderr: `msgstat: not authorised: GET ${locked.url}/campaigns/cmp-spring-sale/messages?limit=50 answered HTTP 401: ${said} (unauthorized)\n  ${advice()}\n`,
    });
  });

  it.each<[string, string[], Record<string, string>]>([
    ["--token", ["--token", "s3cret"], {}],
    ["MSGSTAT_TOKEN", [], { MSGSTAT_TOKEN: "s3cret" }],
    ["-H Authorization", ["-H", "Authorization: Bearer s3cret"], {}],
  ])("the right token by %s: Authorization: Bearer, exit 0", async (_name, args, env) => {
    const before = locked.requests.length;
    const result = await cli(locked, ["messages", "cmp-otp-alerts", "--jsonl", ...args], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect(locked.requests.slice(before).map((request) => request.headers.authorization)).toEqual(["Bearer s3cret"]);
  });

  it("-v: one line per request on stderr, never the token", async () => {
    const result = await cli(locked, [
      "-v",
      "messages",
      "cmp-spring-sale",
      "--token",
      "s3cret",
      "--all",
      "--page-size",
      "8",
      "--jsonl",
    ]);
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    // The sandbox compresses as a front end does: brotli, its choice among the codings msgstat asks for.
    const size = "\\d+(\\.\\d+)? k?B";
    for (const line of lines)
      expect(line).toMatch(
        new RegExp(
          `^GET ${locked.url.replace(/\./g, "\\.")}/campaigns/cmp-spring-sale/messages\\?limit=8\\S* -> 200, br: ${size} on the wire, ${size} decoded \\(\\d+ ms\\)$`,
        ),
      );
    expect(result.stderr).not.toContain("s3cret");
  });

  it("a host DNS does not know: exit 1 after one attempt, and the hint names where the host came from", async () => {
    // RFC 6761: .invalid never resolves. The lookup is injected: the test does not depend on this machine's resolver.
    const host = "msgstat-test-host.invalid";
    const asked: string[] = [];
    const lookup: LookupFunction = (hostname, _options, callback) => {
      asked.push(hostname);
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 4);
    };
    const result = await runCli(["--base-url", `http://${host}`, "--retries", "2", "messages", "c"], { lookup });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `msgstat: GET http://${host}/campaigns/c/messages?limit=50 failed after 1 attempt: host not found (DNS) (ENOTFOUND)\n  DNS knows no such host: check the host name in the base URL (--base-url, MSGSTAT_BASE_URL, or the profile's: msgstat config get base-url).\n`,
    });
    expect(asked).toEqual([host]);
  });

  it("a service failing with --retries 0: exit 1 after one request; --retries 2 tries three times", async () => {
    const failing = await startTestSandbox({
      messages: 10,
      faults: [{ path: "/messages", kind: "status", status: 503 }],
    });
    try {
      const once = await cli(failing, ["messages", "cmp-otp-alerts", "--retries", "0"]);
      expect({ code: once.code, stdout: once.stdout, requests: failing.requests.length }).toEqual({
        code: 1,
        stdout: "",
        requests: 1,
      });
      expect(once.stderr).toMatch(
        /^msgstat: GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=50 failed after 1 attempt: HTTP 503/,
      );
      await cli(failing, ["messages", "cmp-otp-alerts", "--retries", "2"]);
      expect(failing.requests.length).toBe(4);
    } finally {
      await failing.close();
    }
  });
});

describe("what is sent", () => {
  it.each([`/api/v2`, `/api/v2/`])("a base URL with the path prefix %s puts every request under it", async (prefix) => {
    const { code, stdout, urls } = await cliWithRequests(sandbox, [
      "--base-url",
      `${sandbox.url}${prefix}`,
      "messages",
      "cmp-spring-sale",
    ]);
    expect({ code, stdout }).toEqual({ code: 3, stdout: "" });
    expect(urls).toEqual(["/api/v2/campaigns/cmp-spring-sale/messages?limit=50"]);
  });

  it("MSGSTAT_BASE_URL works, and global options may come after the subcommand", async () => {
    const before = sandbox.requests.length;
    const viaEnv = await runCli(["messages", "cmp-otp-alerts", "--jsonl"], {
      env: { MSGSTAT_BASE_URL: `${sandbox.url}/` },
      now: NOW,
    });
    const after = await runCli(["messages", "cmp-otp-alerts", "--jsonl", "--base-url", sandbox.url], { now: NOW });
    const expected = jsonlText(await serverListing(sandbox, "/campaigns/cmp-otp-alerts/messages"));
    expect(viaEnv).toEqual({ code: 0, stdout: expected, stderr: "" });
    expect(after).toEqual({ code: 0, stdout: expected, stderr: "" });
    expect(sandbox.requests.slice(before, before + 2).map((request) => request.url)).toEqual([
      "/campaigns/cmp-otp-alerts/messages?limit=1000",
      "/campaigns/cmp-otp-alerts/messages?limit=1000",
    ]);
  });

  it.each([
    ["a/b", "a%2Fb"],
    ["..", "%2E%2E"],
    ["what?x=1", "what%3Fx%3D1"],
    ["#frag", "%23frag"],
    ["100%", "100%25"],
    ["sp ace", "sp%20ace"],
  ])("the id %j is sent as the single segment %s", async (id, segment) => {
    const listing = await cliWithRequests(sandbox, ["messages", id]);
    const batch = await cliWithRequests(sandbox, ["batch", "cmp-spring-sale", id]);
    const message = await cliWithRequests(sandbox, ["message", id, id]);
    expect([listing.code, batch.code, message.code]).toEqual([3, 3, 3]);
    expect([...listing.urls, ...batch.urls, ...message.urls]).toEqual([
      `/campaigns/${segment}/messages?limit=50`,
      `/campaigns/cmp-spring-sale/batch/${segment}/messages?limit=50`,
      `/campaigns/${segment}/messages/${segment}`,
    ]);
  });
});

describe("input that is refused before anything is sent", () => {
  it("a token with a line break", async () => {
    const s = await sandboxForTest();
    const result = await runCli(["--base-url", s.url, "--token", "secret\nX", "messages", "cmp-spring-sale"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: the token may not contain control characters or line breaks (check --token)\n",
    });
    expect(s.requests).toHaveLength(0);
  });
});
