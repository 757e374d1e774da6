// What crosses the wire between msgstat and a server on loopback: interim 1xx responses, a reply cut
// short or not HTTP, connecting, DNS; directly and through proxies, each request's timeouts and close.
import { spawn } from "node:child_process";
import net from "node:net";
import type { LookupFunction } from "node:net";
import { afterAll, afterEach, describe, expect, it, onTestFinished } from "vitest";
import type { ApiClient, ClientOptions } from "../../src/http/client.js";
import { createTransport } from "../../src/http/transport.js";
import { networkFailure, ProxyRefusedError, RequestFailedError } from "../../src/http/errors.js";
import { caught, testClient } from "../support/client.js";
import { serveHttp as serve, serveRaw } from "../support/http-servers.js";
import { startTestProxy } from "../support/test-proxy.js";
import { makeCertificates, startTlsPageServer, type TestCertificates } from "../support/tls.js";
import { waitFor } from "../support/wait-for.js";

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

describe("createTransport", () => {
  const signal = () => new AbortController().signal;
  const text = async (body: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  /** A proxy that takes connections and never answers; `held` counts them. */
  async function silentProxy(): Promise<{ url: URL; held: () => number }> {
    const sockets = new Set<net.Socket>();
    let held = 0;
    const server = net.createServer((socket) => {
      held++;
      sockets.add(socket);
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`), held: () => held };
  }
  let certs: TestCertificates | undefined;
  afterAll(() => certs?.remove());

  it("directly: the path exactly as given, the headers, and the answer's status, headers and body", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(201, { "content-type": "application/json", "x-echo": "yes" }).end(PAGE);
    });
    const transport = createTransport();
    onTestFinished(() => transport.close());
    const response = await transport.request({
      origin: server.url,
      path: "/a%2Fb/%2E%2E?x=%20&y=1",
      headers: { "x-test": "1" },
      signal: signal(),
    });
    expect([response.statusCode, response.headers["x-echo"], await text(response.body)]).toEqual([201, "yes", PAGE]);
    expect(server.seen.map(({ url, headers }) => [url, headers["x-test"]])).toEqual([["/a%2Fb/%2E%2E?x=%20&y=1", "1"]]);
  });

  it("through a proxy, an http:// target is forwarded whole, with the proxy's credentials decoded", async () => {
    const server = await serve((_request, response) => void response.writeHead(200).end(PAGE));
    const proxy = await startTestProxy({ credentials: "u s:p@ss" });
    onTestFinished(() => proxy.close());
    const proxyUrl = new URL(`http://${encodeURIComponent("u s")}:${encodeURIComponent("p@ss")}@${proxy.name}`);
    const transport = createTransport({ proxy: { http: proxyUrl } });
    onTestFinished(() => transport.close());
    const response = await transport.request({ origin: server.url, path: "/p?q=1", headers: {}, signal: signal() });
    expect(await text(response.body)).toBe(PAGE);
    expect(proxy.received.map(({ method, target, headers }) => [method, target, headers.host])).toEqual([
      ["GET", `${server.url}/p?q=1`, new URL(server.url).host],
    ]);
    expect(proxy.received[0]!.headers["proxy-authorization"]).toBe(
      `Basic ${Buffer.from("u s:p@ss").toString("base64")}`,
    );
    expect(server.seen.map(({ url }) => url)).toEqual(["/p?q=1"]);
  });

  it("through a proxy, an https:// target tunnels by CONNECT, which carries none of the request's headers", async () => {
    certs ??= makeCertificates();
    const origin = await startTlsPageServer(certs.leaf);
    onTestFinished(() => origin.close());
    const proxy = await startTestProxy();
    onTestFinished(() => proxy.close());
    const transport = createTransport({ proxy: { https: new URL(proxy.url) }, ca: [certs.ca.cert] });
    onTestFinished(() => transport.close());
    const authority = `localhost:${new URL(origin.url).port}`;
    const response = await transport.request({
      origin: `https://${authority}`,
      path: "/p",
      headers: { authorization: "Bearer secret" },
      signal: signal(),
    });
    expect(response.statusCode).toBe(200);
    await text(response.body);
    expect(proxy.received.map(({ method, target, headers }) => [method, target, headers])).toEqual([
      ["CONNECT", authority, { connection: "close", host: authority, "proxy-connection": "keep-alive" }],
    ]);
    expect(origin.requests.map((headers) => headers.authorization)).toEqual(["Bearer secret"]);
  });

  it.each([
    ["a CONNECT refused", { refuseConnect: 403 }, "https", 403],
    ["a forwarded request without the credentials the proxy wants", { credentials: "u:p" }, "http", 407],
  ] as const)("%s is the proxy's refusal, with its status", async (_name, options, scheme, status) => {
    const proxy = await startTestProxy(options);
    onTestFinished(() => proxy.close());
    const transport = createTransport({ proxy: { [scheme]: new URL(`http://${proxy.name}`) } });
    onTestFinished(() => transport.close());
    const error = await caught(
      transport.request({ origin: `${scheme}://127.0.0.1:9`, path: "/p", headers: {}, signal: signal() }),
    );
    expect(error).toBeInstanceOf(ProxyRefusedError);
    expect((error as ProxyRefusedError).status).toBe(status);
  });

  it("a proxy that never answers CONNECT is given up on after --timeout", async () => {
    const proxy = await silentProxy();
    const transport = createTransport({ proxy: { https: proxy.url }, timeoutMs: 300 });
    onTestFinished(() => transport.close());
    const started = performance.now();
    const error = await caught(
      transport.request({ origin: "https://127.0.0.1:9", path: "/p", headers: {}, signal: signal() }),
    );
    expect([(error as NodeJS.ErrnoException).code, error.message]).toEqual([
      "ETIMEDOUT",
      "the proxy did not answer CONNECT",
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(proxy.held()).toBe(1);
  });

  it("an abort ends a request still waiting for its tunnel, with the abort's reason", async () => {
    const proxy = await silentProxy();
    const transport = createTransport({ proxy: { https: proxy.url }, timeoutMs: 60_000 });
    onTestFinished(() => transport.close());
    const controller = new AbortController();
    const pending = caught(
      transport.request({ origin: "https://127.0.0.1:9", path: "/p", headers: {}, signal: controller.signal }),
    );
    await waitFor(() => proxy.held() === 1, "the CONNECT to arrive");
    const reason = new Error("stop");
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it("close() ends a tunnel still being opened, and every connection it keeps alive", async () => {
    const proxy = await silentProxy();
    const closed: string[] = [];
    const server = await serve((request, response) => {
      request.socket.once("close", () => closed.push("kept"));
      response.writeHead(200).end(PAGE);
    });
    const transport = createTransport({ proxy: { https: proxy.url }, timeoutMs: 60_000 });
    const kept = await transport.request({ origin: server.url, path: "/p", headers: {}, signal: signal() });
    await text(kept.body);
    const pending = caught(
      transport.request({ origin: "https://127.0.0.1:9", path: "/p", headers: {}, signal: signal() }),
    );
    await waitFor(() => proxy.held() === 1, "the CONNECT to arrive");
    expect(closed).toEqual([]);
    transport.close();
    expect((await pending).message).toMatch(/socket hang up|aborted/);
    await waitFor(() => closed.length === 1, "the kept-alive connection to close");
  });
});
