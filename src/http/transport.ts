// The transport: how one GET reaches its origin, directly or through a proxy (proxy.ts decides which,
// per origin), on Node's own http and https clients for both. Through a proxy, an http:// target is
// forwarded (GET http://host/path, as curl does, so that any proxy can carry it) and an https:// one
// tunnels through CONNECT, which carries none of the request's headers; through an https:// proxy both
// tunnel. Not undici: loading it and compiling its WebAssembly parser cost more than the rest of
// `msgstat message` on every Node line (bench/HISTORY.md, "One HTTP stack").
// Bodies are decoded as they are read (content-coding.ts); redirects and retries are msgstat's own.
import type { Agent, ClientRequest, IncomingMessage } from "node:http";
import { isIP, type LookupFunction, type Socket } from "node:net";
import type { Readable } from "node:stream";
import type { ConnectionOptions } from "node:tls";
import { durationText } from "../core/duration.js";
import { ProxyRefusedError } from "./errors.js";
import { proxyFor, type ProxyRoutes } from "./proxy.js";

export interface TransportOptions {
  proxy?: ProxyRoutes;
  /** The certificates trusted for https://, PEM: the default ones and the user's (undefined: Node's own trust). */
  ca?: readonly string[];
  /** Each request's --timeout: it bounds a proxy's answer to CONNECT, and connecting is given at most 10 s of it. */
  timeoutMs?: number;
  /** How host names become addresses (Node's dns.lookup unless given: tests give their own). */
  lookup?: LookupFunction;
}

/** One GET: origin and path apart, so that the path is sent exactly as given (client.ts says why). */
export interface TransportRequest {
  readonly origin: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Ends the request, from connect to last byte. */
  readonly signal: AbortSignal;
}

export interface TransportResponse {
  readonly statusCode: number;
  /** Names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Readable;
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /**
   * Closes every connection at once, a tunnel still being opened included: it is called once msgstat
   * has read what it wanted, and what is still under way is a page read ahead that nobody will read.
   */
  close(): void;
}

// An idle connection is closed after this long, before the 5 s after which many servers close theirs
// (Node's own server, for one), so that a request is rarely sent on a connection the server is closing.
// Node's agent keeps one for ever, and does not read a Keep-Alive: timeout hint.
const IDLE_MS = 4_000;
// Connecting (to the origin or to a proxy) is given at most this long, so that a host that drops the
// connection attempt is said to be unreachable, and retried, long before --timeout.
export const CONNECT_TIMEOUT_MS = 10_000;
const AGENT = { keepAlive: true, maxSockets: 4, timeout: IDLE_MS };
// Not `import http from "node:http"`: from Node 22 on, importing it as an ES module reads each of its
// exports, and the WebSocket ones load Node's own bundled undici on every run that makes a request
// (bench/HISTORY.md, "One HTTP stack"). Required this way, node:http loads alone.
const http = process.getBuiltinModule("node:http");
// node:https and node:tls (with node:crypto under them) load when an https:// URL is first asked for:
// on a run against http:// they were most of the time spent loading modules
// (docs/bench.md, "The executable's start-up").
const https = () => process.getBuiltinModule("node:https");
const tlsConnect = (options: ConnectionOptions) => process.getBuiltinModule("node:tls").connect(options);

/** How one request goes: to whom the connection is made, and the request line's target. */
interface Route {
  readonly agent: Agent;
  /** The agent is https's: TLS to the target, directly or through a tunnel. */
  readonly secure: boolean;
  readonly host: string;
  readonly port: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Forwarded through this proxy: its 407 is its own refusal, not the service's answer. */
  readonly forwardedBy?: URL;
}

export function createTransport(options: TransportOptions = {}): Transport {
  const connectMs = Math.min(CONNECT_TIMEOUT_MS, options.timeoutMs ?? CONNECT_TIMEOUT_MS);
  const lookup = options.lookup === undefined ? {} : { lookup: options.lookup };
  const tls = options.ca === undefined ? {} : { ca: [...options.ca] };
  const agents = new Map<string, Agent>();
  const opening = new Set<ClientRequest>();
  const agent = (key: string, make: () => Agent) => {
    let made = agents.get(key);
    if (made === undefined) agents.set(key, (made = make()));
    return made;
  };
  const tunnels = (proxy: URL, secure: boolean): Agent =>
    agent(`${secure ? "https" : "http"} via ${proxy.href}`, () => {
      const made = secure ? new (https().Agent)({ ...AGENT, ...tls }) : new http.Agent(AGENT);
      // Node's agent takes a connection made later: the tunnel, then TLS over it for an https:// target.
      made.createConnection = (request, callback) => {
        const target = request as ConnectionOptions;
        const done = callback as (error: Error | null, socket?: Socket) => void;
        const open = openTunnel(proxy, target, { connectMs, timeoutMs: options.timeoutMs, tls, lookup }, opening);
        open.then((socket) => done(null, secure ? tlsConnect({ ...target, socket }) : socket), done);
        return undefined;
      };
      return made;
    });

  const routeOf = ({ origin, path, headers }: TransportRequest): Route => {
    const target = new URL(origin);
    const secure = target.protocol === "https:";
    const direct = { host: unbracket(target.hostname), port: portOf(target), path, headers, secure };
    const proxy = proxyFor(origin, options.proxy);
    if (proxy === undefined)
      return {
        ...direct,
        agent: secure
          ? agent("https", () => new (https().Agent)({ ...AGENT, ...tls }))
          : agent("http", () => new http.Agent(AGENT)),
      };
    if (secure || proxy.protocol === "https:") return { ...direct, agent: tunnels(proxy, secure) };
    return {
      agent: agent("http", () => new http.Agent(AGENT)),
      secure: false,
      host: unbracket(proxy.hostname),
      port: portOf(proxy),
      path: origin + path,
      headers: { ...headers, host: target.host, ...proxyCredentials(proxy) },
      forwardedBy: proxy,
    };
  };

  return {
    request: (request) => send(routeOf(request), request.signal, { connectMs, lookup }),
    close() {
      for (const request of opening) request.destroy();
      for (const made of agents.values()) made.destroy();
    },
  };
}

interface ConnectLimits {
  connectMs: number;
  lookup: { lookup?: LookupFunction };
}

function send(route: Route, signal: AbortSignal, limits: ConnectLimits): Promise<TransportResponse> {
  const { agent, host, port, path, headers, forwardedBy, secure } = route;
  // https.request for an https:// agent: the agent decides TLS, the module only its default port.
  const client = secure ? https() : http;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const request = client.request({ host, port, path, method: "GET", headers, agent, signal, ...limits.lookup });
    // Kept for the request's whole life: an error after the response began is the body's too, and
    // one without a listener would end the process.
    request.on("error", reject);
    // Node's client reports an abort only once the request has its connection: one waiting for a
    // tunnel that never opens (a proxy that never answers CONNECT) would outlast --timeout and Ctrl-C.
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", abort, { once: true });
    request.once("close", () => signal.removeEventListener("abort", abort));
    boundConnect(request, limits.connectMs);
    request.on("response", (response) => {
      if (forwardedBy !== undefined && response.statusCode === 407) {
        response.resume();
        return reject(new ProxyRefusedError(407));
      }
      resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response });
    });
    request.end();
  });
}

/** A new connection's connect is given `connectMs`; one reused, or a tunnel already open, is not timed. */
function boundConnect(request: ClientRequest, connectMs: number): void {
  request.on("socket", (socket: Socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(
      () =>
        request.destroy(
          Object.assign(new Error(`could not connect within ${durationText(connectMs, { exact: true })}`), {
            code: "ETIMEDOUT",
          }),
        ),
      connectMs,
    );
    const done = () => clearTimeout(timer);
    socket.once("connect", done);
    request.once("close", done);
  });
}

/**
 * A connection to `target` through `proxy`, by CONNECT: connecting to the proxy is bounded as any
 * connect is, its answer by --timeout (a proxy that takes the connection and never answers). Any answer
 * but 2xx is the proxy's refusal. While it opens, the request is in `opening`, for close() to end.
 */
function openTunnel(
  proxy: URL,
  target: ConnectionOptions,
  limits: ConnectLimits & { timeoutMs?: number; tls: { ca?: string[] } },
  opening: Set<ClientRequest>,
): Promise<Socket> {
  const host = String(target.host);
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${String(target.port)}`;
  const secure = proxy.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? https() : http).request({
      host: unbracket(proxy.hostname),
      port: portOf(proxy),
      method: "CONNECT",
      path: authority,
      // As curl sends it: the proxy may keep the tunnel's connection open.
      headers: { host: authority, "proxy-connection": "keep-alive", ...proxyCredentials(proxy) },
      agent: false,
      ...(secure ? limits.tls : {}),
      ...limits.lookup,
    });
    opening.add(request);
    request.once("close", () => opening.delete(request));
    request.on("error", reject);
    boundConnect(request, limits.connectMs);
    if (limits.timeoutMs !== undefined) {
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error("the proxy did not answer CONNECT"), { code: "ETIMEDOUT" })),
        limits.timeoutMs,
      );
      request.once("close", () => clearTimeout(timer));
    }
    // Node's client gives every answer to a CONNECT here, a refusal included.
    request.on("connect", (response: IncomingMessage, socket: Socket, head: Buffer) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        socket.destroy();
        return reject(new ProxyRefusedError(status));
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.end();
  });
}

/** Basic credentials from the proxy URL's user name and password (percent-decoded), if it has any. */
function proxyCredentials(proxy: URL): Record<string, string> {
  if (proxy.username === "" && proxy.password === "") return {};
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "proxy-authorization": `Basic ${Buffer.from(pair).toString("base64")}` };
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** [::1] in a URL, ::1 to connect to. */
function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1");
}
