// What crosses the wire between msgstat and a server on loopback: interim 1xx responses, a reply cut
// short or not HTTP, connecting, DNS; directly and through proxies, each request's timeouts and close.
import { spawn } from "node:child_process";
import net from "node:net";
import type { LookupFunction } from "node:net";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import type { ApiClient, ClientOptions } from "../../src/http/client.js";
import { createTransport } from "../../src/http/transport.js";
import { networkFailure, RequestFailedError } from "../../src/http/errors.js";
import { caught, testClient } from "../support/client.js";
import { serveHttp as serve, serveRaw } from "../support/http-servers.js";

function client(url: string, options: Partial<ClientOptions> = {}): ApiClient {
  const made = testClient(url, { retries: 2, random: () => 0, ...options });
  onTestFinished(() => made.close());
  return made;
}

const PAGE =
  '{"data":[{"id":"a","n":9007199254740993,"fullMessage":"Grüße 🎉"},{"id":"b","price":1.10}],"pageData":{"hasNextPage":false}}';

describe("interim 1xx responses", () => {
  const final = (body: string) =>
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const body = '{"data":[],"pageData":{"hasNextPage":false}}';

  it("102 and 103 before the final response are skipped", async () => {
    const server = await serveRaw(
      () => `HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${final(body)}`,
    );
    expect((await client(server.url).get(["p"])).bytes.toString()).toBe(body);
  });

  it("an unasked-for 100 Continue is skipped as well", async () => {
    const server = await serveRaw(() => `HTTP/1.1 100 Continue\r\n\r\n${final(body)}`);
    expect((await client(server.url).get(["p"])).bytes.toString()).toBe(body);
    expect(server.requests()).toBe(1);
  });
});

describe("a response that ends before it is whole, or is not HTTP", () => {
  // Node's client calls each of the first two ECONNRESET; they are said as what they are, and retried.
  it.each<[string, () => string]>([
    [
      "a body cut short",
      () => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"data":[`,
    ],
    ["no answer at all", () => ""],
  ])("%s: the connection closed before the response was complete, retried", async (_name, answer) => {
    const server = await serveRaw(answer, { close: true });
    const error = await caught(client(server.url, { retries: 1 }).get(["p"]));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(
      `GET ${server.url}/p failed after 2 attempts: connection closed before the response was complete (ECONNRESET)`,
    );
    expect(server.requests()).toBe(2);
  });

  it("a reply that is not HTTP says so, and is not retried", async () => {
    const server = await serveRaw(() => "SSH-2.0-OpenSSH_9.2\r\n\r\n");
    const error = await caught(client(server.url).get(["p"]));
    expect(error.message).toBe(
      `GET ${server.url}/p failed after 1 attempt: the reply is not HTTP: it does not begin with HTTP/1.1 (HPE_INVALID_CONSTANT)`,
    );
    expect(server.requests()).toBe(1);
  });
});

describe("connecting", () => {
  it(
    "a host that never completes the connection is given up on after the connect timeout, and said to be unreachable",
    { timeout: 60_000 },
    async () => {
      const { port, stop } = await unacceptingListener();
      try {
        const transport = createTransport({ timeoutMs: 500 });
        const error = await caught(
          transport.request({
            origin: `http://127.0.0.1:${port}`,
            path: "/p",
            headers: {},
            signal: new AbortController().signal,
          }),
        );
        expect((error as NodeJS.ErrnoException).code).toBe("ETIMEDOUT");
        expect(networkFailure(error)).toEqual({
          kind: "network",
          code: "ETIMEDOUT",
          text: "could not connect within 0.5 s (ETIMEDOUT)",
        });
        transport.close();
      } finally {
        stop();
      }
    },
  );
});

/**
 * A port whose accept queue is full: a process that listens with a backlog of one and never accepts
 * (its event loop is held), and connections that fill the queue. A further connection attempt gets no
 * answer to its SYN, as from a host behind a firewall that drops it.
 */
async function unacceptingListener(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      'require("net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 }, function () { process.stdout.write(String(this.address().port) + "\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000); })',
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(Number(String(data).trim())));
    child.once("exit", (code) => reject(new Error(`the listener exited (${code})`)));
  });
  const fillers: net.Socket[] = [];
  for (let i = 0; i < 4; i++) fillers.push(net.connect(port, "127.0.0.1").on("error", () => undefined));
  // The queue holds what the kernel accepted for the process; wait until the fillers have had their turn.
  await Promise.all(fillers.slice(0, 2).map((socket) => new Promise((resolve) => socket.once("connect", resolve))));
  return {
    port,
    stop: () => {
      for (const socket of fillers) socket.destroy();
      child.kill("SIGKILL");
    },
  };
}

describe("DNS", () => {
  // Name resolution is the transport's lookup, injected here: no test depends on how this machine's
  // resolver answers. RFC 6761: names under .invalid never resolve.
  const host = "msgstat-test-host.invalid";
  const asked: string[] = [];
  const failingWith =
    (code: string): LookupFunction =>
    (hostname, _options, callback) => {
      asked.push(hostname);
      callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, syscall: "getaddrinfo" }), "", 4);
    };
  afterEach(() => void asked.splice(0));

  it("a host DNS does not know is not retried", async () => {
    const error = await caught(
      client(`http://${host}:9`, { retries: 1, network: { lookup: failingWith("ENOTFOUND") } }).get(["p"]),
    );
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(`GET http://${host}:9/p failed after 1 attempt: host not found (DNS) (ENOTFOUND)`);
    expect(asked).toEqual([host]);
  });

  it("a resolver that cannot answer (EAI_AGAIN) is a temporary failure, retried", async () => {
    const error = await caught(
      client(`http://${host}:9`, { retries: 1, network: { lookup: failingWith("EAI_AGAIN") } }).get(["p"]),
    );
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(`GET http://${host}:9/p failed after 2 attempts: DNS lookup failed (EAI_AGAIN)`);
    expect(asked).toEqual([host, host]);
  });

  it("the connection goes to the address the lookup gives, and the Host header keeps the name", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(PAGE);
    });
    const port = new URL(server.url).port;
    const lookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    };
    const body = await client(`http://api.msgstat.test:${port}`, { network: { lookup } }).get(["p"]);
    expect(body.bytes.toString("utf8")).toBe(PAGE);
    expect(asked).toEqual(["api.msgstat.test"]);
    expect(server.seen.map(({ headers }) => headers.host)).toEqual([`api.msgstat.test:${port}`]);
  });
});
