// The transport: keep-alive undici agents, one to connect directly and one per proxy, and the route
// between them (proxy.ts decides it per origin). Bodies are decoded as they are read
// (content-coding.ts); redirects and retries are msgstat's own (redirects.ts, retries.ts say why).
import { Agent, Dispatcher, Pool, ProxyAgent } from "undici";
import { proxyFor, type ProxyRoutes } from "./proxy.js";

export interface TransportOptions {
  proxy?: ProxyRoutes;
  /** The certificates trusted for https://, PEM: the default ones and the user's (undefined: Node's own trust). */
  ca?: readonly string[];
  /** Bounds a proxy's answer to CONNECT as it bounds every request (undici's own default is 300 s). */
  timeoutMs?: number;
}

const POOL = { keepAliveTimeout: 10_000, connections: 4 };

export function createTransport(options: TransportOptions = {}): Dispatcher {
  const tls = options.ca === undefined ? {} : { ca: [...options.ca] };
  const direct = new Agent({ ...POOL, connect: tls });
  const { http, https } = options.proxy ?? {};
  if (http === undefined && https === undefined) return direct;
  const agents = new Map<string, Dispatcher>();
  const through = (proxy: URL): Dispatcher => {
    let agent = agents.get(proxy.href);
    if (agent === undefined) {
      // http:// targets are forwarded (GET http://host/path), as curl does, so any proxy can carry
      // them; https:// ones tunnel through CONNECT, which carries none of the request's headers.
      const timeouts = options.timeoutMs === undefined ? {} : { connectTimeout: options.timeoutMs, headersTimeout: options.timeoutMs };
      agent = new ProxyAgent({
        ...POOL,
        uri: proxy.href,
        proxyTunnel: false,
        requestTls: tls,
        proxyTls: tls,
        clientFactory: (origin, clientOptions) => new Pool(origin, { ...clientOptions, ...timeouts }),
      });
      agents.set(proxy.href, agent);
    }
    return agent;
  };
  return new ProxyRouter((origin) => {
    const proxy = proxyFor(origin, options.proxy);
    return proxy === undefined ? direct : through(proxy);
  }, () => [direct, ...agents.values()]);
}

/** Sends each request to the dispatcher its origin's route names. */
class ProxyRouter extends Dispatcher {
  constructor(
    private readonly route: (origin: string) => Dispatcher,
    private readonly all: () => Dispatcher[],
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.route(String(options.origin)).dispatch(options, handler);
  }

  override async close(): Promise<void> {
    await Promise.all(this.all().map((agent) => agent.close()));
  }

  override async destroy(): Promise<void> {
    await Promise.all(this.all().map((agent) => agent.destroy()));
  }
}
