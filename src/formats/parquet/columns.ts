// The Parquet columns of a message, derived from the message shape (core/message.ts) as --fields is, so
// a field the shape gains is a column at once: the schema, and the walk that writes each message
// straight into its columns' data (writer.ts), once, with no row object. The rule for what
// does not fit (msgstat's tolerance: a message always passes):
// - a field of the declared kind goes to its typed column: strings, integers (INT64), booleans,
//   timestamps as an instant (TIMESTAMP(MILLIS), adjusted to UTC) with the server's text beside it in
//   `<name>Text`, objects as structs, lists as lists of structs, `values` as a map of strings, and what
//   the reference leaves open (`metadata`) as JSON text;
// - null or missing: NULL;
// - a value of another kind (a number for a string, text for an integer): NULL in the typed column, and
//   the value itself kept in the `extra` of the object it belongs to; a timestamp text that is no
//   readable time: NULL as an instant, its text kept in `<name>Text`;
// - a key msgstat does not know: kept in its object's `extra` (each struct has one), as JSON text.
//
// Levels, in Parquet's terms: each node knows the definition level its parent reached when present
// (`parent`), so a NULL, a missing struct or an empty list writes that level to every leaf below it.
import * as json from "../../core/json-stringify.js";
import * as shapes from "../../core/message.js";
import { MESSAGE, type Shape } from "../../core/message.js";
import * as time from "../../core/time.js";
import type { ColumnData, SchemaElement } from "./writer.js";

// The walk calls these a few times a value. Held here, once: in the bundle (scripts/build.mjs), each
// use of another module's function is first two getter calls on that module's exports, which were a
// tenth of the walk's time at 100,000 messages.
const { stringifyAtAnyDepth } = json;
const { isPlainObject, ownValue } = shapes;
const { instantOf } = time;

/** The column beside each timestamp that keeps the server's text: `createdAt` and `createdAtText`. */
export const TEXT_SUFFIX = "Text";
/** Each struct's (and the message's) column of what msgstat does not know, or could not type. */
export const EXTRA = "extra";

const text = (name: string): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  repetition: "OPTIONAL",
  annotation: "string",
});
/** JSON text: a string column (every reader takes it; DuckDB's json functions read it as it is). */
const jsonText = text;

type Extra = Record<string, unknown>;

/**
 * Where the values that fit no typed column go: an object without a prototype, so a key such as
 * `__proto__` (JSON.parse makes it an own property) stays a key.
 */
function keep(extra: Extra | undefined, key: string, value: unknown): Extra {
  const into = extra ?? (Object.create(null) as Extra);
  into[key] = value;
  return into;
}

const absent = (value: unknown) => value === undefined || value === null;

/** Hands out the file's leaf columns in schema order, as the nodes are built depth first. */
class Leaves {
  private next = 0;
  constructor(private readonly columns: readonly ColumnData[]) {}

  take(): ColumnData {
    return this.columns[this.next++]!;
  }
}

/** The column data of every leaf below a node (what a NULL there writes to). */
abstract class FieldNode {
  abstract readonly leaves: ColumnData[];

  /** Writes `value`; returns whether it must also be kept in `extra` (it did not fit). */
  abstract write(value: unknown, repetition: number): boolean;

  /** NULL at `definition` in every leaf below. */
  absentAt(repetition: number, definition: number): void {
    for (const leaf of this.leaves) leaf.absent(repetition, definition);
  }
}

/** A field of one column: a NULL there is `parent`'s definition level. */
abstract class LeafNode extends FieldNode {
  readonly leaves: ColumnData[];
  constructor(
    protected readonly column: ColumnData,
    protected readonly parent: number,
  ) {
    super();
    this.leaves = [column];
  }
}

class TextNode extends LeafNode {
  write(value: unknown, repetition: number): boolean {
    if (typeof value === "string") this.column.text(repetition, value);
    else this.column.absent(repetition, this.parent);
    return typeof value !== "string" && !absent(value);
  }
}

/** `any` (metadata), and a map of anything: JSON text. */
class JsonNode extends TextNode {
  override write(value: unknown, repetition: number): boolean {
    return super.write(absent(value) ? null : stringifyAtAnyDepth(value), repetition);
  }
}

class TimestampNode extends FieldNode {
  readonly leaves: ColumnData[];
  constructor(
    private readonly instant: ColumnData,
    private readonly text: ColumnData,
    private readonly parent: number,
  ) {
    super();
    this.leaves = [instant, text];
  }

  write(value: unknown, repetition: number): boolean {
    if (typeof value !== "string") {
      this.instant.absent(repetition, this.parent);
      this.text.absent(repetition, this.parent);
      return !absent(value);
    }
    const at = instantOf(value);
    if (at === undefined) this.instant.absent(repetition, this.parent);
    else this.instant.int64(repetition, at);
    this.text.text(repetition, value);
    return false;
  }
}

class IntegerNode extends LeafNode {
  write(value: unknown, repetition: number): boolean {
    const fits = Number.isSafeInteger(value);
    if (fits) this.column.int64(repetition, value as number);
    else this.column.absent(repetition, this.parent);
    return !fits && !absent(value);
  }
}

class BooleanNode extends LeafNode {
  write(value: unknown, repetition: number): boolean {
    const fits = typeof value === "boolean";
    if (fits) this.column.boolean(repetition, value);
    else this.column.absent(repetition, this.parent);
    return !fits && !absent(value);
  }
}

/**
 * A map of strings: each entry a key and a value; a value of another type NULL, and then the whole map
 * kept in `extra`.
 */
class TextMapNode extends FieldNode {
  readonly leaves: ColumnData[];
  /** The repetition level of an entry after the first. */
  private readonly entry: number;

  constructor(
    private readonly keys: ColumnData,
    private readonly values: ColumnData,
    private readonly parent: number,
    repetition: number,
  ) {
    super();
    this.leaves = [keys, values];
    this.entry = repetition + 1;
  }

  write(value: unknown, repetition: number): boolean {
    if (!isPlainObject(value)) {
      this.absentAt(repetition, this.parent);
      return !absent(value);
    }
    const present = this.parent + 1;
    let allText = true;
    let first = true;
    for (const key of Object.keys(value)) {
      const level = first ? repetition : this.entry;
      first = false;
      this.keys.text(level, key);
      const entry = value[key];
      if (typeof entry === "string") this.values.text(level, entry);
      else {
        this.values.absent(level, present + 1);
        allText = false;
      }
    }
    if (first) this.absentAt(repetition, present);
    return !allText;
  }
}

/** A list: each object element as its struct, or for a list of anything else, each element as JSON text. */
class ListNode extends FieldNode {
  readonly leaves: ColumnData[];
  private readonly struct: StructNode | undefined;
  private readonly json: ColumnData | undefined;
  /** The repetition level of an element after the first. */
  private readonly later: number;

  constructor(
    of: Shape,
    leaves: Leaves,
    private readonly parent: number,
    repetition: number,
  ) {
    super();
    // The list is there at parent + 1, its repeated group at + 2, the element at + 3.
    if (of.kind === "object") this.struct = new StructNode(of, leaves, parent + 2, repetition + 1);
    else this.json = leaves.take();
    this.leaves = this.struct?.leaves ?? [this.json!];
    this.later = repetition + 1;
  }

  write(value: unknown, repetition: number): boolean {
    if (!Array.isArray(value)) {
      this.absentAt(repetition, this.parent);
      return !absent(value);
    }
    const list = value as unknown[];
    if (list.length === 0) {
      this.absentAt(repetition, this.parent + 1);
      return false;
    }
    let allFit = true;
    for (let i = 0; i < list.length; i++) {
      const level = i === 0 ? repetition : this.later;
      const element = list[i];
      if (this.struct === undefined) this.writeJson(element, level);
      else if (isPlainObject(element)) this.struct.writeObject(element, level);
      else {
        // An element that is no object (null too) is a NULL element, and the list is kept whole in `extra`.
        this.absentAt(level, this.parent + 2);
        allFit = false;
      }
    }
    return !allFit;
  }

  private writeJson(element: unknown, level: number): void {
    const json = stringifyAtAnyDepth(element);
    if (json === undefined) this.json!.absent(level, this.parent + 2);
    else this.json!.text(level, json);
  }
}

/** An object of a known shape (and the message itself): its fields typed, and `extra` for the rest. */
class StructNode extends FieldNode {
  readonly leaves: ColumnData[];
  private readonly names: string[];
  private readonly fields: FieldNode[];
  private readonly extra: ColumnData;
  private readonly known: Readonly<Record<string, unknown>>;
  /** The level of its fields' parent: the struct's own when there (the message's root has none of its own). */
  private readonly present: number;

  /** `parent`: the level of what holds it, which the struct, when there, is one more than. */
  constructor(
    shape: Shape,
    leaves: Leaves,
    private readonly parent: number,
    repetition: number,
    root = false,
  ) {
    super();
    this.present = root ? parent : parent + 1;
    const fields = shape.fields ?? {};
    this.names = Object.keys(fields);
    this.fields = this.names.map((name) => fieldNode(fields[name]!, leaves, this.present, repetition));
    this.extra = leaves.take();
    this.leaves = [...this.fields.flatMap((field) => field.leaves), this.extra];
    this.known = fields;
  }

  write(value: unknown, repetition: number): boolean {
    if (!isPlainObject(value)) {
      this.absentAt(repetition, this.parent);
      return !absent(value);
    }
    this.writeObject(value, repetition);
    return false;
  }

  writeObject(value: Readonly<Record<string, unknown>>, repetition: number): void {
    let extra: Extra | undefined;
    let present = 0;
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i]!;
      const field = ownValue(value, name);
      if (field !== undefined) present++;
      if (this.fields[i]!.write(field, repetition)) extra = keep(extra, name, field);
    }
    if (hasMoreKeys(value, present))
      for (const key of Object.keys(value)) if (!Object.hasOwn(this.known, key)) extra = keep(extra, key, value[key]);
    if (extra === undefined) this.extra.absent(repetition, this.present);
    else this.extra.text(repetition, stringifyAtAnyDepth(extra));
  }
}

/** Whether an object has keys beyond the `known` many of its shape's it has (counted without a list of them). */
function hasMoreKeys(value: object, known: number): boolean {
  let keys = 0;
  for (const _key in value) keys++;
  return keys > known;
}

function fieldNode(shape: Shape, leaves: Leaves, parent: number, repetition: number): FieldNode {
  switch (shape.kind) {
    case "string":
      return new TextNode(leaves.take(), parent);
    case "timestamp":
      return new TimestampNode(leaves.take(), leaves.take(), parent);
    case "integer":
      return new IntegerNode(leaves.take(), parent);
    case "boolean":
      return new BooleanNode(leaves.take(), parent);
    case "any":
      return new JsonNode(leaves.take(), parent);
    case "map":
      if (shape.of?.kind !== "string") return new JsonNode(leaves.take(), parent);
      return new TextMapNode(leaves.take(), leaves.take(), parent, repetition);
    case "list":
      return new ListNode(shape.of!, leaves, parent, repetition);
    case "object":
      return new StructNode(shape, leaves, parent, repetition);
  }
}

/** The schema elements of one field of an object, depth first (a timestamp is two columns). */
function fieldElements(name: string, shape: Shape): SchemaElement[] {
  switch (shape.kind) {
    case "string":
      return [text(name)];
    case "timestamp":
      return [{ name, type: "INT64", repetition: "OPTIONAL", annotation: "timestamp" }, text(name + TEXT_SUFFIX)];
    case "integer":
      return [{ name, type: "INT64", repetition: "OPTIONAL" }];
    case "boolean":
      return [{ name, type: "BOOLEAN", repetition: "OPTIONAL" }];
    case "any":
      return [jsonText(name)];
    case "map":
      if (shape.of?.kind !== "string") return [jsonText(name)];
      return [
        { name, repetition: "OPTIONAL", annotation: "map", children: 1 },
        { name: "key_value", repetition: "REPEATED", children: 2 },
        { name: "key", type: "BYTE_ARRAY", repetition: "REQUIRED", annotation: "string" },
        text("value"),
      ];
    case "list": {
      const element = shape.of?.kind === "object" ? objectElements("element", shape.of) : [jsonText("element")];
      return [
        { name, repetition: "OPTIONAL", annotation: "list", children: 1 },
        { name: "list", repetition: "REPEATED", children: 1 },
        ...element,
      ];
    }
    case "object":
      return objectElements(name, shape);
  }
}

/** How many columns of its object a field is: a timestamp is two (the instant and its text), any other one. */
const columnsOf = (shape: Shape) => (shape.kind === "timestamp" ? 2 : 1);

function objectElements(name: string, shape: Shape): SchemaElement[] {
  const fields = Object.entries(shape.fields ?? {});
  const count = fields.reduce((sum, [, of]) => sum + columnsOf(of), 1);
  return [
    { name, repetition: "OPTIONAL", children: count },
    ...fields.flatMap(([field, of]) => fieldElements(field, of)),
    jsonText(EXTRA),
  ];
}

/** The top-level columns of a message, in the shape's order, then `extra`. */
export const MESSAGE_COLUMNS: readonly string[] = [
  ...Object.entries(MESSAGE.fields).flatMap(([name, shape]) =>
    shape.kind === "timestamp" ? [name, name + TEXT_SUFFIX] : [name],
  ),
  EXTRA,
];

/** The whole schema: the root, then every column depth first. `id` is required, as the response check makes it. */
export function messageSchema(): SchemaElement[] {
  const columns = Object.entries(MESSAGE.fields).flatMap(([name, shape]) => fieldElements(name, shape));
  columns[0] = { ...columns[0]!, repetition: "REQUIRED" };
  columns.push(jsonText(EXTRA));
  return [{ name: "msgstat_message", children: MESSAGE_COLUMNS.length }, ...columns];
}

/** Whether a leaf column (by its path) is a top-level one: the flat columns, which get min and max statistics. */
export const isFlatColumn = (path: readonly string[]) => path.length === 1;

/**
 * The walk for `columns` (the leaf columns of messageSchema(), in order): writes one message into
 * them, a row.
 */
export function messageWriter(columns: readonly ColumnData[]): (message: Readonly<Record<string, unknown>>) => void {
  const root = new StructNode(MESSAGE, new Leaves(columns), 0, 0, true);
  return (message) => root.writeObject(message, 0);
}
