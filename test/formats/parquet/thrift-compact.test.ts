// Thrift's compact protocol, byte for byte as its description gives it: field headers (a delta in the
// high nibble, or the type and the zigzag field id when the delta is not 1 to 15), zigzag varints, the
// list headers short and long, binary as length and bytes, and structs that end with a stop byte.
import { describe, expect, it } from "vitest";
import { CompactWriter } from "../../../src/formats/parquet/thrift-compact.js";

const bytesOf = (write: (writer: CompactWriter) => void): number[] => {
  const writer = new CompactWriter();
  write(writer);
  return [...writer.end().written()];
};

describe("CompactWriter", () => {
  it.each<[number, number[]]>([
    [0, [0x00]],
    [-1, [0x01]],
    [1, [0x02]],
    [-64, [0x7f]],
    [64, [0x80, 0x01]],
    [2 ** 31 - 1, [0xfe, 0xff, 0xff, 0xff, 0x0f]],
    [-(2 ** 31), [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ])("an i32 of %i: header 0x15, then its zigzag varint", (value, varint) => {
    expect(bytesOf((w) => w.i32(1, value))).toEqual([0x15, ...varint, 0x00]);
  });

  it("an i64 past 32 bits keeps every bit: 2^40 and -(2^40)", () => {
    expect(bytesOf((w) => w.i64(1, 2 ** 40))).toEqual([0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00]);
    expect(bytesOf((w) => w.i64(1, -(2 ** 40)))).toEqual([0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x00]);
  });

  it("a field id 1 to 15 past the last is a delta in the header; any other is written in full", () => {
    const bytes = bytesOf((w) => w.i16(1, 0).i16(16, 0).i16(33, 0).i16(32, 0));
    expect(bytes).toEqual([0x14, 0x00, 0xf4, 0x00, 0x04, 0x42, 0x00, 0x04, 0x40, 0x00, 0x00]);
    expect(bytesOf((w) => w.i16(1, 0).i16(17, 0))).toEqual([0x14, 0x00, 0x04, 0x22, 0x00, 0x00]);
  });

  it("booleans are their header alone: 1 true, 2 false", () => {
    expect(bytesOf((w) => w.bool(1, true).bool(2, false))).toEqual([0x11, 0x12, 0x00]);
  });

  it("binary is its byte length then its UTF-8 bytes", () => {
    expect(bytesOf((w) => w.binary(1, "hé").binary(2, Uint8Array.of(0, 255)))).toEqual([
      0x18, 0x03, 0x68, 0xc3, 0xa9, 0x18, 0x02, 0x00, 0xff, 0x00,
    ]);
  });

  it("a struct field counts its own ids from 0, and the outer ids go on from the struct's", () => {
    expect(bytesOf((w) => w.struct(4).i32(1, 5).end().i32(5, 1))).toEqual([0x4c, 0x15, 0x0a, 0x00, 0x15, 0x02, 0x00]);
  });

  it("lists: under 15 elements the size shares the type's byte; from 15, 0xF and a varint", () => {
    const fifteen = new Array<number>(15).fill(0);
    expect(bytesOf((w) => w.i32List(1, [1, -1, 2]).i32List(2, fifteen))).toEqual([
      0x19,
      0x35,
      0x02,
      0x01,
      0x04,
      0x19,
      0xf5,
      0x0f,
      ...fifteen,
      0x00,
    ]);
    expect(bytesOf((w) => w.binaryList(3, ["a", ""]))).toEqual([0x39, 0x28, 0x01, 0x61, 0x00, 0x00]);
  });

  it("a list of structs: each its own ids from 0 and its stop byte; the outer ids go on from the list's", () => {
    const bytes = bytesOf((w) => w.structList(4, [1, 2], (value, writer) => writer.i32(1, value)).i32(5, 0));
    expect(bytes).toEqual([0x49, 0x2c, 0x15, 0x02, 0x00, 0x15, 0x04, 0x00, 0x15, 0x00, 0x00]);
  });

  it("grows past its first buffer without losing what it wrote", () => {
    const long = "x".repeat(1000);
    const bytes = Buffer.from(bytesOf((w) => w.i32(1, 7).binary(2, long)));
    expect([...bytes.subarray(0, 5)]).toEqual([0x15, 0x0e, 0x18, 0xe8, 0x07]);
    expect(bytes.subarray(5, 1005).toString()).toBe(long);
    expect(bytes.length).toBe(1006);
  });
});
