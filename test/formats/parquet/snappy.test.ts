// The snappy compressor, undone by a decoder written here from the format's description (every element
// kind: literals of each length size, copies with 1- and 2-byte offsets), on text like a page's, on
// random bytes, on long runs, and at block edges. DuckDB reading the pages back checks it once more.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { maxCompressedLength, snappyCompress } from "../../../src/formats/parquet/snappy.js";

/** The raw snappy format, decoded: a varint length, then tagged literals and copies. */
function snappyDecompress(input: Uint8Array): Buffer {
  let at = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = input[at++]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
  }
  const output = Buffer.alloc(length);
  let written = 0;
  while (at < input.length) {
    const tag = input[at++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let size = tag >>> 2;
      if (size >= 60) {
        const bytes = size - 59;
        size = 0;
        for (let i = 0; i < bytes; i++) size += input[at++]! * 2 ** (8 * i);
      }
      size += 1;
      output.set(input.subarray(at, at + size), written);
      at += size;
      written += size;
      continue;
    }
    let size: number;
    let offset: number;
    if (kind === 1) {
      size = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | input[at++]!;
    } else if (kind === 2) {
      size = (tag >>> 2) + 1;
      offset = input[at]! | (input[at + 1]! << 8);
      at += 2;
    } else throw new Error("4-byte offsets are never written");
    if (offset === 0 || offset > written) throw new Error(`copy from before the start: ${offset} at ${written}`);
    for (let i = 0; i < size; i++) output[written + i] = output[written - offset + i]!;
    written += size;
  }
  if (written !== length) throw new Error(`${written} bytes, the header says ${length}`);
  return output;
}

function roundTrip(input: Buffer): { compressed: number } {
  const output = Buffer.alloc(maxCompressedLength(input.length));
  const compressed = snappyCompress(input, 0, input.length, output);
  expect(compressed).toBeLessThanOrEqual(output.length);
  expect(snappyDecompress(output.subarray(0, compressed)).equals(input)).toBe(true);
  return { compressed };
}

describe("snappyCompress", () => {
  it("text like a page's: what comes back is what went in, much smaller", () => {
    const text = Array.from(
      { length: 20_000 },
      (_, i) =>
        `msg-spring-${String(i).padStart(7, "0")},2026-11-27T11:46:${String(i % 60).padStart(2, "0")}.572+05:30,`,
    ).join("");
    const input = Buffer.from(text);
    expect(input.length).toBeGreaterThan(3 * 65536);
    expect(roundTrip(input).compressed).toBeLessThan(input.length / 3);
  });

  it("random bytes: back unchanged, at most the bound", () => {
    for (const size of [0, 1, 14, 15, 16, 100, 65535, 65536, 65537, 300_000]) roundTrip(randomBytes(size));
  });

  it("long runs and repeats at every distance a copy can have", () => {
    roundTrip(Buffer.alloc(1_000_000, 7));
    const pieces: Buffer[] = [];
    for (const distance of [1, 3, 4, 11, 12, 63, 64, 65, 67, 68, 2047, 2048, 2049, 65535]) {
      const unit = randomBytes(distance);
      pieces.push(unit, unit, unit.subarray(0, Math.min(distance, 70)), randomBytes(5));
    }
    roundTrip(Buffer.concat(pieces));
  });

  it("a part of a larger buffer (start and end)", () => {
    const input = Buffer.from("x".repeat(100) + "abcabcabcabcabcabcabcabcabc".repeat(50) + "y".repeat(100));
    const output = Buffer.alloc(maxCompressedLength(input.length));
    const compressed = snappyCompress(input, 100, input.length - 100, output);
    expect(snappyDecompress(output.subarray(0, compressed)).toString()).toBe(input.subarray(100, -100).toString());
  });

  it("literals of every length size (1 to 4 bytes of length after the tag)", () => {
    for (const size of [59, 60, 61, 255, 256, 257, 65535, 65536, 65537]) {
      const input = randomBytes(size);
      const output = Buffer.alloc(maxCompressedLength(size));
      const compressed = snappyCompress(input, 0, size, output);
      expect(snappyDecompress(output.subarray(0, compressed)).equals(input)).toBe(true);
    }
  });
});
