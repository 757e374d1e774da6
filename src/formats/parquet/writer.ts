// The Parquet file format, as msgstat writes it (github.com/apache/parquet-format): "PAR1", row groups
// of column chunks, each chunk data pages (version 1: repetition and definition levels in the
// RLE/bit-packing hybrid, then the values in PLAIN encoding, the whole page snappy-compressed), then the
// footer (FileMetaData in Thrift's compact protocol), its length and "PAR1" again.
//
// Written by hand rather than with a generic writer, which takes rows of JS objects, gathers an array
// of values per column, walks them again for the levels, tries a dictionary for every column and
// encodes every string with a TextEncoder: several times the CPU of a CSV export (bench/HISTORY.md,
// "The Parquet encoder"). Here the message walk (columns.ts) appends each value straight into its
// column's bytes: levels one byte each, values already PLAIN-encoded, no object or array per value.
import { CompactWriter } from "./thrift-compact.js";
import { maxCompressedLength, snappyCompress } from "./snappy.js";

export type PhysicalType = "BOOLEAN" | "INT64" | "BYTE_ARRAY";
export type Repetition = "REQUIRED" | "OPTIONAL" | "REPEATED";
/** What a column or group means beyond its physical type: written as both the converted and the logical type. */
export type Annotation = "string" | "map" | "list" | "timestamp";

/** One element of the schema, depth first: a group (with children) or a leaf column (with a type). */
export interface SchemaElement {
  name: string;
  type?: PhysicalType;
  repetition?: Repetition;
  annotation?: Annotation;
  children?: number;
}

// The numbers of parquet.thrift's enums.
const PHYSICAL_TYPE: Record<PhysicalType, number> = { BOOLEAN: 0, INT64: 2, BYTE_ARRAY: 6 };
const REPETITION: Record<Repetition, number> = { REQUIRED: 0, OPTIONAL: 1, REPEATED: 2 };
const CONVERTED_TYPE: Record<Annotation, number> = { string: 0, map: 1, list: 3, timestamp: 9 };
/** LogicalType's union members: STRING 1, MAP 2, LIST 3, TIMESTAMP 8. */
const LOGICAL_TYPE: Record<Annotation, number> = { string: 1, map: 2, list: 3, timestamp: 8 };
const ENCODING_PLAIN = 0;
const ENCODING_RLE = 3;
const ENCODING_RLE_DICTIONARY = 8;
const CODEC_SNAPPY = 1;
const PAGE_DATA = 0;
const PAGE_DICTIONARY = 2;

const MAGIC = Buffer.from("PAR1", "latin1");
/** A page is closed once its levels and values reach this many bytes (at a row's end). */
export const PAGE_BYTES = 64 * 1024;
/** A row group's pages are kept in slabs of this size, reused for the next; up to ROW_GROUP_BUFFER of them. */
const SLAB_BYTES = 1024 * 1024;
const ROW_GROUP_BUFFER = 32 * SLAB_BYTES;
/** Longer min and max strings are cut to this many bytes (and marked inexact), as readers allow. */
const STATISTICS_BYTES = 64;
/** Strings this short are copied a character at a time when they are ASCII: a call into the encoder costs more. */
const SHORT_TEXT = 24;

/** A leaf column: where it is in the schema, and the most its levels can be. */
export interface LeafColumn {
  path: string[];
  type: PhysicalType;
  maxDefinition: number;
  maxRepetition: number;
  /** Min, max and null count in the footer, for readers to skip row groups by. */
  statistics: boolean;
}

/** The leaf columns of a schema (its first element the root), in order, with their levels. */
export function leafColumns(
  schema: readonly SchemaElement[],
  withStatistics: (path: string[]) => boolean,
): LeafColumn[] {
  const leaves: LeafColumn[] = [];
  let next = 1;
  const visit = (path: string[], definition: number, repetition: number) => {
    const element = schema[next++]!;
    const here = [...path, element.name];
    const d = definition + (element.repetition === "REQUIRED" ? 0 : 1);
    const r = repetition + (element.repetition === "REPEATED" ? 1 : 0);
    if (element.children === undefined)
      leaves.push({
        path: here,
        type: element.type!,
        maxDefinition: d,
        maxRepetition: r,
        statistics: withStatistics(here),
      });
    else for (let i = 0; i < element.children; i++) visit(here, d, r);
  };
  for (let i = 0; i < (schema[0]!.children ?? 0); i++) visit([], 0, 0);
  return leaves;
}

/**
 * Where a row group's pages wait until it is written: slabs of SLAB_BYTES (a page larger than one has a
 * slab of its own), filled in turn and reused for the next row group, so the pages are neither an
 * object each nor copied as a buffer that doubles grows.
 */
class PageStore {
  private readonly slabs: Buffer[] = [];
  private slab = 0;
  private used = 0;

  /** Copies a page (header, then body) in, and records where it is in `into` (slab, start, end): last, or first. */
  add(header: Buffer, body: Buffer, bodyLength: number, into: number[], first: boolean): void {
    const size = header.length + bodyLength;
    let slab = this.slabs[this.slab];
    if (slab !== undefined && this.used + size > slab.length) {
      this.slab++;
      this.used = 0;
      slab = this.slabs[this.slab];
    }
    if (slab === undefined || size > slab.length) {
      slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, size));
      this.slabs[this.slab] = slab;
    }
    const start = this.used;
    header.copy(slab, start);
    body.copy(slab, start + header.length, 0, bodyLength);
    this.used = start + size;
    if (first) into.unshift(this.slab, start, this.used);
    else into.push(this.slab, start, this.used);
  }

  bytes(slab: number): Buffer {
    return this.slabs[slab]!;
  }

  /** The row group was written: the slabs are filled again from the first (those past ROW_GROUP_BUFFER given back). */
  clear(): void {
    this.slab = this.used = 0;
    this.slabs.length = Math.min(this.slabs.length, ROW_GROUP_BUFFER / SLAB_BYTES);
  }
}

/**
 * What every column of a file shares: a page is built in `raw`, compressed into `compressed`, and kept
 * in `pages` (with its header) until its row group is written.
 */
class PageScratch {
  raw = Buffer.allocUnsafe(PAGE_BYTES * 2);
  compressed = Buffer.allocUnsafe(maxCompressedLength(PAGE_BYTES * 2));
  readonly pages = new PageStore();

  ensure(size: number): void {
    if (size > this.raw.length) this.raw = Buffer.allocUnsafe(size);
    if (maxCompressedLength(size) > this.compressed.length)
      this.compressed = Buffer.allocUnsafe(maxCompressedLength(size));
  }
}

/** Where a row group writes its bytes: `bytes[start, end)`, copied before the next call. */
export type ByteOutput = (bytes: Buffer, start: number, end: number) => void | Promise<void>;

/** What the footer keeps of a column chunk. */
interface ChunkMeta {
  offset: number;
  /** Where its dictionary page is, when it has one (then its data pages follow it). */
  dictionaryOffset: number | undefined;
  dataOffset: number;
  values: number;
  compressed: number;
  uncompressed: number;
  statistics: Statistics | undefined;
}

interface Statistics {
  nulls: number;
  min?: Buffer;
  max?: Buffer;
  minExact?: boolean;
  maxExact?: boolean;
}

/** Bytes that grow as values are appended to them, PLAIN-encoded. */
class PlainBytes {
  bytes = Buffer.allocUnsafe(1024);
  length = 0;

  /** A string: its UTF-8 length (4 bytes, little-endian), then its bytes. Returns whether it was ASCII. */
  text(text: string): boolean {
    const length = text.length;
    const at = this.length;
    if (at + 4 + length * 3 > this.bytes.length) this.grow(4 + length * 3);
    const bytes = this.bytes;
    let ascii = length <= SHORT_TEXT;
    if (ascii) {
      for (let i = 0; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) {
          ascii = false;
          break;
        }
        bytes[at + 4 + i] = code;
      }
    }
    const size = ascii ? length : bytes.write(text, at + 4);
    bytes[at] = size;
    bytes[at + 1] = size >>> 8;
    bytes[at + 2] = size >>> 16;
    bytes[at + 3] = size >>> 24;
    this.length = at + 4 + size;
    return size === length;
  }

  /** A safe integer, as INT64 (two's complement, little-endian). */
  int64(value: number): void {
    const at = this.length;
    if (at + 8 > this.bytes.length) this.grow(8);
    const bytes = this.bytes;
    const low = value >>> 0;
    const high = Math.floor(value / 0x100000000) | 0;
    bytes[at] = low;
    bytes[at + 1] = low >>> 8;
    bytes[at + 2] = low >>> 16;
    bytes[at + 3] = low >>> 24;
    bytes[at + 4] = high;
    bytes[at + 5] = high >>> 8;
    bytes[at + 6] = high >>> 16;
    bytes[at + 7] = high >>> 24;
    this.length = at + 8;
  }

  byte(value: number): void {
    if (this.length + 1 > this.bytes.length) this.grow(1);
    this.bytes[this.length++] = value;
  }

  /** Bytes [start, end) of a buffer. */
  copy(from: Uint8Array, start: number, end: number): void {
    if (this.length + end - start > this.bytes.length) this.grow(end - start);
    this.bytes.set(from.subarray(start, end), this.length);
    this.length += end - start;
  }

  /**
   * Empties it; a buffer grown past `keep` bytes (by a huge value, or a row group of them) is given back
   * rather than held for the rest of the file.
   */
  clear(keep = PAGE_BYTES * 4): void {
    this.length = 0;
    if (this.bytes.length > keep) this.bytes = Buffer.allocUnsafe(1024);
  }

  private grow(more: number): void {
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + more));
    this.bytes.copy(larger, 0, 0, this.length);
    this.bytes = larger;
  }
}

/**
 * A string column's chunk starts with a dictionary: each distinct value once (PLAIN, in the
 * dictionary page), each value an index into it. It is given up (for PLAIN values, for the rest of
 * the chunk) once it holds DICTIONARY_TRIAL values or more and they are more than a tenth of the
 * values seen, or more than DICTIONARY_BYTES: ids, texts, times and mostly distinct values (order
 * numbers, links) would cost a lookup each for little; a status, a template or a key pays (docs/parquet.md).
 */
const DICTIONARY_TRIAL = 256;
const DICTIONARY_SHARE = 10;
const DICTIONARY_BYTES = 1024 * 1024;

/**
 * One leaf column's data in the row group being written: the page being filled (levels one byte
 * each, values PLAIN-encoded or dictionary indices), the pages already compressed, and the chunk's
 * statistics. The walk appends to it with `absent` (a NULL, or an empty or missing list or struct
 * above) and `text`, `int64`, `boolean` (a value, at the column's deepest definition level).
 */
export class ColumnData {
  private definitions: Uint8Array;
  private repetitions: Uint8Array;
  private levels = 0;
  private readonly values = new PlainBytes();
  private nulls = 0;

  /** The chunk's dictionary, while it is used; its values, PLAIN, with where each starts. */
  private dictionary: Map<string, number> | undefined;
  private readonly dictionaryValues = new PlainBytes();
  private dictionaryStarts: number[] = [];
  private indices = new Uint32Array(0);
  private indexCount = 0;
  /** The dictionary grew past its limits: the page is closed at the row's end, and the chunk goes on PLAIN. */
  private givingUp = false;
  private lastText: string | undefined;
  private lastIndex = 0;
  /** The chunk has pages of dictionary indices (so a dictionary page goes first). */
  private dictionaryPages = 0;
  private textValues = 0;

  /** Where this chunk's pages are in the row group's PageStore: slab, start and end, each. */
  private pageRanges: number[] = [];
  private chunkValues = 0;
  private chunkNulls = 0;
  private compressedBytes = 0;
  private uncompressedBytes = 0;

  private min: number | string | undefined;
  private max: number | string | undefined;
  private minAscii = true;
  private maxAscii = true;

  constructor(
    readonly leaf: LeafColumn,
    private readonly scratch: PageScratch,
  ) {
    this.definitions = new Uint8Array(leaf.maxDefinition > 0 ? 1024 : 0);
    this.repetitions = new Uint8Array(leaf.maxRepetition > 0 ? 1024 : 0);
    this.startChunk();
  }

  private startChunk(): void {
    if (this.leaf.type !== "BYTE_ARRAY") return;
    this.dictionary = new Map();
    this.dictionaryValues.clear();
    this.dictionaryStarts = [];
    if (this.indices.length === 0) this.indices = new Uint32Array(1024);
    this.dictionaryPages = this.textValues = 0;
    this.lastText = undefined;
    this.givingUp = false;
  }

  /** NULL: no value, the levels say how far down the path was there. */
  absent(repetition: number, definition: number): void {
    this.level(repetition, definition);
    this.nulls++;
  }

  text(repetition: number, text: string): void {
    this.level(repetition, this.leaf.maxDefinition);
    const dictionary = this.dictionary;
    if (dictionary === undefined) {
      const ascii = this.values.text(text);
      if (this.leaf.statistics) this.textStatistics(text, ascii);
      return;
    }
    this.textValues++;
    // The value before, again (a campaign's id, its template): known without hashing the string.
    let index = text === this.lastText ? this.lastIndex : dictionary.get(text);
    if (index === undefined) index = this.addToDictionary(dictionary, text);
    this.lastText = text;
    this.lastIndex = index;
    if (this.indexCount === this.indices.length) this.indices = grown(this.indices, this.indexCount);
    this.indices[this.indexCount++] = index;
  }

  private addToDictionary(dictionary: Map<string, number>, text: string): number {
    const index = dictionary.size;
    dictionary.set(text, index);
    this.dictionaryStarts.push(this.dictionaryValues.length);
    const ascii = this.dictionaryValues.text(text);
    if (this.leaf.statistics) this.textStatistics(text, ascii);
    const many = index >= DICTIONARY_TRIAL && index * DICTIONARY_SHARE > this.textValues;
    if (many || this.dictionaryValues.length > DICTIONARY_BYTES) this.givingUp = true;
    return index;
  }

  /** A safe integer, as INT64 (two's complement, little-endian). */
  int64(repetition: number, value: number): void {
    this.level(repetition, this.leaf.maxDefinition);
    this.values.int64(value);
    if (this.leaf.statistics) this.numberStatistics(value);
  }

  /** A boolean: held one byte each, packed into bits when the page is written. */
  boolean(repetition: number, value: boolean): void {
    this.level(repetition, this.leaf.maxDefinition);
    this.values.byte(value ? 1 : 0);
    if (this.leaf.statistics) this.numberStatistics(value ? 1 : 0);
  }

  /** The bytes of the page being filled (levels and values, before compression). */
  get pending(): number {
    const levelArrays = (this.leaf.maxDefinition > 0 ? 1 : 0) + (this.leaf.maxRepetition > 0 ? 1 : 0);
    return this.levels * levelArrays + this.values.length + this.indexCount * 4;
  }

  /** The bytes of the pages already compressed in this row group, and of its dictionary. */
  get held(): number {
    return this.compressedBytes + this.dictionaryValues.length;
  }

  /** A row ended: closes the page when it is full, or when the dictionary is given up. */
  endRow(): void {
    if (this.givingUp) this.giveUpDictionary();
    else if (this.pending >= PAGE_BYTES) this.closePage();
  }

  /**
   * From here on PLAIN: the page of indices so far is closed, or when it is the chunk's first, made
   * PLAIN values instead (a column that needs no dictionary then has none).
   */
  private giveUpDictionary(): void {
    this.givingUp = false;
    if (this.dictionaryPages === 0) {
      const starts = this.dictionaryStarts;
      const end = this.dictionaryValues.length;
      for (let i = 0; i < this.indexCount; i++) {
        const index = this.indices[i]!;
        this.values.copy(this.dictionaryValues.bytes, starts[index]!, starts[index + 1] ?? end);
      }
      this.indexCount = 0;
      this.dictionaryValues.clear();
      this.dictionaryStarts = [];
    } else this.closePage();
    this.dictionary = undefined;
    if (this.pending >= PAGE_BYTES) this.closePage();
  }

  private level(repetition: number, definition: number): void {
    const at = this.levels;
    if (this.leaf.maxDefinition > 0) {
      if (at === this.definitions.length) this.definitions = grown(this.definitions, at);
      this.definitions[at] = definition;
    }
    if (this.leaf.maxRepetition > 0) {
      if (at === this.repetitions.length) this.repetitions = grown(this.repetitions, at);
      this.repetitions[at] = repetition;
    }
    this.levels = at + 1;
  }

  private numberStatistics(value: number): void {
    if (this.min === undefined || value < (this.min as number)) this.min = value;
    if (this.max === undefined || value > (this.max as number)) this.max = value;
  }

  /** Min and max in the order readers compare strings: their UTF-8 bytes, unsigned. */
  private textStatistics(text: string, ascii: boolean): void {
    if (this.min === undefined) {
      this.min = this.max = text;
      this.minAscii = this.maxAscii = ascii;
    } else if (precedes(text, ascii, this.min as string, this.minAscii)) {
      this.min = text;
      this.minAscii = ascii;
    } else if (precedes(this.max as string, this.maxAscii, text, ascii)) {
      this.max = text;
      this.maxAscii = ascii;
    }
  }

  /** Compresses the page being filled and keeps it with the chunk's others. */
  closePage(): void {
    if (this.levels === 0) return;
    const { leaf, scratch } = this;
    // A page of NULLs only is PLAIN, with no values: a dictionary page of nothing is not written.
    const indexed = this.dictionary !== undefined && this.indexCount > 0;
    const levelBytes = (leaf.maxDefinition > 0 ? 1 : 0) + (leaf.maxRepetition > 0 ? 1 : 0);
    const valueBytes = indexed ? this.indexCount * 3 + 16 : this.values.length;
    scratch.ensure(levelBytes * (this.levels * 2 + 16) + valueBytes);
    const raw = scratch.raw;
    let size = 0;
    if (leaf.maxRepetition > 0) size = levelStream(this.repetitions, this.levels, leaf.maxRepetition, raw, size);
    if (leaf.maxDefinition > 0) size = levelStream(this.definitions, this.levels, leaf.maxDefinition, raw, size);
    if (indexed) {
      // The indices: their bit width in a byte, then the hybrid encoding.
      const bitWidth = Math.max(1, 32 - Math.clz32(this.dictionary!.size - 1));
      raw[size++] = bitWidth;
      size = encodeHybrid(this.indices, this.indexCount, bitWidth, raw, size);
      this.dictionaryPages++;
    } else if (leaf.type === "BOOLEAN") size = packBits(this.values.bytes, this.values.length, raw, size);
    else size += this.values.bytes.copy(raw, size, 0, this.values.length);
    const encoding = indexed ? ENCODING_RLE_DICTIONARY : ENCODING_PLAIN;
    this.addPage(raw, size, (header) =>
      header.struct(5).i32(1, this.levels).i32(2, encoding).i32(3, ENCODING_RLE).i32(4, ENCODING_RLE).end(),
    );
    this.chunkValues += this.levels;
    this.chunkNulls += this.nulls;
    this.levels = this.nulls = this.indexCount = 0;
    this.values.clear();
  }

  /** Compresses `raw[0, size)` into a page with the header `describe` completes, kept in the row group's pages. */
  private addPage(
    raw: Buffer,
    size: number,
    describe: (header: CompactWriter) => CompactWriter,
    dictionary = false,
  ): void {
    const { scratch } = this;
    const compressedSize = snappyCompress(raw, 0, size, scratch.compressed);
    const header = describe(
      new CompactWriter()
        .i32(1, dictionary ? PAGE_DICTIONARY : PAGE_DATA)
        .i32(2, size)
        .i32(3, compressedSize),
    )
      .end()
      .written();
    // The dictionary page goes first in the chunk: it is added last, and put first.
    scratch.pages.add(header, scratch.compressed, compressedSize, this.pageRanges, dictionary);
    this.compressedBytes += header.length + compressedSize;
    this.uncompressedBytes += header.length + size;
  }

  /**
   * Closes the chunk, which is to be written at `offset`: its pages' places in the shared buffer, in
   * the order they are written, and what the footer keeps of them; ready for the next row group.
   */
  closeChunk(offset: number): { ranges: number[]; meta: ChunkMeta } {
    this.closePage();
    let dictionaryOffset: number | undefined;
    let dataOffset = offset;
    if (this.dictionaryPages > 0) {
      const values = this.dictionaryValues;
      this.scratch.ensure(values.length);
      const count = this.dictionaryStarts.length;
      this.addPage(
        values.bytes,
        values.length,
        (header) => header.struct(7).i32(1, count).i32(2, ENCODING_PLAIN).end(),
        true,
      );
      dictionaryOffset = offset;
      dataOffset = offset + this.pageRanges[2]! - this.pageRanges[1]!;
    }
    const ranges = this.pageRanges;
    const meta: ChunkMeta = {
      offset,
      dictionaryOffset,
      dataOffset,
      values: this.chunkValues,
      compressed: this.compressedBytes,
      uncompressed: this.uncompressedBytes,
      statistics: this.leaf.statistics ? this.statistics() : undefined,
    };
    this.pageRanges = [];
    this.chunkValues = this.chunkNulls = this.compressedBytes = this.uncompressedBytes = 0;
    this.min = this.max = undefined;
    this.startChunk();
    return { ranges, meta };
  }

  private statistics(): Statistics {
    const statistics: Statistics = { nulls: this.chunkNulls };
    if (this.min === undefined || this.max === undefined) return statistics;
    if (typeof this.min === "number") {
      const [min, max] = [this.min, this.max as number].map((value) => plainValue(this.leaf.type, value));
      return { ...statistics, min, max, minExact: true, maxExact: true };
    }
    const min = Buffer.from(this.min, "utf8");
    const max = Buffer.from(this.max as string, "utf8");
    const lower = min.length > STATISTICS_BYTES ? min.subarray(0, charStart(min, STATISTICS_BYTES)) : min;
    const upper = max.length > STATISTICS_BYTES ? upperBound(max, STATISTICS_BYTES) : max;
    // No upper bound as short: no min and max at all (a reader takes both or neither).
    if (upper === undefined) return statistics;
    return { ...statistics, min: lower, max: upper, minExact: lower === min, maxExact: upper === max };
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, used: number): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array.subarray(0, used));
  return larger;
}

/**
 * Whether `a` sorts before `b` by UTF-8 bytes. UTF-16 order is the same unless both differ first at a
 * surrogate or above, which takes two strings that are not ASCII.
 */
function precedes(a: string, aAscii: boolean, b: string, bAscii: boolean): boolean {
  if (aAscii || bAscii) return a < b;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")) < 0;
}

/** The start of the character at or before byte `at` (a UTF-8 continuation byte is 10xxxxxx). */
function charStart(bytes: Buffer, at: number): number {
  while (at > 0 && (bytes[at]! & 0xc0) === 0x80) at--;
  return at;
}

/**
 * A string of at most `limit` bytes that sorts after every string beginning as `bytes` does: its
 * prefix up to the last ASCII character below DEL that fits, that character one higher (so the bytes
 * stay UTF-8). Undefined when the prefix has no such character.
 */
function upperBound(bytes: Buffer, limit: number): Buffer | undefined {
  for (let at = limit - 1; at >= 0; at--) {
    if (bytes[at]! < 0x7f) {
      const bound = Buffer.from(bytes.subarray(0, at + 1));
      bound[at]!++;
      return bound;
    }
  }
  return undefined;
}

function plainValue(type: PhysicalType, value: number): Buffer {
  if (type === "BOOLEAN") return Buffer.from([value]);
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64LE(BigInt(value));
  return bytes;
}

/** A level stream of a version 1 data page: its length (4 bytes, little-endian), then the hybrid encoding. */
function levelStream(levels: Uint8Array, count: number, max: number, output: Buffer, at: number): number {
  const end = encodeHybrid(levels, count, 32 - Math.clz32(max), output, at + 4);
  output.writeUInt32LE(end - at - 4, at);
  return end;
}

/**
 * The RLE/bit-packing hybrid: a run of 8 or more equal levels is one RLE run (its length, then the
 * value); anything else goes in groups of 8, `bitWidth` bits each, least significant first, until a
 * group would start a run of 8. The last group is padded with zeros (the page says how many there are).
 */
export function encodeHybrid(
  levels: Uint8Array | Uint32Array,
  count: number,
  bitWidth: number,
  output: Uint8Array,
  at: number,
): number {
  const valueBytes = (bitWidth + 7) >>> 3;
  let i = 0;
  while (i < count) {
    const value = levels[i]!;
    let end = i + 1;
    while (end < count && levels[end] === value) end++;
    if (end - i >= 8) {
      at = writeVarint(output, at, (end - i) * 2);
      for (let byte = 0; byte < valueBytes; byte++) output[at++] = (value >>> (8 * byte)) & 0xff;
      i = end;
      continue;
    }
    end = i + 8;
    while (end < count && !runOfEight(levels, end, count)) end += 8;
    at = writeVarint(output, at, ((end - i) / 8) * 2 + 1);
    let bits = 0;
    let pending = 0;
    for (; i < end; i++) {
      pending |= (i < count ? levels[i]! : 0) << bits;
      bits += bitWidth;
      while (bits >= 8) {
        output[at++] = pending & 0xff;
        pending >>>= 8;
        bits -= 8;
      }
    }
  }
  return at;
}

function runOfEight(levels: Uint8Array | Uint32Array, at: number, count: number): boolean {
  if (at + 8 > count) return false;
  const value = levels[at];
  for (let i = at + 1; i < at + 8; i++) if (levels[i] !== value) return false;
  return true;
}

function writeVarint(output: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    output[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  output[at++] = value;
  return at;
}

/** Booleans held one byte each, as PLAIN's bits: 8 a byte, least significant first. */
function packBits(values: Uint8Array, count: number, output: Uint8Array, at: number): number {
  for (let i = 0; i < count; i += 8) {
    let byte = 0;
    for (let bit = 0; bit < 8 && i + bit < count; bit++) byte |= values[i + bit]! << bit;
    output[at++] = byte;
  }
  return at;
}

interface RowGroupMeta {
  offset: number;
  rows: number;
  chunks: ChunkMeta[];
}

/**
 * A Parquet file written as it goes: the walk fills `columns`, `endRow` closes the pages that are full,
 * `rowGroup` hands over a row group's bytes, `footer` the end. Only the footer's metadata is kept of
 * the row groups already handed over.
 */
export class ParquetFile {
  readonly columns: ColumnData[];
  private written = 0;
  private rows = 0;
  private readonly rowGroups: RowGroupMeta[] = [];
  private readonly scratch = new PageScratch();

  constructor(
    private readonly schema: readonly SchemaElement[],
    readonly leaves: readonly LeafColumn[],
    private readonly createdBy: string,
  ) {
    this.columns = leaves.map((leaf) => new ColumnData(leaf, this.scratch));
  }

  /** A row is complete: closes the pages that reached PAGE_BYTES; returns the bytes the row group holds. */
  endRow(): number {
    this.rows++;
    let held = 0;
    for (const column of this.columns) {
      column.endRow();
      held += column.held + column.pending;
    }
    return held;
  }

  get rowsInGroup(): number {
    return this.rows;
  }

  /** Writes the row group, column after column (after "PAR1" for the first). */
  async writeRowGroup(out: ByteOutput): Promise<void> {
    if (this.written === 0) await this.add(out, MAGIC, 0, MAGIC.length);
    const group: RowGroupMeta = { offset: this.written, rows: this.rows, chunks: [] };
    const pages = this.scratch.pages;
    for (const column of this.columns) {
      const { ranges, meta } = column.closeChunk(this.written);
      for (let i = 0; i < ranges.length; i += 3)
        await this.add(out, pages.bytes(ranges[i]!), ranges[i + 1]!, ranges[i + 2]!);
      group.chunks.push(meta);
    }
    pages.clear();
    this.rowGroups.push(group);
    this.rows = 0;
  }

  /** Writes the footer (after "PAR1" when no row group was written): the schema, where each row group's chunks lie. */
  async writeFooter(out: ByteOutput): Promise<void> {
    if (this.written === 0) await this.add(out, MAGIC, 0, MAGIC.length);
    const metadata = Buffer.from(this.fileMetaData());
    const length = Buffer.alloc(4);
    length.writeUInt32LE(metadata.length);
    for (const part of [metadata, length, MAGIC]) await this.add(out, part, 0, part.length);
  }

  private async add(out: ByteOutput, bytes: Buffer, start: number, end: number): Promise<void> {
    this.written += end - start;
    const writing = out(bytes, start, end);
    if (writing) await writing;
  }

  private fileMetaData(): Buffer {
    const rows = this.rowGroups.reduce((sum, group) => sum + group.rows, 0);
    return (
      new CompactWriter()
        .i32(1, 2)
        .structList(2, this.schema, writeSchemaElement)
        .i64(3, rows)
        .structList(
          4,
          this.rowGroups.map((group, ordinal) => ({ group, ordinal })),
          ({ group, ordinal }, writer) => this.describeRowGroup(writer, group, ordinal),
        )
        .binary(6, this.createdBy)
        // Every column's min and max compare by its type's order (bytes unsigned, integers signed).
        .structList(7, this.leaves, (_leaf, writer) => writer.struct(1).end())
        .end()
        .written()
    );
  }

  private describeRowGroup(writer: CompactWriter, group: RowGroupMeta, ordinal: number): void {
    const uncompressed = group.chunks.reduce((sum, chunk) => sum + chunk.uncompressed, 0);
    const compressed = group.chunks.reduce((sum, chunk) => sum + chunk.compressed, 0);
    writer
      .structList(
        1,
        group.chunks.map((chunk, i) => ({ chunk, leaf: this.leaves[i]! })),
        ({ chunk, leaf }, w) => writeColumnChunk(w, chunk, leaf),
      )
      .i64(2, uncompressed)
      .i64(3, group.rows)
      .i64(5, group.offset)
      .i64(6, compressed)
      .i16(7, ordinal);
  }
}

function writeSchemaElement(element: SchemaElement, writer: CompactWriter): void {
  if (element.type !== undefined) writer.i32(1, PHYSICAL_TYPE[element.type]);
  if (element.repetition !== undefined) writer.i32(3, REPETITION[element.repetition]);
  writer.binary(4, element.name);
  if (element.children !== undefined) writer.i32(5, element.children);
  if (element.annotation === undefined) return;
  writer.i32(6, CONVERTED_TYPE[element.annotation]).struct(10).struct(LOGICAL_TYPE[element.annotation]);
  // TimestampType: isAdjustedToUTC, and the unit (TimeUnit's MILLIS); the other types have no fields.
  if (element.annotation === "timestamp") writer.bool(1, true).struct(2).struct(1).end().end();
  writer.end().end();
}

const PLAIN_ENCODINGS = [ENCODING_PLAIN, ENCODING_RLE];
const DICTIONARY_ENCODINGS = [ENCODING_PLAIN, ENCODING_RLE, ENCODING_RLE_DICTIONARY];

function writeColumnChunk(writer: CompactWriter, chunk: ChunkMeta, leaf: LeafColumn): void {
  writer
    .i64(2, chunk.offset)
    .struct(3)
    .i32(1, PHYSICAL_TYPE[leaf.type])
    .i32List(2, chunk.dictionaryOffset === undefined ? PLAIN_ENCODINGS : DICTIONARY_ENCODINGS)
    .binaryList(3, leaf.path)
    .i32(4, CODEC_SNAPPY)
    .i64(5, chunk.values)
    .i64(6, chunk.uncompressed)
    .i64(7, chunk.compressed)
    .i64(9, chunk.dataOffset);
  if (chunk.dictionaryOffset !== undefined) writer.i64(11, chunk.dictionaryOffset);
  const statistics = chunk.statistics;
  if (statistics !== undefined) {
    writer.struct(12).i64(3, statistics.nulls);
    if (statistics.min !== undefined && statistics.max !== undefined)
      writer
        .binary(5, statistics.max)
        .binary(6, statistics.min)
        .bool(7, statistics.maxExact!)
        .bool(8, statistics.minExact!);
    writer.end();
  }
  writer.end();
}
