// The client over loopback, against small servers that misbehave on purpose.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AuthError, NotFoundError, ResponseError } from "../../src/core/errors.js";
import type { ApiClient, ClientOptions } from "../../src/http/client.js";
import { RedirectError, RequestFailedError } from "../../src/http/errors.js";
import { caught, testClient } from "../support/client.js";
import { serveHttp as serve } from "../support/http-servers.js";

const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function client(url: string, options: Partial<ClientOptions> = {}): ApiClient {
  const made = testClient(url, { timeoutMs: 5000, retries: 3, random: () => 0, ...options });
  clients.push(made);
  return made;
}

const PAGE = '{"data":[{"id":"a","n":9007199254740993},{"id":"b"}],"pageData":{"hasNextPage":false}}';
const json = (response: http.ServerResponse, body: string, status = 200) => {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
};
describe("retries", () => {
  it("a body cut short is asked for again whole, from the same path: no Range request, as undici's retry interceptor would send", async () => {
    const server = await serve((_request, response, n) => {
      if (n > 1) return json(response, PAGE);
      response.writeHead(200, { "content-type": "application/json", "content-length": PAGE.length });
      response.write(PAGE.slice(0, 20));
      setImmediate(() => response.socket?.destroy());
    });
    const body = await client(server.url).get(["campaigns", "c", "messages"], { limit: "2" });
    expect(body.bytes.toString()).toBe(PAGE);
    expect(server.seen.map((s) => s.url)).toEqual(["/campaigns/c/messages?limit=2", "/campaigns/c/messages?limit=2"]);
    expect(server.seen[1]!.headers.range).toBeUndefined();
  });

  it("retries spent: the error names method, host and path, the attempts and the status", async () => {
    const server = await serve((_request, response) => json(response, '{"message":"busy"}', 503));
    const error = await caught(client(server.url, { retries: 2 }).get(["campaigns", "c", "messages"], { limit: "2" }));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(
      `GET ${server.url}/campaigns/c/messages?limit=2 failed after 3 attempts: HTTP 503: busy`,
    );
    expect(server.seen).toHaveLength(3);
  });

  it("an interrupted run stops waiting out a Retry-After at once", async () => {
    const controller = new AbortController();
    const server = await serve((_request, response) => {
      response.writeHead(429, { "retry-after": "60", "content-length": 0 });
      response.end();
      setImmediate(() => controller.abort(new Error("interrupted")));
    });
    const error = await caught(client(server.url, { signal: controller.signal }).get(["x"]));
    expect(error.message).toBe("interrupted");
    expect(server.seen).toHaveLength(1);
  });

  it("no answer within the timeout: retried, then a failure that says so (the command layer names --timeout)", async () => {
    const server = await serve(() => undefined);
    const error = await caught(client(server.url, { timeoutMs: 200, retries: 1 }).get(["x"]));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect((error as RequestFailedError).failure).toEqual({ kind: "timeout", timeoutMs: 200 });
    expect(error.message).toBe(`GET ${server.url}/x failed after 2 attempts: no complete response within 0.2 s`);
    expect(server.seen).toHaveLength(2);
  });
});

describe("a caller's own clock (within)", () => {
  it("no attempt outlives the time left, and no retry starts once it is spent", async () => {
    const server = await serve(() => undefined);
    const started = Date.now();
    const within = { leftMs: () => 150 - (Date.now() - started) };
    const error = await caught(client(server.url, { timeoutMs: 8000, retries: 3 }).get(["x"], {}, { within }));
    expect(error).toBeInstanceOf(RequestFailedError);
    const failure = (error as RequestFailedError).failure;
    expect(failure.kind).toBe("timeout");
    expect((failure as { timeoutMs: number }).timeoutMs).toBeLessThanOrEqual(150);
    expect(server.seen).toHaveLength(1);
  });

  it("retries within the time left, each after a back-off cut to it", async () => {
    const server = await serve((_request, response, n) => {
      response.writeHead(n < 3 ? 503 : 200, { "content-type": "application/json" });
      response.end(n < 3 ? "{}" : '{"ok":true}');
    });
    const body = await client(server.url, { retries: 3, retryBaseMs: 60_000, random: () => 1 }).get(
      ["x"],
      {},
      { within: { leftMs: () => 5 } },
    );
    expect(body.value()).toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
  });
});

describe("redirects", () => {
  it("credentials go to the base origin only: not to another host along the way, and again when the chain comes back", async () => {
    const base = await serve((request, response, n) => {
      if (n === 1) {
        response.writeHead(302, { location: `${other.url}/elsewhere` });
        return response.end();
      }
      json(response, PAGE);
    });
    const other = await serve((_request, response) => {
      response.writeHead(307, { location: `${base.url}/back` });
      response.end();
    });
    const warnings: string[] = [];
    const body = await client(base.url, {
      token: "t0ken",
      headers: [["X-Api-Key", "k3y"]],
      warn: (line) => warnings.push(line),
    }).get(["start"]);
    expect(body.bytes.toString()).toBe(PAGE);
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
    expect(other.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(base.seen.map((s) => [s.url, s.headers.authorization, s.headers["x-api-key"]])).toEqual([
      ["/start", "Bearer t0ken", "k3y"],
      ["/back", "Bearer t0ken", "k3y"],
    ]);
    expect(warnings).toEqual([
      `following a redirect to ${other.url} without credentials (they are only sent to ${base.url})`,
    ]);
  });

  it("a redirect to the same URL is followed", async () => {
    const server = await serve((_request, response, n) => {
      if (n === 1) {
        response.writeHead(302, { location: "/same" });
        return response.end("moved");
      }
      json(response, PAGE);
    });
    expect((await client(server.url).get(["same"])).bytes.toString()).toBe(PAGE);
    expect(server.seen.map((s) => s.url)).toEqual(["/same", "/same"]);
  });

  it("a loop ends after 5 redirects with an error naming the request, not retried", async () => {
    const server = await serve((_request, response, n) => {
      response.writeHead(301, { location: `/hop${n}` });
      response.end();
    });
    const error = await caught(client(server.url).get(["start"]));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toBe(`GET ${server.url}/hop5 redirected more than 5 times`);
    expect(server.seen).toHaveLength(6);
  });
});

describe("statuses and bodies", () => {
  it("401 and 404 are typed, name the request and never the token", async () => {
    const server = await serve((request, response) =>
      json(response, '{"error":"nope"}', request.url === "/missing" ? 404 : 401),
    );
    const api = client(server.url, { token: "t0ken-secret" });
    const denied = await caught(api.get(["x"]));
    expect(denied).toBeInstanceOf(AuthError);
    expect(denied.message).toBe(`not authorised: GET ${server.url}/x answered HTTP 401: nope`);
    expect(denied.message + (denied as AuthError).hints.join("")).not.toContain("t0ken");
    expect(await caught(api.get(["missing"]))).toBeInstanceOf(NotFoundError);
    expect(server.seen).toHaveLength(2);
  });

  it("a body streamed past the cap is cut off as it arrives, without waiting for the rest", async () => {
    let written = 0;
    let finishedWriting: (finished: boolean) => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (finishedWriting = resolve));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }); // chunked: no length to refuse by
      response.on("close", () => finishedWriting(response.writableFinished));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      pump();
    });
    const error = await caught(client(server.url, { maxBodyBytes: 1024 * 1024 }).get(["big"]));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toBe(
      `the response to GET ${server.url}/big is larger than 1 MiB, more than any page of this API`,
    );
    expect(await closed).toBe(false);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it("a page comes back with each message's text as sent", async () => {
    const server = await serve((_request, response) => json(response, PAGE));
    const list = (await client(server.url).get(["p"])).listAt("data")!;
    expect(list.sourceOf(0).text()).toBe('{"id":"a","n":9007199254740993}');
  });
});
