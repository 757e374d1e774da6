// A partition's digest: the sum modulo 2^256 of each message's SHA-256, so the same messages in any
// order give the same value; and a data file's fingerprint, undefined for anything but a plain file.
import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprintOf, PartitionDigest } from "../../../src/commands/export/digest.js";
import { scratchFolder } from "../../support/scratch.js";

const sha256 = (...parts: Array<string | Buffer>) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const digestOf = (messages: string[], encoding = "jsonl.gz-1") => {
  const digest = new PartitionDigest();
  for (const message of messages) digest.add(message);
  return digest.value(encoding);
};

describe("PartitionDigest", () => {
  it("is the SHA-256 of the encoding, the 256-bit sum of the messages' hashes, and their count", () => {
    expect(digestOf([])).toBe(sha256("jsonl.gz-1\0", Buffer.alloc(32), "\0", "0").toString("hex"));
    expect(digestOf(['{"id":"a"}'])).toBe(sha256("jsonl.gz-1\0", sha256('{"id":"a"}'), "\0", "1").toString("hex"));
  });

  it("carries across its 32-bit lanes and wraps at 2^256, as a sum of 500 hashes does", () => {
    const messages = Array.from({ length: 500 }, (_, i) => `{"id":"m${i}"}`);
    const modulus = 1n << 256n;
    let sum = 0n;
    for (const message of messages) {
      const hash = sha256(message);
      sum = (sum + BigInt(`0x${Buffer.from(hash).reverse().toString("hex")}`)) % modulus;
    }
    const lanes = Buffer.from(sum.toString(16).padStart(64, "0"), "hex").reverse();
    expect(digestOf(messages)).toBe(sha256("jsonl.gz-1\0", lanes, "\0", "500").toString("hex"));
  });

  it("is the same whatever order the messages came in, and differs for a message twice or another encoding", () => {
    const three = ['{"id":"a"}', '{"id":"b"}', '{"id":"c"}'];
    expect(digestOf([three[2]!, three[0]!, three[1]!])).toBe(digestOf(three));
    expect(digestOf([...three, three[0]!])).not.toBe(digestOf(three));
    expect(digestOf(["x", "x"])).not.toBe(digestOf([]));
    expect(digestOf(three, "parquet-2")).not.toBe(digestOf(three));
  });
});

describe("fingerprintOf", () => {
  it("gives a plain file's size and SHA-256, and nothing for a missing file, a folder or a link", async () => {
    const dir = scratchFolder("export-digest-");
    const file = path.join(dir, "part.jsonl.gz");
    writeFileSync(file, "hello\n");
    symlinkSync(file, path.join(dir, "link"));
    mkdirSync(path.join(dir, "folder"));
    expect(await fingerprintOf(file)).toEqual({ bytes: 6, sha256: sha256("hello\n").toString("hex") });
    for (const name of ["missing", "folder", "link"]) expect(await fingerprintOf(path.join(dir, name))).toBeUndefined();
  });
});
