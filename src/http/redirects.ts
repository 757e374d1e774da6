// Redirects, as decisions: where the next hop goes, and which headers each hop carries.
// msgstat follows redirects itself rather than with undici's redirect interceptor, which (undici
// 7.30) strips only authorization, cookie and proxy-authorization on a cross-origin hop, so a -H
// header such as X-Api-Key would follow a redirect to another host, and which refuses any redirect
// back to a URL already visited, such as a 302 to the same URL while the service recovers.
import { inlineSafe } from "../core/text.js";
import type { RequestTarget } from "./errors.js";

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

export type RedirectDecision =
  | { readonly follow: RequestTarget; readonly warning?: string }
  /** Why not, worded to follow the request's name ("GET ... redirected ..."). */
  | { readonly refuse: string };

/** Whether a response is a redirect to follow (a redirect status with a Location). */
export function isRedirect(status: number, location: unknown): location is string {
  return REDIRECT_STATUSES.has(status) && typeof location === "string";
}

/**
 * The hop after `from` answered with a redirect to `location`; `hops` is how many redirects were
 * followed before this one. Only http(s) is followed; leaving the base origin is said out loud.
 */
export function nextHop(from: RequestTarget, location: string, hops: number, baseOrigin: string): RedirectDecision {
  if (hops >= MAX_REDIRECTS) return { refuse: `redirected more than ${MAX_REDIRECTS} times` };
  let target: URL;
  try {
    target = new URL(location, from.origin + from.path);
  } catch {
    return { refuse: `redirected to something that is not a URL: ${inlineSafe(location.slice(0, 200))}` };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    return { refuse: `redirected to a ${inlineSafe(target.protocol)} URL, which msgstat does not follow` };
  const follow: RequestTarget = { method: from.method, origin: target.origin, path: target.pathname + target.search };
  if (target.origin === baseOrigin) return { follow };
  return {
    follow,
    warning:
      `following a redirect to ${inlineSafe(target.origin)} without credentials (they are only sent ` +
      `to ${baseOrigin})`,
  };
}

/**
 * The headers of a hop: `always`, and the credentials (the Authorization header and the -H headers,
 * over any of the same name) only when the hop is to the base origin. A chain that leaves it and
 * comes back gets them again: the base origin is the one the user gave them for.
 */
export function hopHeaders(
  origin: string,
  baseOrigin: string,
  always: Readonly<Record<string, string>>,
  credentials: Readonly<Record<string, string>>,
): Record<string, string> {
  return origin === baseOrigin ? { ...always, ...credentials } : { ...always };
}
