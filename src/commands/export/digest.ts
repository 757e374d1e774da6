// A partition's content digest, the same whatever order its messages came in: the sum, modulo 2^256,
// of the SHA-256 of each message's bytes as the server sent them. A sum, not a hash of the sorted
// messages: it is computed in one pass over the spill, in flat memory, with no sort (the API promises
// no order, so two runs may list a day's messages differently). Not XOR: two equal messages would
// cancel out (ids are deduplicated first, but a sum does not depend on that).
import { createHash } from "node:crypto";
import { createReadStream, promises as fs } from "node:fs";

const LANES = 8;

export class PartitionDigest {
  /** 256 bits as eight 32-bit lanes, least significant first. */
  private readonly lanes = new Uint32Array(LANES);
  count = 0;

  add(bytes: Buffer | string): void {
    const hash = createHash("sha256").update(bytes).digest();
    let carry = 0;
    for (let lane = 0; lane < LANES; lane++) {
      const sum = this.lanes[lane]! + hash.readUInt32LE(lane * 4) + carry;
      this.lanes[lane] = sum >>> 0;
      carry = sum > 0xffffffff ? 1 : 0;
    }
    this.count++;
  }

  /** Hex, with what else decides the file's bytes: the format and how msgstat encodes it. */
  value(encoding: string): string {
    return createHash("sha256")
      .update(encoding)
      .update("\0")
      .update(Buffer.from(this.lanes.buffer))
      .update(`\0${this.count}`)
      .digest("hex");
  }
}

/** What a data file was when msgstat wrote it, to know it still is (not deleted, cut short or replaced). */
export interface FileFingerprint {
  bytes: number;
  sha256: string;
}

/** The file's size and SHA-256; undefined when it is missing or not a plain file. */
export async function fingerprintOf(file: string): Promise<FileFingerprint | undefined> {
  const stats = await fs.lstat(file).catch(() => undefined);
  if (!stats?.isFile()) return undefined;
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { bytes: stats.size, sha256: hash.digest("hex") };
}
