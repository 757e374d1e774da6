// Snappy, the raw format (no framing) that a Parquet page compressed with SNAPPY holds: the input's
// length as a varint, then literals and back-references ("copies") of up to 64 bytes at most 64 KiB
// back. Written from the format's description (github.com/google/snappy, format_description.txt) for
// the Parquet writer (writer.ts): Node's zlib has no snappy, and its zstd only from Node 22.15.

const HASH_BITS = 14;
/** Matches are looked for within a block of this size, so that every copy's offset fits in 16 bits. */
const BLOCK = 1 << 16;
/** A block's end within which no match is looked for: a match needs 4 bytes, the loop reads ahead. */
const TAIL = 15;
const LITERAL = 0;
const COPY_1 = 1;
const COPY_2 = 2;

/** Where in the block each 4-byte sequence, by hash, was seen last; cleared for each block. */
const positions = new Uint16Array(1 << HASH_BITS);

/** The most bytes `snappyCompress` writes for `length` bytes of input (the bound snappy's own code uses). */
export function maxCompressedLength(length: number): number {
  return 32 + length + Math.floor(length / 6);
}

/**
 * Compresses `input[start, end)` into `output` from its start, which must hold
 * maxCompressedLength(end - start) bytes; returns how many bytes it wrote.
 */
export function snappyCompress(input: Uint8Array, start: number, end: number, output: Uint8Array): number {
  if (view.buffer !== input.buffer || view.byteOffset !== input.byteOffset || view.byteLength !== input.byteLength)
    view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  let at = writeVarint(output, 0, end - start);
  for (let block = start; block < end; block += BLOCK)
    at = compressBlock(input, block, Math.min(block + BLOCK, end), output, at);
  return at;
}

function writeVarint(output: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    output[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  output[at++] = value;
  return at;
}

/**
 * The input's 4 bytes at a position, little-endian, in one read: a DataView over the input's memory
 * (a quarter faster than four byte reads), made again only when the input is another buffer.
 */
let view: DataView = new DataView(new ArrayBuffer(0));
const read32 = (at: number) => view.getInt32(at, true);
const hash = (sequence: number) => Math.imul(sequence, 0x1e35a7bd) >>> (32 - HASH_BITS);

/**
 * One block: look up each position's next 4 bytes where they were seen last; on a match, the bytes
 * since the last copy go out as a literal and the match, extended as far as it goes, as a copy. After
 * 32 positions without a match, the search steps over more bytes each time (as snappy's own does), so
 * incompressible data passes quickly.
 */
function compressBlock(input: Uint8Array, start: number, end: number, output: Uint8Array, at: number): number {
  let pending = start;
  if (end - start >= TAIL) {
    positions.fill(0);
    const limit = end - TAIL;
    let position = start + 1;
    search: for (;;) {
      let candidate: number;
      let next = position;
      let misses = 32;
      do {
        position = next;
        next = position + (misses++ >> 5);
        if (next > limit) break search;
        const slot = hash(read32(position));
        candidate = start + positions[slot]!;
        positions[slot] = position - start;
      } while (read32(position) !== read32(candidate));
      at = emitLiteral(input, pending, position, output, at);
      do {
        let length = 4;
        while (position + length + 4 <= end && read32(candidate + length) === read32(position + length)) length += 4;
        while (position + length < end && input[candidate + length] === input[position + length]) length++;
        at = emitCopy(output, at, position - candidate, length);
        position += length;
        pending = position;
        if (position >= limit) break search;
        positions[hash(read32(position - 1))] = position - 1 - start;
        const slot = hash(read32(position));
        candidate = start + positions[slot]!;
        positions[slot] = position - start;
      } while (read32(position) === read32(candidate));
      position++;
    }
  }
  return pending < end ? emitLiteral(input, pending, end, output, at) : at;
}

function emitLiteral(input: Uint8Array, from: number, to: number, output: Uint8Array, at: number): number {
  const length = to - from;
  if (length === 0) return at;
  const n = length - 1;
  if (n < 60) output[at++] = (n << 2) | LITERAL;
  else {
    // Tags 60 to 63: the length less one follows in 1 to 4 bytes, little-endian.
    const bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
    output[at++] = ((59 + bytes) << 2) | LITERAL;
    for (let i = 0; i < bytes; i++) output[at++] = (n >>> (8 * i)) & 0xff;
  }
  if (length < 16) for (let i = 0; i < length; i++) output[at + i] = input[from + i]!;
  else output.set(input.subarray(from, to), at);
  return at + length;
}

/** A copy of `length` bytes from `offset` back, as copies of at most 64 (each of at least 4, for a 1-byte offset). */
function emitCopy(output: Uint8Array, at: number, offset: number, length: number): number {
  while (length >= 68) {
    at = emitCopy2(output, at, offset, 64);
    length -= 64;
  }
  if (length > 64) {
    at = emitCopy2(output, at, offset, 60);
    length -= 60;
  }
  if (length >= 12 || offset >= 2048) return emitCopy2(output, at, offset, length);
  output[at++] = ((offset >>> 8) << 5) | ((length - 4) << 2) | COPY_1;
  output[at++] = offset & 0xff;
  return at;
}

function emitCopy2(output: Uint8Array, at: number, offset: number, length: number): number {
  output[at++] = ((length - 1) << 2) | COPY_2;
  output[at++] = offset & 0xff;
  output[at++] = offset >>> 8;
  return at;
}
