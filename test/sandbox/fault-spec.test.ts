import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFaultSpec, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW } from "./http-helpers.js";

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
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW, faults: parseFaultSpec("2:503,3:429=2,4-5:empty,7:reset") });
  });
  afterAll(() => sandbox.close());

  it("hits exactly the numbered requests, counting every request", async () => {
    const path = `${sandbox.url}/campaigns/cmp-otp-alerts/messages?limit=1`;
    const seen: (number | string)[] = [];
    for (let i = 1; i <= 8; i++) {
      const target = i === 6 ? `${sandbox.url}/nowhere` : path;
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
    expect(sandbox.requests.map((r) => [r.n, r.status])).toEqual([
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
