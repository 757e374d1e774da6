import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW, getJson } from "../http-helpers.js";

const PATH = "/campaigns/cmp-otp-alerts/messages?limit=2";
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW, token: "s3cret" });
});
afterAll(() => sandbox.close());

describe("bearer token", () => {
  it.each([
    ["no header", undefined],
    ["a wrong token", "Bearer nope"],
    ["another scheme", "Basic czNjcmV0"],
    ["the token without scheme", "s3cret"],
  ])("answers 401 with %s", async (_, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    for (const path of [PATH, "/campaigns/cmp-otp-alerts/messages/msg-otp-0000001", "/nowhere"]) {
      const response = await getJson<{ error: string; message: string }>(`${sandbox.url}${path}`, { headers });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe("unauthorized");
      expect(typeof response.body.message).toBe("string");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("serves requests carrying the right token, and logs the header", async () => {
    const response = await getJson<{ data: unknown[] }>(`${sandbox.url}${PATH}`, {
      headers: { authorization: "Bearer s3cret" },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(2);
    expect(sandbox.requests[sandbox.requests.length - 1]?.headers.authorization).toBe("Bearer s3cret");
  });
});
