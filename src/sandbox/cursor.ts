// Opaque cursors: base64url of [listing, index, checksum]. The checksum is keyed by the sandbox's
// seed and clock, so a cursor the server did not issue, or one from another listing, is refused.
import { createHmac } from "node:crypto";

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(listing: string, index: number): string {
    return Buffer.from(JSON.stringify([listing, index, this.checksum(listing, index)]), "utf8").toString("base64url");
  }

  /** The message index the cursor denotes within `listing`, or undefined when it is not valid there. */
  decode(listing: string, cursor: string): number | undefined {
    const payload = parsePayload(cursor);
    if (!payload || payload[0] !== listing) return undefined;
    const index = payload[1];
    // Re-encoding must give back the very same text: rejects padding, stray characters and edits.
    return this.encode(listing, index) === cursor ? index : undefined;
  }

  private checksum(listing: string, index: number): string {
    return createHmac("sha256", this.secret)
      .update(`${listing}\u0000${index}`)
      .digest()
      .subarray(0, 9)
      .toString("base64url");
  }
}

function parsePayload(cursor: string): [string, number, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [listing, index, checksum] = value as unknown[];
    if (typeof listing !== "string" || typeof checksum !== "string") return undefined;
    if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) return undefined;
    return [listing, index, checksum];
  } catch {
    return undefined;
  }
}
