// Which requests go through a proxy: NO_PROXY by curl's rules (where undici's EnvHttpProxyAgent
// differs, the case says so), and the transport routing each origin as proxyFor decides, the host
// name resolved by the proxy alone.
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient } from "../support/client.js";
import { bypassesProxy, proxyFor, proxyName } from "../../src/http/proxy.js";
import { createTransport } from "../../src/http/transport.js";
import { makeCertificates, startTlsPageServer, type TestCertificates, type TlsPageServer } from "../support/tls.js";
import { startTestProxy, type TestProxy } from "../support/test-proxy.js";

describe("NO_PROXY, as curl reads it", () => {
  it.each<[string, string, number, boolean]>([
    // [NO_PROXY, host, port, bypassed]
    ["", "api.example.com", 443, false],
    ["*", "api.example.com", 443, true],
    [" * ", "api.example.com", 443, true],
    ["api.example.com", "api.example.com", 443, true],
    ["API.Example.COM", "api.example.com", 443, true],
    ["example.com", "api.example.com", 443, true],
    [".example.com", "api.example.com", 443, true],
    ["*.example.com", "api.example.com", 443, true],
    [".example.com", "example.com", 443, true],
    ["example.com.", "api.example.com", 443, true],
    ["example.com", "api.example.com.", 443, true],
    ["example.com", "notexample.com", 443, false],
    ["ample.com", "example.com", 443, false],
    ["other.org, example.com", "api.example.com", 443, true],
    ["other.org,,  example.com", "api.example.com", 443, true],
    ["example.com:8443", "api.example.com", 8443, true],
    ["example.com:8443", "api.example.com", 443, false],
    ["*,example.com", "other.org", 443, false],
    ["127.0.0.1", "127.0.0.1", 80, true],
    ["127.0.0.1:8080", "127.0.0.1", 8080, true],
    ["127.0.0.1:8080", "127.0.0.1", 9090, false],
    ["10.0.0.0/8", "10.1.2.3", 80, true],
    ["10.0.0.0/8", "11.1.2.3", 80, false],
    ["192.168.1.0/24:80", "192.168.1.7", 80, true],
    // undici's EnvHttpProxyAgent bypasses 10.0.0.1 for "0.0.1": an address is not a domain name.
    ["0.0.1", "10.0.0.1", 80, false],
    ["example.com", "10.0.0.1", 80, false],
    // undici never matches "::1" against the bracketed [::1] of a URL.
    ["::1", "[::1]", 80, true],
    ["[::1]", "[::1]", 80, true],
    ["[::1]:8080", "[::1]", 8080, true],
    ["[::1]:8080", "[::1]", 80, false],
    ["fd00::/8", "[fd12::5]", 80, true],
    ["localhost", "localhost", 3000, true],
  ])("NO_PROXY=%j, %s port %i: bypassed %s", (noProxy, host, port, bypassed) => {
    expect(bypassesProxy(host, port, noProxy)).toBe(bypassed);
  });

  const routes = {
    http: new URL("http://plain-proxy:3128"),
    https: new URL("http://user:pw@tls-proxy:3128"),
    noProxy: "internal.example,127.0.0.1",
  };

  it("the proxy of the target's scheme, unless NO_PROXY names the host (the default port counts)", () => {
    expect(proxyFor("http://api.example.com", routes)?.host).toBe("plain-proxy:3128");
    expect(proxyFor("https://api.example.com", routes)?.host).toBe("tls-proxy:3128");
    expect(proxyFor("https://svc.internal.example", routes)).toBeUndefined();
    expect(proxyFor("http://127.0.0.1:8080", routes)).toBeUndefined();
    expect(proxyFor("https://api.example.com", { http: routes.http })).toBeUndefined();
    expect(proxyFor("https://api.example.com", undefined)).toBeUndefined();
    expect(bypassesProxy("api.example.com", 443, "api.example.com:443")).toBe(true);
  });

  it("this machine's addresses skip a proxy on another machine (it could not reach them), not one on this machine", () => {
    const remote = { http: new URL("http://proxy.example:3128"), https: new URL("http://proxy.example:3128") };
    const local = { http: new URL("http://127.0.0.1:8888"), https: new URL("http://localhost:8888") };
    for (const origin of ["http://127.0.0.1:8080", "https://localhost", "http://[::1]:3000", "http://127.1.2.3"]) {
      expect(proxyFor(origin, remote)).toBeUndefined();
      expect(proxyFor(origin, local)).toBeDefined();
    }
    expect(proxyFor("http://10.0.0.1", remote)?.host).toBe("proxy.example:3128");
  });

  it("a proxy is named by host and port, never with its user name or password", () => {
    expect(proxyName(routes.https)).toBe("tls-proxy:3128");
    expect(proxyName(new URL("http://me:secret@proxy.example"))).toBe("proxy.example:80");
  });
});

describe("the transport routes each origin as proxyFor decides", () => {
  let proxy: TestProxy;
  let certs: TestCertificates;
  let tls: TlsPageServer;
  let plain: ReturnType<typeof createServer>;
  let plainPort: number;
  beforeAll(async () => {
    certs = makeCertificates();
    tls = await startTlsPageServer(certs.leaf);
    plain = createServer((_req, res) => res.end("plain"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    plainPort = (plain.address() as AddressInfo).port;
    proxy = await startTestProxy({ hosts: ["api.msgstat.test"] });
  });
  afterAll(async () => {
    await proxy.close();
    await tls.close();
    await new Promise((resolve) => plain.close(resolve));
    certs.remove();
  });

  it("a host only the proxy can resolve is reached through it: http forwarded, https through CONNECT", async () => {
    const url = new URL(proxy.url);
    const transport = createTransport({ proxy: { http: url, https: url }, ca: [certs.ca.cert] });
    try {
      const overHttp = await transport.request({
        origin: `http://api.msgstat.test:${plainPort}`,
        path: "/x",
        headers: {},
        signal: AbortSignal.timeout(10_000),
      });
      expect([overHttp.statusCode, await text(overHttp.body)]).toEqual([200, "plain"]);
      const overTls = await transport.request({
        origin: `https://localhost:${tls.port}`,
        path: "/y",
        headers: {},
        signal: AbortSignal.timeout(10_000),
      });
      expect(overTls.statusCode).toBe(200);
      expect(JSON.parse(await text(overTls.body))).toHaveProperty("data");
    } finally {
      transport.close();
    }
    expect(proxy.received.map(({ method, target }) => `${method} ${target}`)).toEqual([
      `GET http://api.msgstat.test:${plainPort}/x`,
      `CONNECT localhost:${tls.port}`,
    ]);
  });

  it("through a proxy, an unasked-for 100 Continue is skipped as RFC 9110 asks, as it is directly: the page arrives, asked for once", async () => {
    let requests = 0;
    const server = createTlsServer({ key: certs.leaf.key, cert: certs.leaf.cert }, (_req, res) => {
      requests++;
      res.writeContinue();
      res.writeHead(200, { "content-type": "application/json" }).end('{"data":[],"pageData":{"hasNextPage":false}}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `https://localhost:${(server.address() as AddressInfo).port}`;
    const url = new URL(proxy.url);
    const client = testClient(origin, {
      retries: 2,
      random: () => 0,
      network: { proxy: { https: url }, ca: [certs.ca.cert] },
    });
    try {
      const body = await client.get(["p"]);
      expect(body.bytes.toString()).toBe('{"data":[],"pageData":{"hasNextPage":false}}');
      expect(requests).toBe(1);
      expect(proxy.received.at(-1)!.target).toBe(origin.slice("https://".length));
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the proxy's own name is resolved by the lookup given; the target's, forwarded or tunnelled, only by the proxy", async () => {
    const before = proxy.received.length;
    const asked: string[] = [];
    const lookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    };
    const named = new URL(`http://proxy.msgstat.test:${new URL(proxy.url).port}`);
    const transport = createTransport({ proxy: { http: named, https: named }, ca: [certs.ca.cert], lookup });
    try {
      const forwarded = await transport.request({
        origin: `http://api.msgstat.test:${plainPort}`,
        path: "/x",
        headers: {},
        signal: AbortSignal.timeout(10_000),
      });
      expect(await text(forwarded.body)).toBe("plain");
      const tunnelled = await transport.request({
        origin: `https://api.msgstat.test:${tls.port}`,
        path: "/y",
        headers: {},
        signal: AbortSignal.timeout(10_000),
      });
      expect(tunnelled.statusCode).toBe(200);
      await text(tunnelled.body);
    } finally {
      transport.close();
    }
    expect(asked).toEqual(["proxy.msgstat.test", "proxy.msgstat.test"]);
    expect(proxy.received.slice(before).map(({ method, target }) => `${method} ${target}`)).toEqual([
      `GET http://api.msgstat.test:${plainPort}/x`,
      `CONNECT api.msgstat.test:${tls.port}`,
    ]);
  });

  it("NO_PROXY's hosts are connected to directly", async () => {
    const before = proxy.received.length;
    const url = new URL(proxy.url);
    const transport = createTransport({ proxy: { http: url, https: url, noProxy: `127.0.0.1:${plainPort}` } });
    try {
      const direct = await transport.request({
        origin: `http://127.0.0.1:${plainPort}`,
        path: "/",
        headers: {},
        signal: AbortSignal.timeout(10_000),
      });
      expect(await text(direct.body)).toBe("plain");
    } finally {
      transport.close();
    }
    expect(proxy.received.length).toBe(before);
  });
});

async function text(body: Readable): Promise<string> {
  let read = "";
  for await (const chunk of body) read += String(chunk);
  return read;
}
