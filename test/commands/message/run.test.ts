// Tier 2: `msgstat message`: the person's view, exact, and `--json` equal to the server's object.
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { displayWidth } from "../../../src/terminal/width.js";
import { cli, cliWithRequests, serverMessage, useTestSandbox } from "../../support/cli-helpers.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

describe("message", () => {
  it("shows status, recipient, campaign, batch, times, template body, values, text and attempts newest first", async () => {
    const { code, stdout, stderr, urls } = await cliWithRequests(sandbox, [
      "message",
      "cmp-spring-sale",
      "msg-spring-0000030",
    ]);
    expect({ code, stderr, urls }).toEqual({
      code: 0,
      stderr: "",
      urls: ["/campaigns/cmp-spring-sale/messages/msg-spring-0000030"],
    });
    expect(stdout).toBe(`Message msg-spring-0000030  ● failure
  Recipient  914890330050
  Campaign   cmp-spring-sale
  Batches    bat-spring-w4 (spring-sale-wave-4.csv)
  Created    2025-04-28 18:00:18 UTC
  Updated    2025-04-28 18:22:00 UTC
  Language   spanish
  Template   tb-spring-sale-es of template tpl-spring-sale
  Created by growth-team@example.com

Template body
  ¡Hola {{first_name}}! Rebajas de primavera: {{discount}} de descuento hasta el {{end_date}}. Compra aquí: {{link}}

Values
  first_name  José
  discount    15%
  end_date    31 May
  link        https://sho.rt/1qsswqe

Message sent
  ¡Hola José! Rebajas de primavera: 15% de descuento hasta el 31 May. Compra aquí: https://sho.rt/1qsswqe

Attempts (3, newest first)
  2025-04-28 18:21:51  failure   delivery_error / delivery_unknown_error
  2025-04-28 18:11:43  failure   delivery_error / delivery_unknown_error
  2025-04-28 18:01:29  failure   server_error / server_unknown_error
`);
  });

  it("the view agrees with the server's object for this message", async () => {
    const sent = await serverMessage(sandbox, "cmp-spring-sale", "msg-spring-0000030");
    expect(sent).toMatchObject({
      latestStatus: "failure",
      recipient: "914890330050",
      createdAt: "2025-04-28T23:30:18.060+05:30",
    });
    expect((sent.attempts as unknown[]).length).toBe(3);
  });

  it("asks for the message uncompressed, and for a page of a listing compressed", async () => {
    const before = sandbox.requests.length;
    await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000030", "--json"]);
    await cli(sandbox, ["messages", "cmp-spring-sale", "--limit", "1", "--json"]);
    const asked = sandbox.requests.slice(before).map((request) => request.headers["accept-encoding"]);
    expect(asked).toEqual(["identity", "gzip, deflate, br"]);
  });

  it("a successful attempt has no error and no trailing spaces", async () => {
    const { code, stdout } = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000005"]);
    expect(code).toBe(0);
    expect(stdout.endsWith("Attempts (1)\n  2025-04-30 16:41:09  success\n")).toBe(true);
    for (const line of stdout.split("\n")) expect(line).toBe(line.trimEnd());
  });

  it("on a terminal: relative times and colour; with --no-color none", async () => {
    const coloured = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000030"], { tty: true });
    expect(coloured.stdout).toContain("\u001b[31m● failure\u001b[39m");
    expect(coloured.stdout).toContain("(2 d 18 h ago)");
    const plain = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000030", "--no-color"], { tty: true });
    expect(plain.stdout).not.toContain("\u001b[");
    expect(plain.stdout).toContain("  Created    2025-04-28 18:00:18 UTC (2 d 18 h ago)\n");
  });

  it.each(["msg-spring-0000030", "msg-spring-0000000", "msg-otp-0000001"])(
    "--json prints %s exactly as the server sent it",
    async (id) => {
      const campaign = id.includes("otp") ? "cmp-otp-alerts" : "cmp-spring-sale";
      const sent = await serverMessage(sandbox, campaign, id);
      const { code, stdout, stderr } = await cli(sandbox, ["message", campaign, id, "--json"]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toBe(JSON.stringify(sent) + "\n");
      expect(JSON.parse(stdout)).toEqual(sent);
    },
  );

  it("the two ids swapped: exit 3, and the hint gives the command the right way round", async () => {
    const result = await cli(sandbox, ["message", "msg-spring-0000042", "cmp-spring-sale"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "  The ids look swapped: the campaign id comes first, msgstat message cmp-spring-sale msg-spring-0000042",
      "",
    ]);
  });

  it("a message that does not exist: exit 3, the server's words, nothing on stdout", async () => {
    const result = await cli(sandbox, ["message", "cmp-spring-sale", "msg-nope"]);
    expect(result).toEqual({
      code: 3,
      stdout: "",
      stderr: `msgstat: not found: GET ${sandbox.url}/campaigns/cmp-spring-sale/messages/msg-nope answered HTTP 404: Message "msg-nope" does not exist in campaign cmp-spring-sale. (message_not_found)\n  Check the message id msg-nope and the campaign id cmp-spring-sale: a message of another campaign is not found in this one.\n`,
    });
  });
});

describe("on a terminal, wrapped to its width with hanging indents", () => {
  /** The lines of a section: after its heading, up to the blank line. */
  const section = (stdout: string, heading: string) => {
    const lines = stdout.split("\n");
    const start = lines.indexOf(heading) + 1;
    const end = lines.indexOf("", start);
    return lines.slice(start, end === -1 ? undefined : end);
  };
  const rejoined = (lines: string[]) => lines.map((line) => line.trim()).join(" ");

  it.each([80, 160, 50])(
    "at %i columns: no line wider, the template and the text wrap under themselves, the attempts' errors too",
    async (columns) => {
      const sent = await serverMessage(sandbox, "cmp-spring-sale", "msg-spring-0000030");
      const body = (sent.templateBody as { body: string }).body;
      const { code, stdout } = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000030", "--no-color"], {
        tty: true,
        columns,
      });
      expect(code).toBe(0);
      for (const line of stdout.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      for (const [heading, text] of [
        ["Template body", body],
        ["Message sent", sent.fullMessage as string],
      ] as const) {
        const lines = section(stdout, heading);
        expect(lines.length > 1).toBe(displayWidth(text) + 2 > columns);
        for (const line of lines) expect(line.startsWith("  ")).toBe(true);
        expect(rejoined(lines)).toBe(text);
      }
      // Each attempt: its time, status, then the error, continued under itself (or under the time when narrow).
      const attempts = section(stdout, "Attempts (3, newest first)");
      const starts = attempts.filter((line) => /^ {2}\d{4}-/.test(line));
      expect(starts).toHaveLength(3);
      const errors = attempts
        .join("\n")
        .split(/\n(?= {2}\d{4}-)/)
        .map((block) => rejoined(block.split("\n")).replace(/^\S+ \S+ +failure +/, ""));
      expect(errors).toEqual([
        "delivery_error / delivery_unknown_error",
        "delivery_error / delivery_unknown_error",
        "server_error / server_unknown_error",
      ]);
      if (columns === 50) expect(attempts.some((line) => /^ {4}\S/.test(line))).toBe(true);
      else expect(attempts).toEqual(starts);
    },
  );

  it("piped, nothing is wrapped", async () => {
    const sent = await serverMessage(sandbox, "cmp-spring-sale", "msg-spring-0000030");
    const { stdout } = await cli(sandbox, ["message", "cmp-spring-sale", "msg-spring-0000030"], { columns: 40 });
    expect(stdout).toContain(`\n  ${sent.fullMessage as string}\n`);
  });
});
