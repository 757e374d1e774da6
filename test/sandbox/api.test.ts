import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW, getJson, getPage } from "./http-helpers.js";

interface ErrorBody {
  error: string;
  message: string;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW });
});
afterAll(() => sandbox.close());

async function expectError(path: string, status: number, error: string, init?: RequestInit): Promise<Headers> {
  const response = await getJson<ErrorBody>(`${sandbox.url}${path}`, init);
  expect(response.status, path).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.body.error, path).toBe(error);
  expect(typeof response.body.message).toBe("string");
  expect(response.body.message.length).toBeGreaterThan(5);
  return response.headers;
}

describe("400", () => {
  it.each([
    "",
    "?limit=",
    "?limit=abc",
    "?limit=1.5",
    "?limit=0",
    "?limit=1001",
    "?limit=-1",
    "?limit=%201",
    "?limit=1e2",
  ])("refuses limit %j", async (query) => {
    await expectError(`/campaigns/cmp-spring-sale/messages${query}`, 400, "invalid_limit");
    await expectError(`/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages${query}`, 400, "invalid_limit");
  });

  it("accepts the limits 1 and 1000", async () => {
    expect((await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 1 })).data).toHaveLength(1);
    expect((await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 1000 })).data).toHaveLength(
      1000,
    );
  });

  it("refuses after and before together", async () => {
    const page = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 3 });
    const { startCursor, endCursor } = page.pageData;
    await expectError(
      `/campaigns/cmp-spring-sale/messages?limit=3&after=${endCursor}&before=${startCursor}`,
      400,
      "conflicting_cursors",
    );
  });

  it("refuses cursors it did not issue, or issued for another listing", async () => {
    const spring = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 3 });
    const loyalty = await getPage(sandbox.url, "/campaigns/cmp-loyalty-es/messages", { limit: 3 });
    const batch = await getPage(sandbox.url, "/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages", { limit: 3 });
    const good = spring.pageData.endCursor as string;
    const forged = Buffer.from(JSON.stringify(["campaign:cmp-spring-sale", 5, "AAAAAAAAAAAA"])).toString("base64url");
    const tampered = good.slice(0, 10) + (good[10] === "A" ? "B" : "A") + good.slice(11);
    const bad = ["abc", "", forged, tampered, `${good}=`, loyalty.pageData.endCursor, batch.pageData.endCursor];
    for (const cursor of bad) {
      for (const param of ["after", "before"]) {
        await expectError(
          `/campaigns/cmp-spring-sale/messages?limit=3&${param}=${encodeURIComponent(cursor ?? "")}`,
          400,
          "invalid_cursor",
        );
      }
    }
    await expectError(
      `/campaigns/cmp-spring-sale/batch/bat-spring-w2/messages?limit=3&after=${batch.pageData.endCursor}`,
      400,
      "invalid_cursor",
    );
    await expectError(
      `/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages?limit=3&after=${good}`,
      400,
      "invalid_cursor",
    );
    expect(
      (await getPage(sandbox.url, "/campaigns/cmp-spring-sale/messages", { limit: 3, after: good })).data,
    ).toHaveLength(3);
  });

  it("refuses a malformed percent-escape in the path", async () => {
    await expectError("/campaigns/%E0%A4%A/messages?limit=1", 400, "invalid_path");
  });
});

describe("404", () => {
  it("for unknown campaigns, batches and messages, or ones of another campaign", async () => {
    await expectError("/campaigns/cmp-nope/messages?limit=1", 404, "campaign_not_found");
    await expectError("/campaigns/cmp-nope/messages/msg-spring-0000001", 404, "campaign_not_found");
    await expectError("/campaigns/cmp-spring-sale/batch/bat-nope/messages?limit=1", 404, "batch_not_found");
    await expectError("/campaigns/cmp-spring-sale/batch/bat-loyalty-w1/messages?limit=1", 404, "batch_not_found");
    await expectError("/campaigns/cmp-spring-sale/messages/msg-nope", 404, "message_not_found");
    await expectError("/campaigns/cmp-spring-sale/messages/msg-loyalty-0000001", 404, "message_not_found");
    await expectError("/campaigns/cmp-spring-sale/messages/msg-spring-0005000", 404, "message_not_found");
    await expectError("/campaigns/cmp-spring-sale/messages/msg-spring-001", 404, "message_not_found");
    const found = await getJson(`${sandbox.url}/campaigns/cmp-loyalty-es/messages/msg-loyalty-0000001`);
    expect(found.status).toBe(200);
  });

  it("decodes path segments exactly once", async () => {
    await expectError("/campaigns/cmp-spring-sale%2Fmessages/messages?limit=1", 404, "campaign_not_found");
    await expectError("/campaigns/cmp%252Dspring-sale/messages?limit=1", 404, "campaign_not_found");
    expect((await getPage(sandbox.url, "/campaigns/cmp%2Dspring%2Dsale/messages", { limit: 1 })).data).toHaveLength(1);
    const message = await getJson<{ id: string }>(
      `${sandbox.url}/campaigns/cmp-spring-sale/messages/msg%2Dspring%2D0000003`,
    );
    expect(message.body.id).toBe("msg-spring-0000003");
    expect(
      sandbox.requests.some(
        (r) => r.url === "/campaigns/cmp-spring-sale%2Fmessages/messages?limit=1" && r.status === 404,
      ),
    ).toBe(true);
  });

  it.each([
    "/",
    "/campaigns",
    "/campaigns/cmp-spring-sale",
    "/campaigns/cmp-spring-sale/messages/",
    "/campaigns/cmp-spring-sale/batch/bat-spring-w1",
    "/campaigns/cmp-spring-sale/messages/msg-spring-0000001/attempts",
    "/v1/campaigns/cmp-spring-sale/messages",
  ])("for the unknown route %s", async (path) => {
    await expectError(path, 404, "not_found");
  });
});

describe("405", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("for %s on a known route, with Allow: GET", async (method) => {
    for (const path of [
      "/campaigns/cmp-spring-sale/messages?limit=1",
      "/campaigns/cmp-spring-sale/batch/bat-spring-w1/messages",
      "/campaigns/cmp-spring-sale/messages/msg-spring-0000001",
    ]) {
      const headers = await expectError(path, 405, "method_not_allowed", { method });
      expect(headers.get("allow")).toBe("GET");
    }
  });

  it("but 404 for a non-GET to an unknown route", async () => {
    await expectError("/nowhere", 404, "not_found", { method: "POST" });
  });
});

describe("request log", () => {
  it("records every request in order with its status", async () => {
    const before = sandbox.requests.length;
    const startedAt = Date.now();
    await fetch(`${sandbox.url}/campaigns/cmp-otp-alerts/messages?limit=2`, { headers: { "x-probe": "log" } });
    await fetch(`${sandbox.url}/nowhere`);
    const [first, second] = sandbox.requests.slice(before);
    expect(first).toMatchObject({
      n: before + 1,
      method: "GET",
      url: "/campaigns/cmp-otp-alerts/messages?limit=2",
      status: 200,
    });
    expect(first?.headers["x-probe"]).toBe("log");
    expect(second).toMatchObject({ n: before + 2, url: "/nowhere", status: 404 });
    expect(first?.receivedAt).toBeGreaterThanOrEqual(startedAt);
    expect(second?.receivedAt).toBeGreaterThanOrEqual(first?.receivedAt ?? Infinity);
    expect(second?.receivedAt).toBeLessThanOrEqual(Date.now());
  });
});
