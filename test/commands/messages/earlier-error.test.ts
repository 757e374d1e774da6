// Defect 6 of issue 21: the ERROR column showed a code on `success` rows (the last failed attempt
// before a retry succeeded) as if the message had failed. On a terminal, ERROR is now why a message
// failed: shown on `failure` rows only. Piped (for programs), CSV and JSON keep the code as before.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { pageForward } from "../../sandbox/http-helpers.js";
import { cli, useTestSandbox } from "../../support/cli-helpers.js";

let sandbox: Sandbox;
let messages: Message[];
let retried: Message[];
useTestSandbox(async (started) => {
  sandbox = started;
  messages = (await pageForward(sandbox.url, "/campaigns/cmp-spring-sale/messages", 1000)).messages;
  retried = messages.filter((m) => m.latestStatus !== "failure" && newestErrorCode(m) !== "");
});

const newestErrorCode = (m: Message) =>
  (m.messageAttempts ?? [])
    .filter((a) => a.errorCode !== null)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0]?.errorCode ?? "";

describe("the ERROR column of the table", () => {
  it.each([80, 160])("at %i columns: a code beside failure only", async (columns) => {
    expect(retried.some((m) => m.latestStatus === "success")).toBe(true);
    const failed = messages.filter((m) => m.latestStatus === "failure");
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--all"], {
      tty: true,
      columns,
      env: { NO_COLOR: "1" },
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID +RECIPIENT +STATUS +(TRIES +)?ERROR +CREATED/);
    const rowOf = (id: string) => lines.find((line) => line.startsWith(`${id} `))!;
    for (const m of retried) {
      expect(rowOf(m.id)).toMatch(new RegExp(` ${m.latestStatus} `));
      expect(rowOf(m.id)).not.toContain(newestErrorCode(m));
    }
    for (const m of failed) expect(rowOf(m.id)).toMatch(new RegExp(` failure +(\\d+ +)?${newestErrorCode(m)} `));
  });

  it("piped: the newest failed attempt's code on every row, as a program reads it (STATUS is beside it)", async () => {
    const result = await cli(sandbox, ["messages", "cmp-spring-sale", "--all"]);
    const header = result.stdout.split("\n")[0]!.split("\t");
    const rowOf = (id: string) =>
      result.stdout
        .split("\n")
        .find((line) => line.startsWith(`${id}\t`))!
        .split("\t");
    for (const m of retried) expect(rowOf(m.id)[header.indexOf("ERROR")]).toBe(newestErrorCode(m));
  });

  it("CSV keeps the earlier attempt's error in lastErrorCode", async () => {
    const m = retried.find((candidate) => candidate.latestStatus === "success")!;
    const result = await cli(sandbox, [
      "messages",
      "cmp-spring-sale",
      "--all",
      "--csv",
      "--fields",
      "id,lastErrorCode",
    ]);
    expect(result.stdout.split("\r\n")).toContain(`${m.id},${newestErrorCode(m)}`);
  });
});
