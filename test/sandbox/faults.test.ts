import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFaultSpec, startSandbox, type FaultRule, type Sandbox } from "../../src/sandbox/index.js";
import { waitFor } from "../support/wait-for.js";
import { FIXED_NOW, getJson, type Page } from "./http-helpers.js";

// Rules are keyed by a `probe` query parameter, which the API itself ignores, so each test
// targets its own fault whatever order the requests arrive in.
const FAULTS: FaultRule[] = [
  { path: "probe=status503", kind: "status", status: 503, retryAfter: "7" },
  {
    path: "probe=proxy",
    kind: "status",
    status: 502,
    body: "<html><body>Bad gateway</body></html>",
    contentType: "text/html",
  },
  { path: "probe=reset", kind: "reset" },
  { path: "probe=close-early", kind: "close-early" },
  { path: "probe=stall-headers", kind: "stall", ms: 400 },
  { path: "probe=stall-body", kind: "stall", ms: 400, phase: "body" },
  { path: "probe=truncate", kind: "truncate" },
  { path: "probe=empty", kind: "empty" },
  { path: "probe=html", kind: "html" },
  { path: "probe=huge", kind: "huge", bytes: 3_000_000 },
  { path: "probe=loop", kind: "loop" },
  { path: "probe=no-end-cursor", kind: "no-end-cursor" },
  { path: "probe=redirect-relative", kind: "redirect", location: "/campaigns/cmp-otp-alerts/messages?limit=1" },
  { path: "probe=redirect-absolute", kind: "redirect", status: 307, location: "http://127.0.0.1:9/elsewhere" },
  { path: "probe=repeat", kind: "repeat" },
  { path: "probe=twice", kind: "status", status: 500, times: 2 },
  { path: /probe=regex-\d+/, kind: "status", status: 418 },
];
const LISTING = "/campaigns/cmp-spring-sale/messages?limit=20";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    now: FIXED_NOW,
    faults: FAULTS,
    transform: (body, req) => {
      if (req.query.get("probe") !== "transform") return body;
      const page = body as Page;
      return { ...page, data: page.data.map((message) => ({ ...message, recipient: `${req.n}:${req.path}` })) };
    },
  });
});
afterAll(() => sandbox.close());

const url = (path: string, probe: string) => `${sandbox.url}${path}${path.includes("?") ? "&" : "?"}probe=${probe}`;
const lastRecord = () => sandbox.requests[sandbox.requests.length - 1];

describe("status faults", () => {
  it("answers any status with Retry-After and a JSON error body", async () => {
    const response = await getJson<{ error: string }>(url(LISTING, "status503"));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(response.body.error).toBe("injected_fault");
  });

  it("can send an HTML proxy error page", async () => {
    const response = await fetch(url(LISTING, "proxy"));
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(await response.text()).toContain("Bad gateway");
  });

  it("retires a rule after `times` hits and matches RegExp paths", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(url(LISTING, "twice"))).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect((await fetch(url(LISTING, "regex-42"))).status).toBe(418);
    expect((await fetch(url(LISTING, "regex-x"))).status).toBe(200);
  });
});

describe("transport faults", () => {
  it("reset destroys the socket without a response", async () => {
    await expect(fetch(url(LISTING, "reset"))).rejects.toThrow();
    expect(lastRecord()?.status).toBe(0);
  });

  it("close-early sends headers and half the body, then dies", async () => {
    const response = await fetch(url(LISTING, "close-early"));
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(1000);
    await expect(response.text()).rejects.toThrow();
  });

  it("stall holds the whole response", async () => {
    const started = performance.now();
    const response = await fetch(url(LISTING, "stall-headers"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
    expect(((await response.json()) as Page).data).toHaveLength(20);
    await expect(fetch(url(LISTING, "stall-headers"), { signal: AbortSignal.timeout(100) })).rejects.toThrow();
  });

  it("stall with phase body sends headers first, then holds the body", async () => {
    // Held for a minute, longer than a test may run: headers arriving at all show they were not held,
    // and closing the sandbox shows the body was still to come. No clock decides.
    const local = await startSandbox({ now: FIXED_NOW, faults: [{ kind: "stall", ms: 60_000, phase: "body" }] });
    const response = await fetch(`${local.url}${LISTING}`);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(1000);
    const body = response.text().then(
      () => "complete",
      () => "cut off",
    );
    await local.close();
    expect(await body).toBe("cut off");
    // A shorter hold, then the whole body.
    const started = performance.now();
    const held = await fetch(url(LISTING, "stall-body"));
    expect(((await held.json()) as Page).data).toHaveLength(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
  });

  it("truncate ends a well-framed response after half of the JSON", async () => {
    const full = await (await fetch(url(LISTING, "none"))).text();
    const response = await fetch(url(LISTING, "truncate"));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(100);
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it("empty answers 200 with no body", async () => {
    const response = await fetch(url(LISTING, "empty"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe("");
  });

  it("html answers 200 with an HTML page", async () => {
    const response = await fetch(url(LISTING, "html"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it("huge streams a body of the given size", async () => {
    const response = await fetch(url(LISTING, "huge"));
    expect(response.headers.get("content-length")).toBe("3000000");
    const bytes = await response.arrayBuffer();
    expect(bytes.byteLength).toBe(3_000_000);
  });

  it("redirect points to a relative path or an absolute URL", async () => {
    const manual = await fetch(url(LISTING, "redirect-relative"), { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(manual.headers.get("location")).toBe("/campaigns/cmp-otp-alerts/messages?limit=1");
    const followed = await fetch(url(LISTING, "redirect-relative"));
    expect(((await followed.json()) as Page).data[0]?.campaignId).toBe("cmp-otp-alerts");
    const absolute = await fetch(url(LISTING, "redirect-absolute"), { redirect: "manual" });
    expect(absolute.status).toBe(307);
    expect(absolute.headers.get("location")).toBe("http://127.0.0.1:9/elsewhere");
  });
});

describe("listing faults", () => {
  it("loop returns hasNextPage with the request's own cursor as endCursor", async () => {
    const first = (await getJson<Page>(`${sandbox.url}${LISTING}`)).body;
    const cursor = first.pageData.endCursor as string;
    const looped = (await getJson<Page>(url(`${LISTING}&after=${cursor}`, "loop"))).body;
    expect(looped.pageData.hasNextPage).toBe(true);
    expect(looped.pageData.endCursor).toBe(cursor);
    expect(looped.data).toHaveLength(20);
  });

  it("no-end-cursor returns hasNextPage without endCursor", async () => {
    const page = (await getJson<Page>(url(`/campaigns/cmp-otp-alerts/messages?limit=1000`, "no-end-cursor"))).body;
    expect(page.data).toHaveLength(100);
    expect(page.pageData.hasNextPage).toBe(true);
    expect(page.pageData).not.toHaveProperty("endCursor");
  });

  it("repeat serves the previous listing page again", async () => {
    const first = await (await fetch(`${sandbox.url}${LISTING}`)).text();
    const cursor = (JSON.parse(first) as Page).pageData.endCursor as string;
    const second = await (await fetch(url(`${LISTING}&after=${cursor}`, "repeat"))).text();
    expect(second).toBe(first);
    const honest = await (await fetch(`${sandbox.url}${LISTING}&after=${cursor}`)).text();
    expect(honest).not.toBe(first);
  });

  it("never fire on the single-message endpoint", async () => {
    const message = await getJson<{ id: string }>(
      url("/campaigns/cmp-spring-sale/messages/msg-spring-0000002", "loop"),
    );
    expect(message.status).toBe(200);
    expect(message.body.id).toBe("msg-spring-0000002");
  });
});

describe("transform", () => {
  it("rewrites successful bodies with the request's path, query and number", async () => {
    const response = await getJson<Page>(url(LISTING, "transform"));
    const n = lastRecord()?.n;
    expect(response.body.data[0]?.recipient).toBe(`${n}:/campaigns/cmp-spring-sale/messages`);
  });

  it("leaves error bodies alone", async () => {
    const response = await getJson<{ error: string }>(url("/campaigns/cmp-spring-sale/messages", "transform"));
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_limit");
  });
});

describe("close", () => {
  it("closes without waiting for a stalled response", async () => {
    const local = await startSandbox({ faults: [{ kind: "stall", ms: 60_000 }] });
    const pending = fetch(`${local.url}${LISTING}`).then(
      () => "answered",
      () => "failed",
    );
    await waitFor(() => local.requests.length === 1, "the request to arrive");
    // The stall lasts a minute, longer than a test may run: close() returning at all shows it did not wait.
    await local.close();
    expect(await pending).toBe("failed");
    await expect(fetch(`${local.url}${LISTING}`)).rejects.toThrow();
  });
});

describe("a throwing transform", () => {
  it("answers 500 with a JSON error and keeps serving", async () => {
    const local = await startSandbox({
      transform: (body, req) => {
        if (req.query.get("probe") === "throw") throw new Error("transform exploded");
        return body;
      },
    });
    try {
      const failed = await getJson<{ error: string; message: string }>(`${local.url}${LISTING}&probe=throw`);
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ error: "sandbox_error", message: "transform exploded" });
      expect(local.requests[0]?.status).toBe(500);
      expect((await fetch(`${local.url}${LISTING}`)).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe("parseFaultSpec", () => {
  it("parses the CLI example", () => {
    expect(parseFaultSpec("2:503,3:reset,4:stall=5000,5:truncate,6:html,7:429=2")).toEqual([
      { request: 2, kind: "status", status: 503 },
      { request: 3, kind: "reset" },
      { request: 4, kind: "stall", ms: 5000, phase: "headers" },
      { request: 5, kind: "truncate" },
      { request: 6, kind: "html" },
      { request: 7, kind: "status", status: 429, retryAfter: "2" },
    ]);
  });

  it("parses every action, ranges and *", () => {
    expect(
      parseFaultSpec(
        " 1-3:empty , *:close-early,8:stall-body=250,9:huge,10:huge=2m,11:huge=5k,12:loop,13:no-end-cursor,14:repeat",
      ),
    ).toEqual([
      { request: 1, kind: "empty" },
      { request: 2, kind: "empty" },
      { request: 3, kind: "empty" },
      { kind: "close-early" },
      { request: 8, kind: "stall", ms: 250, phase: "body" },
      { request: 9, kind: "huge" },
      { request: 10, kind: "huge", bytes: 2 * 1024 * 1024 },
      { request: 11, kind: "huge", bytes: 5 * 1024 },
      { request: 12, kind: "loop" },
      { request: 13, kind: "no-end-cursor" },
      { request: 14, kind: "repeat" },
    ]);
    expect(parseFaultSpec("1:redirect=/x?a=1,2:redirect=301@http://127.0.0.1:8/y")).toEqual([
      { request: 1, kind: "redirect", location: "/x?a=1" },
      { request: 2, kind: "redirect", status: 301, location: "http://127.0.0.1:8/y" },
    ]);
    expect(parseFaultSpec("")).toEqual([]);
  });

  it.each([
    "503",
    "x:503",
    "0:503",
    "3-1:503",
    "2:teapot",
    "2:stall",
    "2:stall=abc",
    "2:stall=5k",
    "2:reset=1",
    "2:redirect",
    "2:999",
    "2:101",
    "1-20000:503",
  ])("refuses %j with a message naming it", (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/^fault "/);
  });
});

describe("a schedule keyed by request number", () => {
  let numbered: Sandbox;
  beforeAll(async () => {
    numbered = await startSandbox({ now: FIXED_NOW, faults: parseFaultSpec("2:503,3:429=2,4-5:empty,7:reset") });
  });
  afterAll(() => numbered.close());

  it("hits exactly the numbered requests, counting every request", async () => {
    const path = `${numbered.url}/campaigns/cmp-otp-alerts/messages?limit=1`;
    const seen: (number | string)[] = [];
    for (let i = 1; i <= 8; i++) {
      const target = i === 6 ? `${numbered.url}/nowhere` : path;
      try {
        const response = await fetch(target);
        const text = await response.text();
        seen.push(text === "" ? `${response.status} empty` : response.status);
        if (i === 3) expect(response.headers.get("retry-after")).toBe("2");
      } catch {
        seen.push("reset");
      }
    }
    expect(seen).toEqual([200, 503, 429, "200 empty", "200 empty", 404, "reset", 200]);
    expect(numbered.requests.map((r) => [r.n, r.status])).toEqual([
      [1, 200],
      [2, 503],
      [3, 429],
      [4, 200],
      [5, 200],
      [6, 404],
      [7, 0],
      [8, 200],
    ]);
  });
});
