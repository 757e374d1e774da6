// The Parquet columns of a message, derived from the message shape (core/message.ts) as --fields is, so
// a field the shape gains is a column at once: the schema, and each message turned into the row the
// writer takes. The rule for what does not fit (msgstat's tolerance: a message always passes):
// - a field of the declared kind goes to its typed column: strings, integers (INT64), booleans,
//   timestamps as an instant (TIMESTAMP(MILLIS), adjusted to UTC) with the server's text beside it in
//   `<name>Text`, objects as structs, lists as lists of structs, `values` as a map of strings, and what
//   the reference leaves open (`metadata`) as JSON text;
// - null or missing: NULL;
// - a value of another kind (a number for a string, text for an integer): NULL in the typed column, and
//   the value itself kept in the `extra` of the object it belongs to; a timestamp text that is no
//   readable time: NULL as an instant, its text kept in `<name>Text`;
// - a key msgstat does not know: kept in its object's `extra` (each struct has one), as JSON text.
import { stringifyAtAnyDepth } from "../core/json-stringify.js";
import { isPlainObject, MESSAGE, ownValue, type Shape } from "../core/message.js";
import { instantOf } from "../core/time.js";

/** A Parquet schema element as the writer takes it (the Thrift SchemaElement's fields, snake_case). */
export interface SchemaElement {
  name: string;
  type?: "BOOLEAN" | "INT64" | "BYTE_ARRAY";
  repetition_type?: "REQUIRED" | "OPTIONAL" | "REPEATED";
  converted_type?: "UTF8" | "LIST" | "MAP" | "JSON";
  logical_type?: { type: "TIMESTAMP"; isAdjustedToUTC: boolean; unit: "MILLIS" };
  num_children?: number;
}

/** The column beside each timestamp that keeps the server's text: `createdAt` and `createdAtText`. */
export const TEXT_SUFFIX = "Text";
/** Each struct's (and the message's) column of what msgstat does not know, or could not type. */
export const EXTRA = "extra";

const optional = (name: string, rest: Omit<SchemaElement, "name" | "repetition_type">): SchemaElement => ({
  name,
  repetition_type: "OPTIONAL",
  ...rest,
});
const text = (name: string) => optional(name, { type: "BYTE_ARRAY", converted_type: "UTF8" });
/** JSON text: a string column (every reader takes it; DuckDB's json functions read it as it is). */
const jsonText = text;

/** The elements for one field of an object, depth first (a timestamp is two columns). */
function fieldElements(name: string, shape: Shape): SchemaElement[] {
  switch (shape.kind) {
    case "string":
      return [text(name)];
    case "timestamp":
      return [
        optional(name, { type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" } }),
        text(name + TEXT_SUFFIX),
      ];
    case "integer":
      return [optional(name, { type: "INT64" })];
    case "boolean":
      return [optional(name, { type: "BOOLEAN" })];
    case "any":
      return [jsonText(name)];
    case "map":
      if (shape.of?.kind !== "string") return [jsonText(name)];
      return [
        optional(name, { converted_type: "MAP", num_children: 1 }),
        { name: "key_value", repetition_type: "REPEATED", num_children: 2 },
        { name: "key", repetition_type: "REQUIRED", type: "BYTE_ARRAY", converted_type: "UTF8" },
        text("value"),
      ];
    case "list": {
      const element = shape.of?.kind === "object" ? objectElements("element", shape.of) : [jsonText("element")];
      return [
        optional(name, { converted_type: "LIST", num_children: 1 }),
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
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
    optional(name, { num_children: count }),
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
  columns[0] = { ...columns[0]!, repetition_type: "REQUIRED" };
  columns.push(jsonText(EXTRA));
  return [{ name: "msgstat_message", num_children: MESSAGE_COLUMNS.length }, ...columns];
}

type Row = Record<string, unknown>;
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

/**
 * One value of a field into `row`: its typed column (and text column), or NULL with the value kept in
 * `extra`. Returns `extra`, created when something had to go there.
 */
function convertField(row: Row, name: string, shape: Shape, value: unknown, extra: Extra | undefined) {
  const absent = value === undefined || value === null;
  switch (shape.kind) {
    case "string":
      row[name] = typeof value === "string" ? value : null;
      return absent || typeof value === "string" ? extra : keep(extra, name, value);
    case "timestamp": {
      const sent = typeof value === "string" ? value : null;
      row[name] = sent === null ? null : (instantOf(sent) ?? null);
      row[name + TEXT_SUFFIX] = sent;
      return absent || sent !== null ? extra : keep(extra, name, value);
    }
    case "integer":
      row[name] = Number.isSafeInteger(value) ? BigInt(value as number) : null;
      return absent || row[name] !== null ? extra : keep(extra, name, value);
    case "boolean":
      row[name] = typeof value === "boolean" ? value : null;
      return absent || typeof value === "boolean" ? extra : keep(extra, name, value);
    case "any":
      row[name] = absent ? null : stringifyAtAnyDepth(value);
      return extra;
    case "map":
      if (shape.of?.kind !== "string") {
        row[name] = absent ? null : stringifyAtAnyDepth(value);
        return extra;
      }
      return convertMap(row, name, value, extra);
    case "list":
      return convertList(row, name, shape.of!, value, extra);
    case "object":
      row[name] = isPlainObject(value) ? convertObject(shape, value) : null;
      return absent || row[name] !== null ? extra : keep(extra, name, value);
  }
}

/** A map of strings: its entries, a value that is not a string as NULL, and then the whole map kept in `extra` too. */
function convertMap(row: Row, name: string, value: unknown, extra: Extra | undefined): Extra | undefined {
  if (!isPlainObject(value)) {
    row[name] = null;
    return value === undefined || value === null ? extra : keep(extra, name, value);
  }
  const entries: Array<{ key: string; value: string | null }> = [];
  let allText = true;
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (typeof entry === "string") entries.push({ key, value: entry });
    else {
      entries.push({ key, value: null });
      allText = false;
    }
  }
  row[name] = entries;
  return allText ? extra : keep(extra, name, value);
}

/** A list: each object element as its struct; an element of another kind NULL, the whole list kept in `extra`. */
function convertList(row: Row, name: string, of: Shape, value: unknown, extra: Extra | undefined): Extra | undefined {
  if (!Array.isArray(value)) {
    row[name] = null;
    return value === undefined || value === null ? extra : keep(extra, name, value);
  }
  const list = value as unknown[];
  const elements: unknown[] = new Array(list.length);
  let allFit = true;
  for (let i = 0; i < list.length; i++) {
    const element = list[i];
    if (of.kind === "object" && isPlainObject(element)) elements[i] = convertObject(of, element);
    else if (of.kind !== "object") elements[i] = element === undefined ? null : stringifyAtAnyDepth(element);
    else {
      elements[i] = null;
      allFit = false;
    }
  }
  row[name] = elements;
  return allFit ? extra : keep(extra, name, value);
}

/** An object of a known shape as its struct: its fields typed, and `extra` for the rest. */
function convertObject(shape: Shape, value: Readonly<Record<string, unknown>>): Row {
  const fields = shape.fields ?? {};
  const row: Row = {};
  let extra: Extra | undefined;
  for (const name in fields) extra = convertField(row, name, fields[name]!, ownValue(value, name), extra);
  for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) extra = keep(extra, key, value[key]);
  row[EXTRA] = extra === undefined ? null : stringifyAtAnyDepth(extra);
  return row;
}

/** A message as the row of its top-level columns (named as MESSAGE_COLUMNS). */
export function messageRow(message: Readonly<Record<string, unknown>>): Row {
  return convertObject(MESSAGE, message);
}
