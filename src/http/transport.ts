// The transport: one keep-alive undici agent, and the interceptors composed onto it. Issue 10's proxy
// is an EnvHttpProxyAgent in place of the Agent, its compression `interceptors.decompress()` passed
// to `compose`. Redirects and retries are msgstat's own (redirects.ts, retries.ts say why).
import { Agent, type Dispatcher } from "undici";

export function createTransport(): Dispatcher {
  return new Agent({ keepAliveTimeout: 10_000, connections: 4 });
}
