import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "./http-helpers.js";

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
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW, rateLimit: 1 });
  });
  afterAll(() => sandbox.close());

  it("answers 429 with Retry-After past the rate, and serves again after waiting", async () => {
    const before = sandbox.requests.length;
    const responses = await Promise.all(Array.from({ length: 12 }, () => fetch(`${sandbox.url}${PATH}`)));
    const statuses = responses.map((r) => r.status);
    // The bucket holds one second's worth (1 request) and refills 1 a second: a loaded machine that
    // spreads the burst over a longer time earns that many more, counted from when they arrived.
    const burst = sandbox.requests.slice(before);
    const spanSeconds = (burst[burst.length - 1]!.receivedAt - burst[0]!.receivedAt) / 1000;
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(1);
    expect(served).toBeLessThanOrEqual(1 + Math.ceil(spanSeconds));
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBe(12 - served);
    expect(limited.length).toBeGreaterThan(0);
    for (const response of limited) {
      expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(((await response.json()) as { error: string }).error).toBe("rate_limited");
    }
    await Promise.all(responses.filter((r) => r.status === 200).map((r) => r.arrayBuffer()));
    // Waiting out the Retry-After (1 s) is the point here: time passing is what refills the bucket.
    await new Promise((resolve) => setTimeout(resolve, 1100));
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
