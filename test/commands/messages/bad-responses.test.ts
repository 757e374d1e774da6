// Responses msgstat cannot use: each ends with exit 1 and one or two lines naming what was wrong.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type FaultRule, type Sandbox } from "../../../src/sandbox/index.js";
import { runCli } from "../../support/run-cli.js";
import { sandboxForTest } from "../../support/cli-helpers.js";

const CAMPAIGN = "cmp-otp-alerts";
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function run(
  options: { faults?: FaultRule[]; transform?: (body: unknown) => unknown; compression?: boolean },
  args: string[] = ["messages", CAMPAIGN, "--jsonl"],
) {
  sandbox = await startSandbox({ seed: 3, messages: 500, ...options });
  return runCli(["--base-url", sandbox.url, "--retries", "0", ...args]);
}

function expectOneOrTwoLines(stderr: string): void {
  const lines = stderr.trimEnd().split("\n");
  expect(lines.length).toBeGreaterThanOrEqual(1);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe("bodies that are not JSON", () => {
  it.each([
    ["an HTML page with status 200", { kind: "html" } satisfies FaultRule, /is text\/html, not JSON$/m],
    ["an empty body", { kind: "empty" } satisfies FaultRule, /has an empty body, not JSON$/m],
    // Cut short after the sandbox compressed it (as msgstat asks), so it is the brotli stream that ends early.
    [
      "a body cut short",
      { kind: "truncate" } satisfies FaultRule,
      /is not valid br \(unexpected end of file\); it may have been cut short$/m,
    ],
    [
      "an unexpected content type",
      { kind: "status", status: 200, contentType: "text/plain", body: "{}" } satisfies FaultRule,
      /is text\/plain, not JSON$/m,
    ],
    [
      "a body cut short, from a service that does not compress",
      { kind: "truncate" } satisfies FaultRule,
      /is not valid JSON \(.+\); it may have been cut short$/m,
      false,
    ],
  ])("%s", async (_name, fault, message, compression = true) => {
    const result = await run({ faults: [fault], compression });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^msgstat: the response to GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=1000 /,
    );
    expect(result.stderr).toMatch(message);
    expectOneOrTwoLines(result.stderr);
  });

  // Issue 25, item 7: RFC 8259 lets a parser ignore a byte-order mark, and "cut short" is said only of a body that
  // really ended early.
  it("a body that starts with a UTF-8 byte-order mark is read as the JSON it is", async () => {
    const page = {
      data: [{ id: "m-bom", createdAt: "2026-11-20T10:00:00.000+00:00", recipient: "4915112345678" }],
      pageData: { hasNextPage: false, hasPreviousPage: false, startCursor: "c1", endCursor: "c1" },
    };
    const body = `\ufeff${JSON.stringify(page)}`;
    const result = await run({ faults: [{ kind: "status", status: 200, contentType: "application/json", body }] }, [
      "messages",
      CAMPAIGN,
      "--jsonl",
      "--fields",
      "id,recipient",
    ]);
    expect(result).toEqual({ code: 0, stdout: '{"id":"m-bom","recipient":"4915112345678"}\n', stderr: "" });
  });

  it("JSON broken in its middle is not said to be cut short", async () => {
    const body = '{"data":[{"id":"a"},{"id":tru}],"pageData":{"hasNextPage":false}}';
    const result = await run({ faults: [{ kind: "status", status: 200, contentType: "application/json", body }] });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not valid JSON \(Unexpected token '}', .+\)$/m);
    expect(result.stderr).not.toContain("cut short");
  });

  it("a body larger than any page (64 MiB)", async () => {
    const result = await run({ faults: [{ kind: "huge", bytes: 70 * 1024 * 1024 }] });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^msgstat: the response to GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=1000 is larger than 64 MiB, more than any page of this API$/m,
    );
    expectOneOrTwoLines(result.stderr);
  });

  it("an error status whose body is not JSON", async () => {
    const result = await run({
      faults: [
        { kind: "status", status: 502, contentType: "text/html", body: "<html><body>Bad gateway</body></html>" },
      ],
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^msgstat: GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=1000 failed after 1 attempt: HTTP 502: the body was not JSON \(text\/html, 37 bytes\)\n/,
    );
    expectOneOrTwoLines(result.stderr);
  });

  it("an error body in JSON shows the server's message", async () => {
    // A 400 to a person's cursor is a usage error (exit 2) that says what the service said.
    const result = await run({}, ["messages", CAMPAIGN, "--after", "not-a-cursor"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^msgstat: the service refused --after not-a-cursor with HTTP 400 \(the service said: .+\): the cursor does not belong to this listing or query\n/,
    );
    expectOneOrTwoLines(result.stderr);
  });
});

describe("JSON of the wrong shape names the field path", () => {
  const cases: Array<[string, (body: unknown) => unknown, string]> = [
    ["no data array", (body) => ({ ...(body as object), data: undefined }), "data: "],
    ["data not an array", (body) => ({ ...(body as object), data: { a: 1 } }), "data: "],
    [
      "a message without id",
      (body) => {
        const page = body as { data: Array<Record<string, unknown>> };
        delete page.data[3]!.id;
        return page;
      },
      "data.3.id: ",
    ],
    [
      "a numeric id",
      (body) => {
        const page = body as { data: Array<Record<string, unknown>> };
        page.data[0]!.id = 7;
        return page;
      },
      "data.0.id: ",
    ],
    [
      "a non-boolean hasNextPage",
      (body) => ({ ...(body as object), pageData: { hasNextPage: "yes" } }),
      "pageData.hasNextPage: ",
    ],
    ["no pageData", (body) => ({ data: (body as { data: unknown }).data }), "pageData: "],
    ["an array instead of an object", () => [1, 2], "(the body): "],
  ];
  it.each(cases)("%s", async (_name, transform, path) => {
    const result = await run({ transform });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`msgstat: the listing response is not the shape msgstat expects: ${path}`);
    expectOneOrTwoLines(result.stderr);
  });

  it("extra fields and statuses msgstat has never seen pass through untouched", async () => {
    const result = await run(
      {
        transform: (body) => {
          const page = body as { data: Array<Record<string, unknown>> };
          page.data = page.data.map((m) => ({
            ...m,
            latestStatus: "queued_for_carrier",
            shinyNewField: { nested: [1, 2] },
          }));
          return { ...page, extraTopLevel: true };
        },
      },
      ["messages", CAMPAIGN, "--jsonl", "-n", "2"],
    );
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines[0]).toMatchObject({ latestStatus: "queued_for_carrier", shinyNewField: { nested: [1, 2] } });
  });
});

describe("odd redirects", () => {
  it("a redirect to something that is not a URL is a clear error", async () => {
    const s = await sandboxForTest({ faults: [{ request: 1, kind: "redirect", location: "http://[::1" }] });
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `msgstat: GET ${s.url}/campaigns/cmp-spring-sale/messages?limit=50 redirected to something that is not a URL: http://[::1\n`,
    );
  });
});
