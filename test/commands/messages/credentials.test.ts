// Credentials are sent only where they belong and never printed; URLs and ids cannot be turned against us.
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { runCli } from "../../support/run-cli.js";

const TOKEN = "s3cr3t-token-value";
const HEADER_VALUE = "hunter2-header-value";
const started: Sandbox[] = [];

async function serve(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ messages: 300, ...options });
  started.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

function expectNoSecrets(text: string): void {
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(HEADER_VALUE);
}

describe("credentials", () => {
  it("are sent as a bearer token and -H headers, and never printed, even with --verbose", async () => {
    const s = await serve({ token: TOKEN });
    const result = await runCli([
      "--base-url",
      s.url,
      "--token",
      TOKEN,
      "-H",
      `X-Api-Key: ${HEADER_VALUE}`,
      "-v",
      "messages",
      "cmp-otp-alerts",
      "-n",
      "2",
    ]);
    expect(result.code).toBe(0);
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(s.requests[0]!.headers["x-api-key"]).toBe(HEADER_VALUE);
    expect(result.stderr).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/campaigns\/cmp-otp-alerts\/messages\?limit=2 -> 200, br: [\d.]+ k?B on the wire, [\d.]+ k?B decoded \(\d+ ms\)$/m,
    );
    expectNoSecrets(result.stderr);
  });

  it("from MSGSTAT_TOKEN, and a wrong one is exit 4 without echoing it", async () => {
    const s = await serve({ token: TOKEN });
    const result = await runCli(["--base-url", s.url, "-v", "messages", "cmp-otp-alerts"], {
      env: { MSGSTAT_TOKEN: `${TOKEN}-wrong` },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("not authorised");
    expect(result.stderr).not.toContain(`${TOKEN}-wrong`);
  });

  it("follow a redirect within the same origin", async () => {
    const s = await serve({
      token: TOKEN,
      faults: [{ request: 1, kind: "redirect", location: "/campaigns/cmp-otp-alerts/messages?limit=2" }],
    });
    const result = await runCli([
      "--base-url",
      s.url,
      "--token",
      TOKEN,
      "messages",
      "cmp-otp-alerts",
      "-n",
      "2",
      "--jsonl",
    ]);
    expect(result.code).toBe(0);
    expect(s.requests[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("are not sent along a redirect to another origin", async () => {
    const other = await serve();
    const s = await serve({
      faults: [{ request: 1, kind: "redirect", location: `${other.url}/campaigns/cmp-otp-alerts/messages?limit=2` }],
    });
    const result = await runCli([
      "--base-url",
      s.url,
      "--token",
      TOKEN,
      "-H",
      `X-Api-Key: ${HEADER_VALUE}`,
      "messages",
      "cmp-otp-alerts",
      "-n",
      "2",
      "--jsonl",
    ]);
    expect(result.code).toBe(0);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(other.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(result.stderr).toMatch(/^warning: following a redirect to http:\/\/127\.0\.0\.1:\d+ without credentials/);
    expectNoSecrets(result.stderr);
  });

  it("are refused over plain http to a host that is not this machine, unless allowed", async () => {
    const refused = await runCli(["--base-url", "http://api.example.com", "--token", TOKEN, "messages", "c"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "msgstat: refusing to send credentials over plain http:// to api.example.com: anyone on the network path could read them\n" +
        "  Use https://, or pass --allow-insecure-http if this network is trusted.\n",
    );
    // Allowed: the request is then attempted (and fails, since nothing resolves here).
    const allowed = await runCli([
      "--base-url",
      "http://127.0.0.2:9",
      "--token",
      TOKEN,
      "--retries",
      "0",
      "--allow-insecure-http",
      "messages",
      "c",
    ]);
    expect(allowed.code).toBe(1);
    expectNoSecrets(allowed.stderr);
  });
});

describe("base URLs", () => {
  it.each([
    ["ftp://example.com", "msgstat: --base-url must be http:// or https://, not ftp://\n"],
    ["file:///etc/passwd", "msgstat: --base-url must be http:// or https://, not file://\n"],
    ["not a url", "msgstat: --base-url is not a URL (expected e.g. https://api.example.com/v2)\n"],
    [
      "localhost:8080",
      "msgstat: --base-url has no scheme (http:// or https://)\n  Did you mean http://localhost:8080?\n",
    ],
    [
      "127.0.0.1:12180/v2",
      "msgstat: --base-url has no scheme (http:// or https://)\n  Did you mean http://127.0.0.1:12180/v2?\n",
    ],
    [
      "api.example.com",
      "msgstat: --base-url has no scheme (http:// or https://)\n  Did you mean https://api.example.com?\n",
    ],
    [
      "https://user:pass@example.com",
      "msgstat: --base-url may not carry a user name or password\n  Pass credentials with msgstat auth login, MSGSTAT_TOKEN or -H instead, so they are never shown in URLs or logs.\n",
    ],
  ])("%s is refused before any request", async (url, stderr) => {
    const result = await runCli(["--base-url", url, "messages", "c"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(stderr);
    expect(result.stderr).not.toContain("pass@");
  });
});

describe("identifiers are single path segments", () => {
  it.each([
    ["a/b", "/campaigns/a%2Fb/messages"],
    ["..", "/campaigns/%2E%2E/messages"],
    ["../../admin", "/campaigns/%2E%2E%2F%2E%2E%2Fadmin/messages"],
    ["x?limit=1000", "/campaigns/x%3Flimit%3D1000/messages"],
    ["x#frag", "/campaigns/x%23frag/messages"],
    ["100%", "/campaigns/100%25/messages"],
  ])("campaign id %s", async (id, path) => {
    const s = await serve();
    const result = await runCli(["--base-url", s.url, "messages", id]);
    expect(result.code).toBe(3);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.url).toBe(`${path}?limit=50`);
  });

  it("message ids too", async () => {
    const s = await serve();
    const result = await runCli(["--base-url", s.url, "message", "cmp-otp-alerts", "../../cmp-spring-sale/messages"]);
    expect(result.code).toBe(3);
    expect(s.requests[0]!.url).toBe("/campaigns/cmp-otp-alerts/messages/%2E%2E%2F%2E%2E%2Fcmp-spring-sale%2Fmessages");
  });
});
