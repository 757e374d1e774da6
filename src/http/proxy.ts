// Which proxy, if any, a request to an origin goes through: the proxy for its scheme, unless NO_PROXY
// names the host. Hand-written rather than undici's EnvHttpProxyAgent, whose NO_PROXY matching
// (undici 7.30) differs from curl's (it treats an IP address as a domain name, so "0.0.1" bypasses
// 10.0.0.1; it knows no CIDR ranges, no trailing dots, and never matches "::1" for [::1]) and which
// does not tell which proxy it chose, what --verbose and the errors must say.
import { BlockList, isIP } from "node:net";

export interface ProxyRoutes {
  /** The proxy for http:// targets, and for https:// ones (each may be none). */
  readonly http?: URL;
  readonly https?: URL;
  /** NO_PROXY as given: hosts, domain suffixes, host:port, IP addresses and CIDR ranges, or `*`. */
  readonly noProxy?: string;
}

/**
 * The proxy a request to `origin` goes through, or undefined to connect directly. Besides NO_PROXY,
 * this machine's own addresses go direct when the proxy is on another machine, which cannot reach
 * them (curl would send them there; a proxy on this machine, such as a debugging one, still gets them).
 */
export function proxyFor(origin: string, routes: ProxyRoutes | undefined): URL | undefined {
  if (routes === undefined) return undefined;
  const url = new URL(origin);
  const proxy = url.protocol === "https:" ? routes.https : routes.http;
  if (proxy === undefined || (isLoopback(url.hostname) && !isLoopback(proxy.hostname))) return undefined;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return bypassesProxy(url.hostname, port, routes.noProxy ?? "") ? undefined : proxy;
}

/** How a proxy is named to people: host and port, never the user name or password its URL may carry. */
export function proxyName(proxy: URL): string {
  return `${proxy.hostname}:${proxy.port || (proxy.protocol === "https:" ? 443 : 80)}`;
}

/**
 * curl's rules: entries are separated by commas (and blanks); `*` alone matches every host; a name
 * matches itself and its subdomains (a leading dot or `*.` is ignored, as is a trailing dot); an IP
 * address or a CIDR range matches addresses only; `:port` limits an entry to that port (curl
 * ignores ports; Go and Python honour them, and so does msgstat). Case does not matter.
 */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
  const list = noProxy.trim();
  if (list === "") return false;
  if (list === "*") return true;
  const host = unbracket(hostname).toLowerCase().replace(/\.$/, "");
  return list.split(/[\s,]+/).some((entry) => entry !== "" && entryMatches(entry.toLowerCase(), host, port));
}

function entryMatches(entry: string, host: string, port: number): boolean {
  // host:port, [v6]:port; a bare IPv6 address has colons too but is an address as it stands.
  const withPort = /^(.*[^:]):(\d+)$/.exec(entry);
  let name = entry;
  if (withPort !== null && isIP(entry) === 0) {
    if (Number(withPort[2]) !== port) return false;
    name = withPort[1]!;
  }
  name = unbracket(name);
  const [address, bits] = name.split("/");
  const family = isIP(address!);
  if (family !== 0) return isIP(host) === family && inRange(host, address!, bits, family);
  if (isIP(host) !== 0) return false;
  const domain = name.replace(/^\*?\./, "").replace(/\.$/, "");
  return domain !== "" && (host === domain || host.endsWith(`.${domain}`));
}

function inRange(host: string, address: string, bits: string | undefined, family: number): boolean {
  const type = family === 4 ? "ipv4" : "ipv6";
  const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return false;
  const range = new BlockList();
  range.addSubnet(address, prefix, type);
  return range.check(host, type);
}

export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether a URL's host is this machine's loopback; false for text that is no URL. */
export function isLoopbackUrl(text: string): boolean {
  try {
    return isLoopback(new URL(text).hostname);
  } catch {
    return false;
  }
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
