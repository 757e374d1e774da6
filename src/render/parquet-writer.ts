// The Parquet file format, as msgstat writes it (github.com/apache/parquet-format): "PAR1", row groups
// of column chunks, each chunk data pages (version 1: repetition and definition levels in the
// RLE/bit-packing hybrid, then the values in PLAIN encoding, the whole page snappy-compressed), then the
// footer (FileMetaData in Thrift's compact protocol), its length and "PAR1" again.
//
// Written by hand rather than with a generic writer: a generic one (hyparquet-writer, until this)
// takes rows of JS objects, gathers an array of values per column, walks them again for the levels,
// tries a dictionary for every column and encodes every string with a TextEncoder; at 100,000
// messages that cost 7.4 s of CPU time against 1.5 s for the CSV export (docs/parquet.md). Here the
// message walk (parquet-columns.ts) appends each value straight into its column's bytes: levels one
// byte each, values already PLAIN-encoded, with no object or array per row or per value.
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
const CODEC_SNAPPY = 1;
const PAGE_DATA = 0;

const MAGIC = Buffer.from("PAR1", "latin1");
/** A page is closed once its levels and values reach this many bytes (at a row's end). */
export const PAGE_BYTES = 1024 * 1024;
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

/** Buffers shared by every column of a file to build a page in: raw, then compressed. */
class PageScratch {
  raw = Buffer.allocUnsafe(PAGE_BYTES * 2);
  compressed = Buffer.allocUnsafe(maxCompressedLength(PAGE_BYTES * 2));

  ensure(size: number): void {
    if (size > this.raw.length) this.raw = Buffer.allocUnsafe(size);
    if (maxCompressedLength(size) > this.compressed.length)
      this.compressed = Buffer.allocUnsafe(maxCompressedLength(size));
  }
}

/** What the footer keeps of a column chunk. */
interface ChunkMeta {
  offset: number;
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

/**
 * One leaf column's data in the row group being written: the page being filled (levels one byte
 * each, values PLAIN-encoded), the pages already compressed, and the chunk's statistics. The walk
 * appends to it with `absent` (a NULL, or an empty or missing list or struct above) and `text`,
 * `int64`, `boolean` (a value, at the column's deepest definition level).
 */
export class ColumnData {
  private definitions: Uint8Array;
  private repetitions: Uint8Array;
  private levels = 0;
  private values = Buffer.allocUnsafe(1024);
  private valueBytes = 0;
  private nulls = 0;

  private pages: Buffer[] = [];
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
  }

  /** NULL: no value, the levels say how far down the path was there. */
  absent(repetition: number, definition: number): void {
    this.level(repetition, definition);
    this.nulls++;
  }

  text(repetition: number, text: string): void {
    this.level(repetition, this.leaf.maxDefinition);
    const length = text.length;
    const at = this.valueBytes;
    if (at + 4 + length * 3 > this.values.length) this.growValues(4 + length * 3);
    const values = this.values;
    let ascii = length <= SHORT_TEXT;
    if (ascii) {
      for (let i = 0; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) {
          ascii = false;
          break;
        }
        values[at + 4 + i] = code;
      }
    }
    const bytes = ascii ? length : values.write(text, at + 4);
    values[at] = bytes;
    values[at + 1] = bytes >>> 8;
    values[at + 2] = bytes >>> 16;
    values[at + 3] = bytes >>> 24;
    this.valueBytes = at + 4 + bytes;
    if (this.leaf.statistics) this.textStatistics(text, bytes === length);
  }

  /** A safe integer, as INT64 (two's complement, little-endian). */
  int64(repetition: number, value: number): void {
    this.level(repetition, this.leaf.maxDefinition);
    const at = this.valueBytes;
    if (at + 8 > this.values.length) this.growValues(8);
    const values = this.values;
    const low = value >>> 0;
    const high = Math.floor(value / 0x100000000) | 0;
    values[at] = low;
    values[at + 1] = low >>> 8;
    values[at + 2] = low >>> 16;
    values[at + 3] = low >>> 24;
    values[at + 4] = high;
    values[at + 5] = high >>> 8;
    values[at + 6] = high >>> 16;
    values[at + 7] = high >>> 24;
    this.valueBytes = at + 8;
    if (this.leaf.statistics) this.numberStatistics(value);
  }

  /** A boolean: held one byte each, packed into bits when the page is written. */
  boolean(repetition: number, value: boolean): void {
    this.level(repetition, this.leaf.maxDefinition);
    if (this.valueBytes + 1 > this.values.length) this.growValues(1);
    this.values[this.valueBytes++] = value ? 1 : 0;
    if (this.leaf.statistics) this.numberStatistics(value ? 1 : 0);
  }

  /** The bytes of the page being filled (levels and values, before compression). */
  get pending(): number {
    return this.levels + this.valueBytes;
  }

  /** The bytes of the pages already compressed in this row group. */
  get held(): number {
    return this.compressedBytes;
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

  private growValues(more: number): void {
    const larger = Buffer.allocUnsafe(Math.max(this.values.length * 2, this.valueBytes + more));
    this.values.copy(larger, 0, 0, this.valueBytes);
    this.values = larger;
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
    const levelBytes = (leaf.maxDefinition > 0 ? 1 : 0) + (leaf.maxRepetition > 0 ? 1 : 0);
    const valueBytes = leaf.type === "BOOLEAN" ? Math.ceil(this.valueBytes / 8) : this.valueBytes;
    scratch.ensure(levelBytes * (this.levels * 2 + 16) + valueBytes);
    const raw = scratch.raw;
    let size = 0;
    if (leaf.maxRepetition > 0) size = levelStream(this.repetitions, this.levels, leaf.maxRepetition, raw, size);
    if (leaf.maxDefinition > 0) size = levelStream(this.definitions, this.levels, leaf.maxDefinition, raw, size);
    if (leaf.type === "BOOLEAN") size = packBits(this.values, this.valueBytes, raw, size);
    else size += this.values.copy(raw, size, 0, this.valueBytes);
    const compressedSize = snappyCompress(raw, 0, size, scratch.compressed);
    const header = new CompactWriter()
      .i32(1, PAGE_DATA)
      .i32(2, size)
      .i32(3, compressedSize)
      .struct(5)
      .i32(1, this.levels)
      .i32(2, ENCODING_PLAIN)
      .i32(3, ENCODING_RLE)
      .i32(4, ENCODING_RLE)
      .end()
      .end()
      .written();
    const page = Buffer.allocUnsafe(header.length + compressedSize);
    header.copy(page, 0);
    scratch.compressed.copy(page, header.length, 0, compressedSize);
    this.pages.push(page);
    this.compressedBytes += page.length;
    this.uncompressedBytes += header.length + size;
    this.chunkValues += this.levels;
    this.chunkNulls += this.nulls;
    this.levels = this.valueBytes = this.nulls = 0;
    // A huge value grew the buffer: give the memory back rather than hold it for the rest of the file.
    if (this.values.length > PAGE_BYTES * 4) this.values = Buffer.allocUnsafe(1024);
  }

  /** The chunk's pages, to be written at `offset`, and what the footer keeps of them; ready for the next row group. */
  closeChunk(offset: number): { pages: Buffer[]; meta: ChunkMeta } {
    this.closePage();
    const pages = this.pages;
    const meta: ChunkMeta = {
      offset,
      values: this.chunkValues,
      compressed: this.compressedBytes,
      uncompressed: this.uncompressedBytes,
      statistics: this.leaf.statistics ? this.statistics() : undefined,
    };
    this.pages = [];
    this.chunkValues = this.chunkNulls = this.compressedBytes = this.uncompressedBytes = 0;
    this.min = this.max = undefined;
    return { pages, meta };
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

function grown(levels: Uint8Array, used: number): Uint8Array {
  const larger = new Uint8Array(levels.length * 2);
  larger.set(levels.subarray(0, used));
  return larger;
}

/** Whether `a` sorts before `b` by UTF-8 bytes. UTF-16 order is the same unless both differ first at a surrogate or above. */
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
  levels: Uint8Array,
  count: number,
  bitWidth: number,
  output: Uint8Array,
  at: number,
): number {
  let i = 0;
  while (i < count) {
    const value = levels[i]!;
    let end = i + 1;
    while (end < count && levels[end] === value) end++;
    if (end - i >= 8) {
      at = writeVarint(output, at, (end - i) * 2);
      output[at++] = value;
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

function runOfEight(levels: Uint8Array, at: number, count: number): boolean {
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

  constructor(
    private readonly schema: readonly SchemaElement[],
    readonly leaves: readonly LeafColumn[],
    private readonly createdBy: string,
  ) {
    const scratch = new PageScratch();
    this.columns = leaves.map((leaf) => new ColumnData(leaf, scratch));
  }

  /** A row is complete: closes the pages that reached PAGE_BYTES; returns the bytes the row group holds. */
  endRow(): number {
    this.rows++;
    let held = 0;
    for (const column of this.columns) {
      if (column.pending >= PAGE_BYTES) column.closePage();
      held += column.held + column.pending;
    }
    return held;
  }

  get rowsInGroup(): number {
    return this.rows;
  }

  /** The row group's bytes, column after column (preceded by "PAR1" for the first). */
  rowGroup(): Buffer[] {
    const parts: Buffer[] = [];
    if (this.written === 0) this.add(parts, MAGIC);
    const group: RowGroupMeta = { offset: this.written, rows: this.rows, chunks: [] };
    for (const column of this.columns) {
      const { pages, meta } = column.closeChunk(this.written);
      for (const page of pages) this.add(parts, page);
      group.chunks.push(meta);
    }
    this.rowGroups.push(group);
    this.rows = 0;
    return parts;
  }

  /** The footer (after "PAR1" when no row group was written): the schema, and where each row group's chunks lie. */
  footer(): Buffer[] {
    const parts: Buffer[] = [];
    if (this.written === 0) this.add(parts, MAGIC);
    const metadata = Buffer.from(this.fileMetaData());
    const length = Buffer.alloc(4);
    length.writeUInt32LE(metadata.length);
    parts.push(metadata, length, MAGIC);
    return parts;
  }

  private add(parts: Buffer[], bytes: Buffer): void {
    parts.push(bytes);
    this.written += bytes.length;
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
          ({ group, ordinal }, writer) => this.writeRowGroup(writer, group, ordinal),
        )
        .binary(6, this.createdBy)
        // Every column's min and max compare by its type's order (bytes unsigned, integers signed).
        .structList(7, this.leaves, (_leaf, writer) => writer.struct(1).end())
        .end()
        .written()
    );
  }

  private writeRowGroup(writer: CompactWriter, group: RowGroupMeta, ordinal: number): void {
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

function writeColumnChunk(writer: CompactWriter, chunk: ChunkMeta, leaf: LeafColumn): void {
  writer
    .i64(2, chunk.offset)
    .struct(3)
    .i32(1, PHYSICAL_TYPE[leaf.type])
    .i32List(2, [ENCODING_PLAIN, ENCODING_RLE])
    .binaryList(3, leaf.path)
    .i32(4, CODEC_SNAPPY)
    .i64(5, chunk.values)
    .i64(6, chunk.uncompressed)
    .i64(7, chunk.compressed)
    .i64(9, chunk.offset);
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
