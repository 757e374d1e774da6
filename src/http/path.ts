// Identifiers come from the command line and are opaque: each is sent as exactly one path segment,
// so an id holding `/`, `?`, `#`, `%` or a dot segment can never reach another endpoint.

export function encodeSegment(id: string): string {
  // encodeURIComponent leaves "." alone, and "." / ".." would be resolved away as dot segments.
  return encodeURIComponent(id).replace(/\./g, "%2E");
}

export function apiPath(prefix: string, segments: readonly string[]): string {
  return `${prefix}/${segments.map(encodeSegment).join("/")}`;
}
