// Transient faults: msgstat retries from the same cursor and delivers the complete listing once, in order.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type FaultRule, type Sandbox } from "../../../src/sandbox/index.js";
import { testClient } from "../../support/client.js";
import { runCli } from "../../support/run-cli.js";

const NOW = Date.parse("2026-11-20T12:00:00.000Z");
const CAMPAIGN = "cmp-otp-alerts";
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function serve(faults: FaultRule[] = []): Promise<Sandbox> {
  sandbox = await startSandbox({ seed: 7, messages: 2000, now: NOW, faults });
  return sandbox;
}

/** The listing as the server holds it, read with no faults. */
async function referenceIds(): Promise<string[]> {
  const clean = await startSandbox({ seed: 7, messages: 2000, now: NOW });
  try {
    const result = await runCli(["--base-url", clean.url, "messages", CAMPAIGN, "--all", "--jsonl", "--fields", "id"]);
    return result.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: string }).id);
  } finally {
    await clean.close();
  }
}

function idsOf(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

const listingRequests = (s: Sandbox) => s.requests.filter((r) => r.url.includes("/messages?"));

describe("transient faults are retried and nothing is lost or repeated", () => {
  const transient: Array<[string, FaultRule]> = [
    ["503", { request: 2, kind: "status", status: 503 }],
    ["500", { request: 2, kind: "status", status: 500 }],
    ["502", { request: 2, kind: "status", status: 502 }],
    ["504", { request: 2, kind: "status", status: 504 }],
    ["408", { request: 2, kind: "status", status: 408 }],
    ["429", { request: 2, kind: "status", status: 429, retryAfter: "0" }],
    ["a reset connection", { request: 2, kind: "reset" }],
    ["a connection closed part way through the body", { request: 2, kind: "close-early" }],
  ];
  it.each(transient)("after %s on the second page", async (_name, fault) => {
    const expected = await referenceIds();
    const s = await serve([fault]);
    const result = await runCli([
      "--base-url",
      s.url,
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(expected);
    // The failed request and its retry asked for the same cursor.
    const urls = listingRequests(s).map((r) => r.url);
    expect(urls[1]).toBe(urls[2]);
  });

  // The stalls last a minute, longer than a test may run: a run that ends at all did not wait for them.
  it("after a stalled response, once --timeout passes", async () => {
    const expected = await referenceIds();
    const s = await serve([{ request: 2, kind: "stall", ms: 60_000 }]);
    const result = await runCli([
      "--base-url",
      s.url,
      "--timeout",
      "0.3",
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(expected);
    const urls = listingRequests(s).map((r) => r.url);
    expect(urls[2]).toBe(urls[1]);
  });

  it("a body that stalls half way is bounded by --timeout too", async () => {
    const s = await serve([{ kind: "stall", ms: 60_000, phase: "body" }]);
    const result = await runCli([
      "--base-url",
      s.url,
      "--timeout",
      "0.3",
      "--retries",
      "1",
      "messages",
      CAMPAIGN,
      "--jsonl",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("after 2 attempts");
    expect(result.stderr).toContain("--timeout");
  });

  it("a message the server sends again (pages that overlap) is printed once", async () => {
    const expected = await referenceIds();
    let previousPage: unknown[] = [];
    sandbox = await startSandbox({
      seed: 7,
      messages: 2000,
      now: NOW,
      // As when new messages shift an offset-based cursor: each page repeats the end of the one before.
      transform: (body) => {
        const page = body as { data?: unknown[] };
        if (!Array.isArray(page.data)) return body;
        const overlapped = { ...page, data: [...previousPage.slice(-3), ...page.data] };
        previousPage = page.data;
        return overlapped;
      },
    });
    const result = await runCli([
      "--base-url",
      sandbox.url,
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(expected);
    expect(result.stderr).toMatch(
      /^warning: the service sent \d+ messages again \(an id already seen in the last 3 pages\); the repeats were left out\n$/,
    );
  });

  it("a whole page served again is a loop: exit 1, no message printed twice", async () => {
    const s = await serve([{ request: 3, kind: "repeat" }]);
    const result = await runCli([
      "--base-url",
      s.url,
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("a second time; stopping instead of looping");
    const ids = idsOf(result.stdout);
    expect(ids).toEqual((await referenceIds()).slice(0, 20));
  });
});

describe("Retry-After", () => {
  it("waits the seconds the server asks for before retrying", async () => {
    const s = await serve([{ request: 1, kind: "status", status: 429, retryAfter: "1" }]);
    const result = await runCli(["--base-url", s.url, "messages", CAMPAIGN, "-n", "3", "--jsonl"]);
    expect(result.code).toBe(0);
    const [first, second] = s.requests;
    // At least what was asked (the backoff alone would be milliseconds here); no upper bound in wall
    // time, which a loaded machine stretches: waiting longer than asked is a warning, tested below.
    const waited = second!.receivedAt - first!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(result.stderr).not.toContain("warning");
  });

  it("accepts an HTTP date", async () => {
    const retryAt = new Date(Date.now() + 1500).toUTCString();
    const s = await serve([{ request: 1, kind: "status", status: 503, retryAfter: retryAt }]);
    const result = await runCli(["--base-url", s.url, "messages", CAMPAIGN, "-n", "3", "--jsonl"]);
    expect(result.code).toBe(0);
    // Not before the date the server named (to the millisecond a timer may round), however late the first try came.
    expect(s.requests[1]!.receivedAt).toBeGreaterThanOrEqual(Date.parse(retryAt) - 5);
  });

  it("is capped, and says so", async () => {
    const s = await serve([{ request: 1, kind: "status", status: 429, retryAfter: "3600" }]);
    const warnings: string[] = [];
    const client = testClient(s.url, {
      timeoutMs: 5000,
      retries: 1,
      retryBaseMs: 5,
      maxRetryAfterMs: 300,
      warn: (line) => warnings.push(line),
    });
    try {
      const started = Date.now();
      const body = await client.get(["campaigns", CAMPAIGN, "messages"], { limit: "1" });
      expect((body.value() as { data: unknown[] }).data).toHaveLength(1);
      // The wait is the cap, as the warning says (the run ending within the test's time shows it was not an hour).
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(warnings).toEqual([
        "the service asked to wait 1 h before retrying; waiting 0.3 s, the most msgstat waits",
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("when retries are spent", () => {
  it("exits 1 naming the status, the attempts, and the cursor to continue from", async () => {
    const s = await serve([{ path: "after=", kind: "status", status: 503 }]);
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "2",
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--jsonl",
      "--fields",
      "id",
    ]);
    expect(result.code).toBe(1);
    const firstPage = listingRequests(s)[0]!;
    expect(idsOf(result.stdout)).toHaveLength(10);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toMatch(
      /^msgstat: GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=10&after=\S+ failed after 3 attempts: HTTP 503: /,
    );
    // The hint: a line, then the whole next command on a line of its own.
    expect(lines[1]).toBe("  Everything before the failure was written. To continue from there, run:");
    const cursor = /^ {2}msgstat .* --after (\S+)$/.exec(lines[2]!)?.[1];
    expect(cursor).toBeDefined();
    expect(listingRequests(s).at(-1)!.url).toContain(`after=${cursor}`);
    expect(firstPage.url).not.toContain("after=");
  });

  it("does not retry a 400", async () => {
    const s = await serve([{ request: 1, kind: "status", status: 400 }]);
    const result = await runCli(["--base-url", s.url, "messages", CAMPAIGN]);
    expect(result.code).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it("reports connection refused after retrying", async () => {
    const s = await serve();
    const url = s.url;
    await s.close();
    sandbox = undefined;
    const result = await runCli(["--base-url", url, "--retries", "1", "messages", CAMPAIGN]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("failed after 2 attempts: connection refused (ECONNREFUSED)");
  });
});

describe("a server that never ends a listing", () => {
  it.each([
    [
      "repeats an endCursor",
      { request: 2, kind: "loop" } satisfies FaultRule,
      /sent the endCursor \S+ a second time; stopping instead of looping/,
    ],
    [
      "gives no endCursor",
      { request: 1, kind: "no-end-cursor" } satisfies FaultRule,
      /says more messages follow but sent no endCursor; stopping instead of looping/,
    ],
  ])("stops when it %s", async (_name, fault, message) => {
    const s = await serve([fault]);
    const result = await runCli(["--base-url", s.url, "messages", CAMPAIGN, "--all", "--page-size", "10", "--jsonl"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(listingRequests(s).length).toBeLessThan(4);
  });
});

describe("output written in whole records when a listing fails part way", () => {
  const failThirdPageOn = () => serve([{ path: /after=/, kind: "status", status: 500 }]);

  it.each([
    ["--jsonl", (out: string) => out.endsWith("}\n")],
    ["--csv", (out: string) => out.endsWith("\r\n")],
  ])("%s ends on a complete line", async (flag, complete) => {
    const s = await failThirdPageOn();
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      flag,
    ]);
    expect(result.code).toBe(1);
    expect(complete(result.stdout)).toBe(true);
  });

  it("--json does not pretend to be complete: no closing bracket, and exit 1", async () => {
    const s = await failThirdPageOn();
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      CAMPAIGN,
      "--all",
      "--page-size",
      "10",
      "--json",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout.startsWith("[\n{")).toBe(true);
    expect(() => JSON.parse(result.stdout) as unknown).toThrow();
  });
});
