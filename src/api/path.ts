// Identifiers come from the command line and are opaque: each is sent as exactly one path segment,
// so an id holding `/`, `?`, `#`, `%` or a dot segment can never reach another endpoint.

export function encodeSegment(id: string): string {
  // encodeURIComponent leaves "." alone, and "." / ".." would be resolved away as dot segments.
  return encodeURIComponent(id).replace(/\./g, "%2E");
}

export function apiPath(prefix: string, segments: readonly string[]): string {
  return `${prefix}/${segments.map(encodeSegment).join("/")}`;
}

export interface ListingRef {
  campaignId: string;
  batchId?: string;
}

export function listingSegments(listing: ListingRef): string[] {
  return listing.batchId === undefined
    ? ["campaigns", listing.campaignId, "messages"]
    : ["campaigns", listing.campaignId, "batch", listing.batchId, "messages"];
}

export function messageSegments(campaignId: string, messageId: string): string[] {
  return ["campaigns", campaignId, "messages", messageId];
}
