// The transport: how a request reaches its origin, and the route to it (proxy.ts decides it per
// origin). Direct requests go through Node's own http and https agents (direct-transport.ts), proxied
// ones through undici's ProxyAgent (proxy-transport.ts), which is loaded only when a request takes a
// proxy. Bodies are decoded as they are read (content-coding.ts); redirects and retries are msgstat's
// own (redirects.ts, retries.ts say why).
import { directTransport } from "./direct-transport.js";
import type { Connections, Transport, TransportOptions } from "./exchange.js";
import { proxyFor } from "./proxy.js";

export type { Transport, TransportOptions, TransportRequest, TransportResponse } from "./exchange.js";

/** A route for each request's origin: Node's agents directly, or undici's ProxyAgent through a proxy. */
export function createTransport(options: TransportOptions = {}): Transport {
  const direct = directTransport(options);
  const routes = options.proxy;
  if (routes?.http === undefined && routes?.https === undefined) return direct;
  let proxied: Promise<import("./proxy-transport.js").ProxyTransport> | undefined;
  const throughProxies = () =>
    (proxied ??= import("./proxy-transport.js").then(({ proxyTransport }) => proxyTransport(options)));
  const both = async (end: (connections: Connections) => Promise<void>) => {
    await Promise.all([end(direct), proxied?.then(end)]);
  };
  return {
    async request(request) {
      const proxy = proxyFor(request.origin, routes);
      return proxy === undefined ? direct.request(request) : (await throughProxies()).through(proxy, request);
    },
    close: () => both((connections) => connections.close()),
    destroy: () => both((connections) => connections.destroy()),
  };
}
