// Redirect rules: where the next hop goes, and that credentials go only to the base URL's origin.
import { describe, expect, it } from "vitest";
import type { RequestTarget } from "../../src/http/errors.js";
import { hopHeaders, MAX_REDIRECTS, nextHop } from "../../src/http/redirects.js";

const BASE = "https://api.example.com";
const from: RequestTarget = { method: "GET", origin: BASE, path: "/v2/campaigns/c/messages?limit=50" };
const ALWAYS = { accept: "application/json", "user-agent": "msgstat" };
const CREDENTIALS = { authorization: "Bearer t0ken", "x-api-key": "k3y" };

describe("the next hop", () => {
  it("within the base origin: followed quietly, relative locations resolved against the hop", () => {
    expect(nextHop(from, "/v3/campaigns/c/messages?limit=50", 0, BASE)).toEqual({
      follow: { method: "GET", origin: BASE, path: "/v3/campaigns/c/messages?limit=50" },
    });
    expect(nextHop(from, "page2?x=1", 0, BASE)).toEqual({
      follow: { method: "GET", origin: BASE, path: "/v2/campaigns/c/page2?x=1" },
    });
  });

  it("the same URL again is followed (a service may redirect to itself while it recovers)", () => {
    expect(nextHop(from, from.path, 0, BASE)).toEqual({ follow: from });
  });

  it.each([
    ["another host", "https://cdn.example.net/x", "https://cdn.example.net"],
    ["another port", "https://api.example.com:8443/x", "https://api.example.com:8443"],
    ["plain http on the same host", "http://api.example.com/x", "http://api.example.com"],
  ])("to %s: followed, with a warning that credentials stay behind", (_name, location, origin) => {
    const decision = nextHop(from, location, 0, BASE);
    expect(decision).toEqual({
      follow: { method: "GET", origin, path: "/x" },
      warning: `following a redirect to ${origin} without credentials (they are only sent to ${BASE})`,
    });
  });

  it.each([
    ["ftp://example.com/file", "redirected to a ftp: URL, which msgstat does not follow"],
    ["file:///etc/passwd", "redirected to a file: URL, which msgstat does not follow"],
    ["http://[::1", "redirected to something that is not a URL: http://[::1"],
    ["http://x\u001b]52;c;AAAA\u0007", "redirected to something that is not a URL: http://x\\x1b]52;c;AAAA\\x07"],
  ])("%j is refused", (location, refuse) => {
    expect(nextHop(from, location, 0, BASE)).toEqual({ refuse });
  });

  it(`at most ${MAX_REDIRECTS} redirects`, () => {
    expect("follow" in nextHop(from, "/a", MAX_REDIRECTS - 1, BASE)).toBe(true);
    expect(nextHop(from, "/a", MAX_REDIRECTS, BASE)).toEqual({ refuse: `redirected more than ${MAX_REDIRECTS} times` });
  });
});

describe("credentials per hop", () => {
  it("to the base origin: the token and every -H header, over a default of the same name", () => {
    expect(hopHeaders(BASE, BASE, ALWAYS, { ...CREDENTIALS, accept: "application/vnd.x+json" })).toEqual({
      ...CREDENTIALS,
      accept: "application/vnd.x+json",
      "user-agent": "msgstat",
    });
  });

  it("anywhere else: none of them, a custom -H header included (undici's interceptor would keep that one)", () => {
    for (const origin of ["https://cdn.example.net", "http://api.example.com", "https://api.example.com:8443"]) {
      expect(hopHeaders(origin, BASE, ALWAYS, CREDENTIALS)).toEqual(ALWAYS);
    }
  });
});
