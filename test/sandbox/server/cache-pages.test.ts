// cachePages (msgstat sandbox --cache-pages, for the benchmark): a page of a static campaign is built once
// and its bytes sent again; cmp-live, faults and the rest of the sandbox behave as without it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseSandboxOptions } from "../../../src/commands/sandbox/options.js";
import { SandboxApi } from "../../../src/sandbox/api.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, fetchPlain } from "../http-helpers.js";

const started: Sandbox[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

async function start(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const sandbox = await startSandbox({ seed: 3, messages: 300, now: FIXED_NOW, compression: false, ...options });
  started.push(sandbox);
  return sandbox;
}

async function bytesOf(url: string): Promise<{ status: number; length: string | null; body: string }> {
  const response = await fetchPlain(url);
  return { status: response.status, length: response.headers.get("content-length"), body: await response.text() };
}

const PAGES = ["/campaigns/cmp-many-01/messages?limit=100", "/campaigns/cmp-many-02/messages?limit=50&search=55"];

describe("cachePages", () => {
  it("builds a page once and sends the same bytes again, as a sandbox without it sends them", async () => {
    const cached = await start({ campaigns: 2, cachePages: true });
    const plain = await start({ campaigns: 2 });
    const answer = vi.spyOn(SandboxApi.prototype, "answer");
    for (const page of PAGES) {
      const first = await bytesOf(`${cached.url}${page}`);
      expect(first.status).toBe(200);
      expect(await bytesOf(`${cached.url}${page}`)).toEqual(first);
      expect(await bytesOf(`${plain.url}${page}`)).toEqual(first);
    }
    // Each page built once by the caching sandbox, and each time by the other.
    expect(answer).toHaveBeenCalledTimes(PAGES.length * 2);
  });

  it("still applies a fault to a page it holds, and a repeat fault repeats the page sent last", async () => {
    const sandbox = await start({
      campaigns: 1,
      cachePages: true,
      faults: [
        { path: "probe=down", kind: "status", status: 503 },
        { path: "probe=again", kind: "repeat" },
      ],
    });
    const page = `${sandbox.url}${PAGES[0]}`;
    const held = await bytesOf(page);
    await bytesOf(`${sandbox.url}/campaigns/cmp-many-01/messages?limit=7`);
    expect(await bytesOf(page)).toEqual(held);
    expect((await bytesOf(`${page}&probe=down`)).status).toBe(503);
    expect((await bytesOf(`${sandbox.url}/campaigns/cmp-many-01/messages?limit=3&probe=again`)).body).toBe(held.body);
  });

  it("does not hold the live campaign's pages: they change as its clock moves", async () => {
    let clock = FIXED_NOW;
    const sandbox = await start({ cachePages: true, live: { ratePerSecond: 5 }, clock: () => clock });
    const url = `${sandbox.url}/campaigns/cmp-live/messages?limit=1`;
    const before = await bytesOf(url);
    clock += 60_000;
    expect((await bytesOf(url)).body).not.toBe(before.body);
  });

  it("is --cache-pages of msgstat sandbox, off unless given", () => {
    const flags = { host: "127.0.0.1", port: 0, seed: 1, messages: 10, compression: true };
    expect(parseSandboxOptions({ ...flags, cachePages: true }).cachePages).toBe(true);
    expect(parseSandboxOptions(flags).cachePages).toBeUndefined();
  });
});
