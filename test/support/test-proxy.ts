// A small forward and CONNECT proxy on 127.0.0.1 that records what it received: requests for http://
// targets arrive whole (GET http://host/path, headers included), https:// ones as CONNECT host:port.
// Host names in `hosts` are resolved by the proxy alone (to 127.0.0.1), as a corporate proxy resolves
// names the client's own DNS cannot.
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createTlsServer } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface ProxyReceived {
  method: string;
  /** The absolute URL of a forwarded request, or the host:port of a CONNECT. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestProxy {
  url: string;
  /** host:port, as msgstat names the proxy. */
  name: string;
  received: ProxyReceived[];
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** "user:password" the proxy requires (Basic), answering 407 without them. */
  credentials?: string;
  /** Names only the proxy knows, resolved to 127.0.0.1. */
  hosts?: readonly string[];
  /** Every CONNECT is answered with this status instead of a tunnel. */
  refuseConnect?: number;
  /** An https:// proxy with this certificate and key. */
  tls?: { cert: string; key: string };
}

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const received: ProxyReceived[] = [];
  const sockets = new Set<Socket>();
  const address = (host: string) => (options.hosts?.includes(host) ? "127.0.0.1" : host);
  const authorised = (headers: IncomingHttpHeaders) =>
    options.credentials === undefined ||
    headers["proxy-authorization"] === `Basic ${Buffer.from(options.credentials).toString("base64")}`;

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    received.push({ method: req.method ?? "", target: req.url ?? "", headers: req.headers });
    if (!authorised(req.headers)) {
      res.writeHead(407, { "Proxy-Authenticate": 'Basic realm="test"', "Content-Length": 0 }).end();
      return;
    }
    const target = new URL(req.url ?? "");
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest(
      {
        host: address(target.hostname),
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502, { "Content-Length": 0 }).end());
    req.pipe(upstream);
  };
  const server =
    options.tls === undefined
      ? createServer(forward)
      : createTlsServer({ cert: options.tls.cert, key: options.tls.key }, forward);
  server.on("connect", (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => undefined);
    received.push({ method: "CONNECT", target: req.url ?? "", headers: req.headers });
    const refuse = (status: number, reason: string) =>
      client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\n\r\n`);
    if (!authorised(req.headers))
      return refuse(407, 'Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"');
    if (options.refuseConnect !== undefined) return refuse(options.refuseConnect, "Refused");
    const [host, port] = (req.url ?? "").split(/:(?=\d+$)/);
    const upstream = connect(Number(port), address(host ?? ""), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => refuse(502, "Bad Gateway"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const auth = options.credentials === undefined ? "" : `${options.credentials}@`;
  return {
    url: `${options.tls === undefined ? "http" : "https"}://${auth}127.0.0.1:${port}`,
    name: `127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
