// Thrift's compact protocol, the encoding of a Parquet file's footer and page headers: only what
// writing them takes (structs, i16, i32, i64, booleans, binary, lists), from the protocol's description
// (github.com/apache/thrift, doc/specs/thrift-compact-protocol.md).

/** The compact protocol's type codes, as they appear in a field's header and a list's. */
const ThriftType = { True: 1, False: 2, I16: 4, I32: 5, I64: 6, Binary: 8, List: 9, Struct: 12 } as const;
type ThriftType = (typeof ThriftType)[keyof typeof ThriftType];

/** Writes one Thrift value (a struct, usually) into a buffer that grows as needed. */
export class CompactWriter {
  private bytes = Buffer.allocUnsafe(256);
  private at = 0;
  /** The last field id of the struct being written: a field's header holds the difference. */
  private lastField = 0;
  private readonly outer: number[] = [];

  /** The bytes written so far (a view: copy it before writing more). */
  written(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  i16(field: number, value: number): this {
    this.header(field, ThriftType.I16);
    return this.varint(zigzag(value));
  }

  i32(field: number, value: number): this {
    this.header(field, ThriftType.I32);
    return this.varint(zigzag(value));
  }

  /** An i64 that is a safe integer (offsets, sizes, counts). */
  i64(field: number, value: number): this {
    this.header(field, ThriftType.I64);
    return this.varint(zigzag(value));
  }

  bool(field: number, value: boolean): this {
    return this.header(field, value ? ThriftType.True : ThriftType.False);
  }

  binary(field: number, value: string | Uint8Array): this {
    this.header(field, ThriftType.Binary);
    return this.bytesOf(value);
  }

  /** Opens a struct field; `end` closes it. */
  struct(field: number): this {
    this.header(field, ThriftType.Struct);
    return this.open();
  }

  /** Closes the innermost struct open (the outermost, the value itself, too: a struct ends with a stop byte). */
  end(): this {
    this.byte(0);
    this.lastField = this.outer.pop() ?? 0;
    return this;
  }

  /** A list of i32. */
  i32List(field: number, values: readonly number[]): this {
    this.listHeader(field, ThriftType.I32, values.length);
    for (const value of values) this.varint(zigzag(value));
    return this;
  }

  binaryList(field: number, values: ReadonlyArray<string | Uint8Array>): this {
    this.listHeader(field, ThriftType.Binary, values.length);
    for (const value of values) this.bytesOf(value);
    return this;
  }

  /** A list of structs, each written by `write` between its own open and end. */
  structList<T>(field: number, items: readonly T[], write: (item: T, writer: this) => void): this {
    this.listHeader(field, ThriftType.Struct, items.length);
    for (const item of items) {
      this.open();
      write(item, this);
      this.end();
    }
    return this;
  }

  private open(): this {
    this.outer.push(this.lastField);
    this.lastField = 0;
    return this;
  }

  private header(field: number, type: ThriftType): this {
    const delta = field - this.lastField;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.varint(zigzag(field));
    }
    this.lastField = field;
    return this;
  }

  private listHeader(field: number, type: ThriftType, size: number): void {
    this.header(field, ThriftType.List);
    if (size < 15) this.byte((size << 4) | type);
    else {
      this.byte(0xf0 | type);
      this.varint(size);
    }
  }

  private bytesOf(value: string | Uint8Array): this {
    const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
    this.varint(bytes.length);
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  /** An unsigned varint of a safe integer (division, not shifts: it may exceed 32 bits). */
  private varint(value: number): this {
    this.room(10);
    while (value >= 0x80) {
      this.bytes[this.at++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.at++] = value;
    return this;
  }

  private byte(value: number): void {
    this.room(1);
    this.bytes[this.at++] = value;
  }

  private room(count: number): void {
    if (this.at + count <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + count));
    this.bytes.copy(larger, 0, 0, this.at);
    this.bytes = larger;
  }
}

/** Zigzag: small magnitudes of either sign as small unsigned numbers (safe integers; no 32-bit shifts). */
function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}
