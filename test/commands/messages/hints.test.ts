// What msgstat tells a person at the keyboard around a listing: a status typo refused with the one
// meant, -o's extension choosing the format, the "wrote N" line, the next command whole, and what
// to check after a 404 or a refused cursor.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import {
  cli,
  cliWithRequests,
  hintCursor,
  ids,
  jsonArrayText,
  jsonlText,
  NOW,
  sandboxForTest,
  serverPage,
  useListingSandbox,
} from "../../support/cli-helpers.js";

let sandbox: Sandbox;
let all: Message[];
useListingSandbox("/campaigns/cmp-spring-sale/messages", (started, messages) => {
  sandbox = started;
  all = messages;
});

describe("--status", () => {
  it.each([
    ["failed", "failure"],
    ["Failure", "failure"],
    ["sucess", "success"],
    ["creatd", "created"],
    ["snet", "sent"],
  ])("%j is a typo: exit 2, the status meant, nothing sent", async (typed, meant) => {
    const result = await cliWithRequests(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--status",
      `success,${typed}`,
      "--all",
      "--csv",
    ]);
    expect(result).toMatchObject({ code: 2, stdout: "", urls: [] });
    expect(result.stderr).toBe(
      `msgstat: unknown status "${typed}"; did you mean "${meant}"?\n  Message statuses the service is known to send: created, success, failure.\n`,
    );
  });

  it("a value far from every known status is filtered on, with a warning, exit 0", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--status", "read", "--all", "--csv"]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      "warning: --status read: not a status the service is known to send (created, success, failure); filtering on it anyway",
    );
  });

  it("sent is an attempt's status: accepted, with a warning saying what a message in flight shows", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--status", "sent", "--all", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      'warning: --status sent: "sent" is an attempt\'s status; a message whose attempt is under way has latestStatus "created"',
    );
  });

  it("when nothing matched, the closing note lists the statuses the messages had", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--status", "read", "--all", "--jsonl"]);
    const counts = new Map<string, number>();
    for (const message of all) counts.set(message.latestStatus, (counts.get(message.latestStatus) ?? 0) + 1);
    expect(counts.size).toBeGreaterThan(1);
    const listed = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([status, n]) => `${status} ${n}`)
      .join(", ");
    expect(result.stderr.split("\n")[1]).toBe(`No messages matched. Statuses of the messages read: ${listed}.`);
  });
});

describe("-o and the format", () => {
  it.each([
    ["x.json", (text: string) => expect(text).toBe(jsonArrayText(all.slice(0, 5)))],
    ["x.jsonl", (text: string) => expect(text).toBe(jsonlText(all.slice(0, 5)))],
    ["x.ndjson", (text: string) => expect(text).toBe(jsonlText(all.slice(0, 5)))],
    [
      "x.csv",
      (text: string) =>
        expect(parse<{ id: string }>(text, { columns: true }).map((row) => row.id)).toEqual(ids(all.slice(0, 5))),
    ],
    [
      "x.tsv",
      (text: string) =>
        expect(text.split("\n")[0]).toBe("ID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE"),
    ],
    ["X.JSON", (text: string) => expect(text).toBe(jsonArrayText(all.slice(0, 5)))],
  ])("-o %s without a format flag writes that format", async (name, check) => {
    const folder = scratchFolder("msgstat-ext-");
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "5", "-o", path.join(folder, name)]);
    expect(result.code).toBe(0);
    check(readFileSync(path.join(folder, name), "utf8"));
  });

  it.each([
    [["--csv"], "x.json", "--csv contradicts -o {file}: a .json file is json"],
    [["--format", "jsonl"], "x.csv", "--format jsonl contradicts -o {file}: a .csv file is csv"],
    [["--json"], "x.tsv", "--json contradicts -o {file}: a .tsv file is tsv"],
  ])("%j with -o %s is a usage error, nothing sent, no file", async (flags, name, message) => {
    const folder = scratchFolder("msgstat-ext-");
    const file = path.join(folder, name);
    const result = await cliWithRequests(sandbox, ["messages", "cmp-spring-sale", ...flags, "-o", file]);
    expect(result).toMatchObject({ code: 2, stdout: "", urls: [] });
    expect(result.stderr.split("\n")[0]).toBe(`msgstat: ${message.replace("{file}", file)}`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it("a flag that agrees with the extension, or a flag with an extension msgstat does not know, is fine", async () => {
    const folder = scratchFolder("msgstat-ext-");
    expect(
      (await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "2", "--csv", "-o", path.join(folder, "a.csv")])).code,
    ).toBe(0);
    expect(
      (
        await cli(sandbox, [
          "messages",
          "cmp-spring-sale",
          "-n",
          "2",
          "--format",
          "table",
          "-o",
          path.join(folder, "a.tsv"),
        ])
      ).code,
    ).toBe(0);
    expect(
      (await cli(sandbox, ["messages", "cmp-spring-sale", "-n", "2", "--json", "-o", path.join(folder, "a.txt")])).code,
    ).toBe(0);
    expect(readFileSync(path.join(folder, "a.txt"), "utf8")).toBe(jsonArrayText(all.slice(0, 2)));
  });

  it("message -o m.json is the JSON the service sent", async () => {
    const folder = scratchFolder("msgstat-ext-");
    const file = path.join(folder, "m.json");
    const result = await cli(sandbox, ["message", "cmp-spring-sale", all[0]!.id, "-o", file]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote message ${all[0]!.id} to ${file}\n` });
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ id: all[0]!.id });
  });
});

describe("the line after writing a file", () => {
  it("says how many and where; without -n every message is written, as with --all (issue 21)", async () => {
    const folder = scratchFolder("msgstat-wrote-");
    const file = path.join(folder, "failures.csv");
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "-o", file]);
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `wrote ${all.length.toLocaleString("en-US")} messages to ${file}\n`,
    });
    const whole = readFileSync(file, "utf8");
    const viaAll = await cli(sandbox, ["messages", "cmp-spring-sale", "--all", "-o", file]);
    expect(viaAll.stderr).toBe(result.stderr);
    expect(readFileSync(file, "utf8")).toBe(whole);
  });
});

describe("the continuation hint", () => {
  /** The words a real shell makes of a line (bash, printing each argument NUL-terminated). */
  const bashWords = (line: string) =>
    execFileSync("bash", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" })
      .split("\0")
      .slice(0, -1);

  it("is the whole next command, alone on a line; read back by a shell and run, it continues exactly", async () => {
    const args = [
      "--base-url",
      sandbox.url,
      "messages",
      "cmp-spring-sale",
      "--status",
      "failure,success",
      "-n",
      "7",
      "--page-size",
      "5",
      "--jsonl",
    ];
    const first = await runCli(args, { now: NOW });
    const lines = first.stderr.split("\n");
    const command = lines.find((line) => line.startsWith("msgstat "))!;
    expect(lines).toEqual([
      "Showing 7 messages; more may follow. For the next ones, run:",
      command,
      "Or add --all for every message.",
      "",
    ]);
    const words = bashWords(command);
    expect(words.slice(0, args.length + 1)).toEqual(["msgstat", ...args]);
    expect(words.slice(args.length + 1)).toEqual(["--after", hintCursor(first.stderr, "after")]);
    const second = await runCli(words.slice(1), { now: NOW });
    const matching = all.filter((message) => message.latestStatus === "failure" || message.latestStatus === "success");
    expect(second.stdout).toBe(jsonlText(matching.slice(7, 14)));
  });

  it.each(["-", "a file"])(
    "after the campaign was read from --campaigns-file %s, names the campaign itself: run as printed, it continues",
    async (from) => {
      const file = path.join(scratchFolder("msgstat-ids-"), "ids.txt");
      const source = from === "-" ? "-" : file;
      if (from !== "-") writeFileSync(file, "# tonight\ncmp-spring-sale\n");
      const options = ["-n", "4", "--page-size", "5", "--jsonl", "--fields", "id"];
      const first = await runCli(["--base-url", sandbox.url, "messages", "--campaigns-file", source, ...options], {
        now: NOW,
        stdin: "cmp-spring-sale\n",
      });
      expect(first.code).toBe(0);
      const command = first.stderr.split("\n").find((line) => line.startsWith("msgstat "))!;
      const words = bashWords(command);
      expect(words).toEqual([
        "msgstat",
        "--base-url",
        sandbox.url,
        "messages",
        "cmp-spring-sale",
        ...options,
        "--after",
        hintCursor(first.stderr, "after"),
      ]);
      // Run as a person pastes it: nothing piped in.
      const second = await runCli(words.slice(1), { now: NOW });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe(jsonlText(all.slice(4, 8).map((message) => ({ id: message.id }))));
    },
  );

  it("replaces the cursor the command had, and leaves credentials out (saying so)", async () => {
    const page = await serverPage(sandbox, "/campaigns/cmp-spring-sale/messages", { limit: 3 });
    const result = await runCli(
      [
        "--base-url",
        sandbox.url,
        "--token",
        "s3cret",
        "messages",
        "cmp-spring-sale",
        "-n",
        "3",
        "--after",
        page.pageData.endCursor!,
        "-H",
        "X-Key: k",
        "--jsonl",
      ],
      { now: NOW },
    );
    const lines = result.stderr.split("\n");
    const words = bashWords(lines[1]!);
    expect(words.filter((word) => word === "--after")).toHaveLength(1);
    expect(result.stderr).not.toContain("s3cret");
    expect(result.stderr).not.toContain("X-Key");
    expect(lines[2]).toBe("(--token and -H are left out above: add them again, or set MSGSTAT_TOKEN)");
  });

  it("is never wrapped, whatever the width", async () => {
    const result = await runCli(["--base-url", sandbox.url, "messages", "cmp-spring-sale", "-n", "2"], {
      now: NOW,
      columns: 40,
      stderrTty: true,
    });
    const line = result.stderr.split("\n").find((candidate) => candidate.startsWith("msgstat "))!;
    expect(line.length).toBeGreaterThan(40);
    expect(line.endsWith(hintCursor(result.stderr, "after"))).toBe(true);
  });
});

describe("what to check after the service said no", () => {
  it("a batch that is not found names both ids", async () => {
    const result = await cli(sandbox, ["batch", "cmp-spring-sale", "bat-nope"]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n")[1]).toBe(
      "  Check the campaign id cmp-spring-sale and the batch id bat-nope: the batch must belong to that campaign (msgstat stats cmp-spring-sale shows each batch id in its By batch table).",
    );
  });

  it("a message of another campaign: says it may belong to another campaign", async () => {
    const otp = await serverPage(sandbox, "/campaigns/cmp-otp-alerts/messages", { limit: 1 });
    const result = await cli(sandbox, ["message", "cmp-spring-sale", otp.data[0]!.id]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n")[1]).toBe(
      `  Check the message id ${otp.data[0]!.id} and the campaign id cmp-spring-sale: a message of another campaign is not found in this one.`,
    );
  });

  it("a cursor of another listing is refused by the service (400): a usage error, exit 2", async () => {
    const otp = await serverPage(sandbox, "/campaigns/cmp-otp-alerts/messages", { limit: 2 });
    for (const flag of ["--after", "--before"]) {
      const result = await cli(sandbox, ["messages", "cmp-spring-sale", flag, otp.pageData.endCursor!]);
      expect(result.code).toBe(2);
      expect(result.stderr.split("\n")[0]).toMatch(
        new RegExp(
          `^msgstat: the service refused ${flag} \\S+ with HTTP 400 \\(the service said: .+\\): the cursor does not belong to this listing or query$`,
        ),
      );
    }
  });
});

describe("advice after a failure part way", () => {
  it("a walk back that fails prints nothing and offers no cursor", async () => {
    const clean = await sandboxForTest();
    const first = (await (await fetch(`${clean.url}/campaigns/cmp-spring-sale/messages?limit=300`)).json()) as {
      pageData: { endCursor: string };
    };
    const s = await sandboxForTest({ faults: [{ request: 2, kind: "status", status: 503 }] });
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      "cmp-spring-sale",
      "--before",
      first.pageData.endCursor,
      "-n",
      "250",
      "--page-size",
      "100",
      "--jsonl",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[1]).toBe(
      "  Nothing was printed: a walk back prints only once it is complete. Run the same command again once the service recovers.",
    );
  });

  it("a failure that would happen again (HTTP 400) gets no 'run it again': a refused cursor is a usage error", async () => {
    const s = await sandboxForTest();
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "1", "--page-size", "1"]);
    const bogus = await runCli([
      "--base-url",
      s.url,
      "messages",
      "cmp-spring-sale",
      "--after",
      `${hintCursor(result.stderr, "after")}x`,
    ]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("the cursor does not belong to this listing or query");
    expect(bogus.stderr).not.toMatch(/again/);
  });
});

describe("cursors in hints are safe to paste into a shell", () => {
  it("in the continuation hint", async () => {
    const s = await sandboxForTest({
      transform: (body: unknown) => {
        const page = body as { pageData?: Record<string, unknown> };
        return page.pageData ? { ...page, pageData: { ...page.pageData, endCursor: "x $(touch pwned)|3" } } : body;
      },
    });
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "2", "--jsonl"]);
    expect(result.stderr).toContain("--after 'x $(touch pwned)|3'");
  });
});
