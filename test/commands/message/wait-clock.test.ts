// message --wait keeps its clock (issue 25, 3 and 4): against a server the test scripts (answers, 503s,
// requests never answered), the wait ends when --wait-timeout says, with exit 7 and the last state read,
// whatever the service does; only a refusal of the request (404, 401/403) ends it early.
// The clock is real time plus the time msgstat slept, which a sleep adds at once: a request that is never
// answered costs real time (cut to the time left, under a second here), a pause between polls none.
import { describe, expect, it } from "vitest";
import { startListingServer, STALL, Status, type ListingServer } from "../../support/listing-server.js";
import { runCli, type CliResult } from "../../support/run-cli.js";

const T0 = Date.parse("2026-11-22T09:00:00.000Z");

type Answer = "created" | "success" | "stall" | 503 | 404 | 401 | 403;

/** Answers each request for a message with the next answer of the script; the last one repeats. */
async function scriptedMessage(script: Answer[]): Promise<ListingServer> {
  let answered = 0;
  return startListingServer(() => {
    const answer = script[Math.min(answered++, script.length - 1)]!;
    if (answer === "stall") return STALL;
    if (typeof answer === "number") return new Status(answer, { message: `answer ${answer}` });
    return {
      id: "m1",
      createdAt: "2026-11-22T08:59:00.000+00:00",
      latestStatus: answer,
      recipient: "4915112345678",
      attempts: [],
    };
  });
}

/** `message cmp m1 --wait ...` on a clock of real time plus the time slept. */
async function wait(url: string, flags: string[]): Promise<CliResult & { slept: number; waited: number }> {
  const realStart = Date.now();
  let slept = 0;
  const now = () => T0 + (Date.now() - realStart) + slept;
  const result = await runCli(["--base-url", url, "message", "cmp", "m1", "--wait", ...flags], {
    clock: now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    env: { TZ: "UTC" },
  });
  return { ...result, slept, waited: now() - T0 };
}

describe("message --wait keeps its clock", () => {
  it("a service that never answers: the request is cut to the time left, exit 7 at --wait-timeout (25.3)", async () => {
    const server = await scriptedMessage(["stall"]);
    const { code, stdout, stderr } = await wait(server.url, [
      "--wait-timeout",
      "1s",
      "--timeout",
      "8",
      "--retries",
      "1",
    ]);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^msgstat: no answer about m1 within 1 s \(--wait-timeout\); the last try: GET .* failed after 1 attempt: no complete response within (0\.\d+|1) s\n$/,
    );
    expect(code).toBe(7);
    // The retry --retries allows would start after the time is up: it is not sent.
    expect(server.requests).toHaveLength(1);
  });

  it("a service that stalls after one answer: exit 7 with that state, --wait-timeout 1.5s said as asked (25.3)", async () => {
    const server = await scriptedMessage(["created", "stall"]);
    const { code, stdout, stderr } = await wait(server.url, [
      "--every",
      "1s",
      "--wait-timeout",
      "1.5s",
      "--timeout",
      "8",
      "--retries",
      "1",
      "--json",
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ id: "m1", latestStatus: "created" });
    expect(stderr).toBe("msgstat: m1 is still created after 1.5 s (--wait-timeout)\n");
    expect(code).toBe(7);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [["--retries", "0"], 1],
    [[], 4],
  ])(
    "503s from the start, with %j: the back-off is cut to the time left, exit 7, not 1 (25.4)",
    async (flags, requests) => {
      const server = await scriptedMessage([503]);
      const { code, stdout, stderr, slept, waited } = await wait(server.url, ["--wait-timeout", "3s", ...flags]);
      expect(stdout).toBe("");
      const lines = stderr.split("\n");
      expect(lines[0]).toMatch(/^warning: .*HTTP 503: answer 503; still waiting, trying again in 3 s$/);
      expect(lines[1]).toMatch(
        /^msgstat: no answer about m1 within 3 s \(--wait-timeout\); the last try: GET .* failed after \d attempts?: HTTP 503: answer 503$/,
      );
      expect(lines).toHaveLength(3);
      expect(code).toBe(7);
      // The back-off (4 s) was cut to the 3 s left and waited out, not given up on for being longer.
      expect(slept).toBeGreaterThan(0);
      expect(waited).toBeGreaterThanOrEqual(3000);
      expect(server.requests).toHaveLength(requests);
    },
  );

  it("503s after one answer: exit 7 with the last state read (25.4)", async () => {
    const server = await scriptedMessage(["created", 503]);
    const { code, stdout, stderr } = await wait(server.url, ["--wait-timeout", "3s", "--retries", "0", "--json"]);
    expect(JSON.parse(stdout)).toMatchObject({ id: "m1", latestStatus: "created" });
    const lines = stderr.split("\n");
    expect(lines[0]).toMatch(/^warning: .*HTTP 503: answer 503; still waiting, trying again in 1 s$/);
    expect(lines.slice(1)).toEqual(["msgstat: m1 is still created after 3 s (--wait-timeout)", ""]);
    expect(code).toBe(7);
  });

  it("503s, then the final state within the time: exit 0", async () => {
    const server = await scriptedMessage([503, 503, "created", "success"]);
    const { code, stdout } = await wait(server.url, ["--wait-timeout", "1m", "--retries", "0", "--json"]);
    expect(JSON.parse(stdout)).toMatchObject({ latestStatus: "success" });
    expect(code).toBe(0);
  });

  it.each([
    [404, 3],
    [401, 4],
    [403, 4],
  ] as const)("HTTP %i ends the wait at once, exit %i", async (status, exit) => {
    const server = await scriptedMessage(["created", status]);
    const { code, stdout } = await wait(server.url, ["--wait-timeout", "1m", "--retries", "0"]);
    expect(stdout).toBe("");
    expect(code).toBe(exit);
    expect(server.requests).toHaveLength(2);
  });
});
