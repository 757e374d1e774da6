// Requests through a proxy, by undici's ProxyAgent: https:// targets tunnel through CONNECT, which
// carries none of the request's headers; http:// ones are forwarded (GET http://host/path), as curl
// does, so that any proxy can carry them. One keep-alive agent per proxy.
import { Pool, ProxyAgent, type Dispatcher } from "undici";
import type { Connections, TransportOptions, TransportRequest, TransportResponse } from "./exchange.js";

export interface ProxyTransport extends Connections {
  through(proxy: URL, request: TransportRequest): Promise<TransportResponse>;
}

const POOL = { keepAliveTimeout: 10_000, connections: 4 };

export function proxyTransport(options: TransportOptions): ProxyTransport {
  const tls = options.ca === undefined ? {} : { ca: [...options.ca] };
  const timeoutMs = options.timeoutMs;
  // undici's own timeouts are 300 s; a proxy's answer to CONNECT is bounded as every request is.
  const timeouts = timeoutMs === undefined ? {} : { connectTimeout: timeoutMs, headersTimeout: timeoutMs };
  const agents = new Map<string, Dispatcher>();
  const agentFor = (proxy: URL): Dispatcher => {
    let agent = agents.get(proxy.href);
    if (agent === undefined) {
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
  const all = async (end: (agent: Dispatcher) => Promise<void>) => {
    await Promise.all([...agents.values()].map(end));
  };
  return {
    async through(proxy, { origin, path, headers, signal }) {
      const timeout = timeoutMs === undefined ? {} : { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
      const {
        statusCode,
        headers: received,
        body,
      } = await agentFor(proxy).request({ origin, path, method: "GET", headers: { ...headers }, signal, ...timeout });
      return { statusCode, headers: received, body };
    },
    close: () => all((agent) => agent.close()),
    destroy: () => all((agent) => agent.destroy()),
  };
}
