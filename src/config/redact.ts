/** A token as it may be shown: at most its last four characters, and none of a short one. */
export function redact(token: string): string {
  return token.length >= 12 ? `****${token.slice(-4)}` : "****";
}
