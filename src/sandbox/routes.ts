// Turns a request target into one of the three routes. Path segments are percent-decoded exactly
// once, so `a%2Fb` is the single segment `a/b` (and such a campaign does not exist).

export type Route =
  | { kind: "campaign-messages"; campaignId: string }
  | { kind: "batch-messages"; campaignId: string; batchId: string }
  | { kind: "message"; campaignId: string; messageId: string }
  | { kind: "unknown" }
  | { kind: "bad-path" };

export interface ParsedTarget {
  path: string;
  query: URLSearchParams;
  route: Route;
}

export function parseTarget(target: string): ParsedTarget {
  const queryStart = target.indexOf("?");
  const path = queryStart < 0 ? target : target.slice(0, queryStart);
  const query = new URLSearchParams(queryStart < 0 ? "" : target.slice(queryStart + 1));
  return { path, query, route: routeOf(path) };
}

export function isListingRoute(route: Route): boolean {
  return route.kind === "campaign-messages" || route.kind === "batch-messages";
}

function routeOf(path: string): Route {
  const segments = decodeSegments(path);
  if (!segments) return { kind: "bad-path" };
  const [root, campaignId, third, fourth, fifth, ...rest] = segments;
  if (root !== "campaigns" || campaignId === undefined || rest.length > 0) return { kind: "unknown" };
  if (third === "messages" && fourth === undefined) return { kind: "campaign-messages", campaignId };
  if (third === "messages" && fourth !== undefined && fifth === undefined)
    return { kind: "message", campaignId, messageId: fourth };
  if (third === "batch" && fourth !== undefined && fifth === "messages")
    return { kind: "batch-messages", campaignId, batchId: fourth };
  return { kind: "unknown" };
}

/** Segments after the leading slash; undefined when an escape is malformed. Empty segments never match a route. */
function decodeSegments(path: string): string[] | undefined {
  if (!path.startsWith("/")) return [];
  const raw = path.slice(1).split("/");
  if (raw.some((segment) => segment === "")) return [];
  try {
    return raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
