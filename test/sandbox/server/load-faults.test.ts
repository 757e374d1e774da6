import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { VirtualClock } from "../../support/virtual-clock.js";
import { FIXED_NOW } from "../http-helpers.js";

const PATH = "/campaigns/cmp-otp-alerts/messages?limit=1";

async function statusesOf(sandbox: Sandbox, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${sandbox.url}${PATH}`);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe("failRate", () => {
  let first: Sandbox;
  let second: Sandbox;
  let other: Sandbox;
  beforeAll(async () => {
    [first, second, other] = await Promise.all([
      startSandbox({ now: FIXED_NOW, failRate: 0.3, seed: 5 }),
      startSandbox({ now: FIXED_NOW, failRate: 0.3, seed: 5 }),
      startSandbox({ now: FIXED_NOW, failRate: 0.3, seed: 6 }),
    ]);
  });
  afterAll(() => Promise.all([first.close(), second.close(), other.close()]));

  it("fails about that share of requests with 500 or 503, in a sequence fixed by the seed", async () => {
    const statuses = await statusesOf(first, 200);
    expect(await statusesOf(second, 200)).toEqual(statuses);
    expect(await statusesOf(other, 200)).not.toEqual(statuses);
    const failures = statuses.filter((s) => s !== 200).length;
    expect(failures).toBeGreaterThan(30);
    expect(failures).toBeLessThan(90);
    expect(new Set(statuses)).toEqual(new Set([200, 500, 503]));
  });

  it("sends a JSON error body with the failure", async () => {
    for (;;) {
      const response = await fetch(`${first.url}${PATH}`);
      const body = (await response.json()) as { error?: string; message?: string };
      if (response.status === 200) continue;
      expect(["internal_error", "service_unavailable"]).toContain(body.error);
      expect(typeof body.message).toBe("string");
      break;
    }
  });
});

describe("failRate extremes", () => {
  it("fails every request at 1", async () => {
    const sandbox = await startSandbox({ now: FIXED_NOW, failRate: 1 });
    try {
      expect((await statusesOf(sandbox, 20)).every((s) => s === 500 || s === 503)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe("rateLimit", () => {
  // The bucket refills by the sandbox's clock: a virtual one, so the burst is all at one instant and
  // the wait is a move of the clock, whatever the machine's speed.
  const clock = new VirtualClock(FIXED_NOW);
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW, rateLimit: 1, clock: clock.now });
  });
  afterAll(() => sandbox.close());

  it("answers 429 with Retry-After past the rate, and serves again after waiting", async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => fetch(`${sandbox.url}${PATH}`)));
    // The bucket holds one second's worth (1 request): one of the burst is served.
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(11);
    for (const response of limited) {
      expect(response.headers.get("retry-after")).toBe("1");
      expect(((await response.json()) as { error: string }).error).toBe("rate_limited");
    }
    await Promise.all(responses.filter((r) => r.status === 200).map((r) => r.arrayBuffer()));
    clock.at += 999;
    const early = await fetch(`${sandbox.url}${PATH}`);
    await early.arrayBuffer();
    expect(early.status).toBe(429);
    // Waiting out the Retry-After (1 s of the sandbox's clock) is what refills the bucket.
    clock.at += 1_000;
    expect((await fetch(`${sandbox.url}${PATH}`)).status).toBe(200);
  });
});

describe("latencyMs", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW, latencyMs: 200 });
  });
  afterAll(() => sandbox.close());

  it("delays every response, errors included", async () => {
    for (const path of [PATH, "/nowhere"]) {
      const started = performance.now();
      await (await fetch(`${sandbox.url}${path}`)).arrayBuffer();
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    }
  });
});
