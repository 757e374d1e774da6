// Defect 11 of issue 21: a tab in a value was `tab\tseparated` under Values but real whitespace in
// "Message sent". It is shown one way in both: as the escape \t, like the other control characters.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { pageForward } from "../../sandbox/http-helpers.js";
import { cli, useTestSandbox } from "../../support/cli-helpers.js";

let sandbox: Sandbox;
let withTab: Message;
useTestSandbox(async (started) => {
  sandbox = started;
  const { messages } = await pageForward(sandbox.url, "/campaigns/cmp-spring-sale/messages", 1000);
  withTab = messages.find((m) => Object.values(m.values ?? {}).includes("tab\tseparated"))!;
});

describe("a tab in a value", () => {
  it.each([80, 160])("reads tab\\tseparated under Values and in Message sent, at %i columns", async (columns) => {
    expect(withTab.fullMessage).toContain("tab\tseparated");
    const result = await cli(sandbox, ["message", "cmp-spring-sale", withTab.id], {
      tty: true,
      columns,
      env: { NO_COLOR: "1" },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("\t");
    const lines = result.stdout.split("\n");
    const section = (heading: string) =>
      lines.slice(lines.indexOf(heading) + 1, lines.indexOf("", lines.indexOf(heading)));
    const name = Object.entries(withTab.values ?? {}).find(([, value]) => value === "tab\tseparated")![0];
    expect(section("Values")).toContainEqual(expect.stringMatching(new RegExp(`^  ${name} +tab\\\\tseparated$`)));
    expect(section("Message sent").join("\n")).toContain("tab\\tseparated");
  });

  it("--json keeps the tab as the server sent it", async () => {
    const result = await cli(sandbox, ["message", "cmp-spring-sale", withTab.id, "--json"]);
    expect((JSON.parse(result.stdout) as Message).fullMessage).toBe(withTab.fullMessage);
  });
});
