// The message shape of the service's API reference, declared once. Everything else is derived from it:
// - the TypeScript types of what the reference shows (`Message`, `Batch`, ...), which the sandbox builds;
// - the response check (`problemIn`): only what msgstat cannot work without is required;
// - tolerant reads (`read`): a field that is missing, null or of another type reads as undefined, so one
//   odd field never stops an export (JSON and JSONL still carry it exactly as sent);
// - the --fields catalogue (formats/fields.ts walks `MESSAGE`).
// The reference leaves "which fields are guaranteed present or nullable" unshown, hence the tolerance.

export type Kind = "string" | "timestamp" | "integer" | "boolean" | "any" | "map" | "list" | "object";

declare const wireType: unique symbol;

/** One node of the declaration; `T` is the type the reference shows for it (compile time only). */
export interface Shape<T = unknown> {
  readonly kind: Kind;
  /** Elements of a list, values of a map. */
  readonly of?: Shape;
  /** Fields of an object, in the reference's order. */
  readonly fields?: Readonly<Record<string, Shape>>;
  readonly nullable?: boolean;
  /** The reference shows the field in some responses only (e.g. `batches` not in batch listings). */
  readonly sometimes?: boolean;
  /** msgstat cannot work without it: a response lacking it is refused. */
  readonly required?: boolean;
  /** What it means, for help text where the name alone does not say. */
  readonly describe?: string;
  readonly [wireType]?: T;
}

export interface ObjectShape<T> extends Shape<T> {
  readonly kind: "object";
  readonly fields: Readonly<Record<string, Shape>>;
}

export type WireOf<S> = S extends Shape<infer T> ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type WireFields<F> = Simplify<
  { -readonly [K in keyof F as F[K] extends { sometimes: true } ? never : K]: WireOf<F[K]> } & {
    -readonly [K in keyof F as F[K] extends { sometimes: true } ? K : never]?: WireOf<F[K]>;
  }
>;

const text: Shape<string> = { kind: "string" };
const timestamp: Shape<string> = { kind: "timestamp" };
const integer: Shape<number> = { kind: "integer" };
const boolean: Shape<boolean> = { kind: "boolean" };
const anything: Shape<unknown> = { kind: "any" };
const nullable = <T>(shape: Shape<T>): Shape<T | null> => ({ ...shape, nullable: true });
const sometimes = <T>(shape: Shape<T>): Shape<T> & { sometimes: true } => ({ ...shape, sometimes: true });
const required = <T>(shape: Shape<T>): Shape<T> => ({ ...shape, required: true });
const listOf = <T>(of: Shape<T>): Shape<T[]> => ({ kind: "list", of });
const mapOf = <T>(of: Shape<T>): Shape<Record<string, T>> => ({ kind: "map", of });
const object = <F extends Record<string, Shape>>(fields: F): ObjectShape<WireFields<F>> => ({ kind: "object", fields });

export const TEMPLATE_BODY = object({
  id: text,
  templateId: text,
  language: text,
  body: text,
  creatorId: text,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const BATCH_MESSAGE = object({
  id: text,
  batchId: text,
  messageId: text,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const BATCH = object({
  id: text,
  originalFileName: text,
  status: text,
  campaignId: text,
  creatorId: text,
  totalMessages: integer,
  createdAt: timestamp,
  updatedAt: timestamp,
  BatchMessage: BATCH_MESSAGE,
});

export const MESSAGE_ATTEMPT = object({
  id: text,
  messageId: text,
  status: text,
  sentAt: timestamp,
  deliveredAt: nullable(timestamp),
  createdAt: timestamp,
  updatedAt: timestamp,
  externalAttemptId: text,
  errorType: nullable(text),
  errorCode: nullable(text),
  metadata: mapOf(anything),
  creatorId: text,
  creator: object({ email: text }),
});

export const ATTEMPT_SUMMARY = object({
  status: text,
  createdAt: timestamp,
  error: sometimes(object({ type: text, code: text })),
});

export const MESSAGE = object({
  id: required(text),
  createdAt: timestamp,
  updatedAt: timestamp,
  recipient: text,
  values: mapOf(text),
  fullMessage: text,
  latestStatus: text,
  templateBodyId: text,
  campaignId: text,
  templateBody: TEMPLATE_BODY,
  batches: sometimes(listOf(BATCH)),
  messageAttempts: sometimes(listOf(MESSAGE_ATTEMPT)),
  attempts: sometimes(listOf(ATTEMPT_SUMMARY)),
  language: text,
  batchId: sometimes(text),
  creatorEmail: text,
  numAttempts: sometimes(integer),
});

export const PAGE_DATA = object({
  hasNextPage: required(boolean),
  hasPreviousPage: boolean,
  startCursor: sometimes(text),
  endCursor: sometimes(text),
});

export const MESSAGE_PAGE = object({ data: required(listOf(MESSAGE)), pageData: required(PAGE_DATA) });

export type Timestamp = string;
export type TemplateBody = WireOf<typeof TEMPLATE_BODY>;
export type BatchMessageLink = WireOf<typeof BATCH_MESSAGE>;
export type Batch = WireOf<typeof BATCH>;
export type MessageAttempt = WireOf<typeof MESSAGE_ATTEMPT>;
export type AttemptSummary = WireOf<typeof ATTEMPT_SUMMARY>;
export type Message = WireOf<typeof MESSAGE>;
export type PageData = WireOf<typeof PAGE_DATA>;
export type MessagePage = WireOf<typeof MESSAGE_PAGE>;

/**
 * A message as msgstat holds it after the check: the server's own object, untouched (so JSON output is
 * exactly what was sent), known to have a string `id`. Read anything else through `read`.
 */
export type CheckedMessage = { readonly id: string } & Readonly<Record<string, unknown>>;

/** A page after the check: `data` and `pageData.hasNextPage` are known; the rest is read through `read`. */
export interface CheckedPage {
  readonly data: CheckedMessage[];
  readonly pageData: { readonly hasNextPage: boolean } & Readonly<Record<string, unknown>>;
}

/** What a tolerant read of a field of type T gives: the value if it has the declared kind, else undefined. */
export type Tolerant<T> = [NonNullable<T>] extends [string]
  ? string
  : [NonNullable<T>] extends [number]
    ? number
    : [NonNullable<T>] extends [boolean]
      ? boolean
      : [NonNullable<T>] extends [readonly unknown[]]
        ? readonly unknown[]
        : unknown extends T
          ? unknown
          : Readonly<Record<string, unknown>>;

export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a value has the kind a shape declares (null only where the shape allows it). */
export function fits(shape: Shape, value: unknown): boolean {
  switch (shape.kind) {
    case "string":
    case "timestamp":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value);
    case "map":
    case "object":
      return isPlainObject(value);
    case "any":
      return value !== undefined;
  }
}

/** A value's own property (never one inherited from Object.prototype, such as `constructor`). */
export function ownValue(value: unknown, key: string): unknown {
  if (!isPlainObject(value)) return undefined;
  const found = value[key];
  // JSON never holds a function: an inherited property is one (toString, constructor, ...) or is
  // __proto__'s object, and only those need the own-property check, the slower part of a read.
  if (found === undefined || (typeof found !== "function" && key !== "__proto__")) return found;
  return Object.hasOwn(value, key) ? found : undefined;
}

/**
 * `key` of an object of the given shape, if it is there with its declared kind; undefined when it is
 * missing, null or of another kind. `read(MESSAGE, message, "recipient")` is a string or undefined.
 */
export function read<T, K extends keyof T & string>(
  shape: ObjectShape<T>,
  value: unknown,
  key: K,
): Tolerant<T[K]> | undefined {
  const found = ownValue(value, key);
  const declared = shape.fields[key];
  return declared !== undefined && fits(declared, found) ? (found as Tolerant<T[K]>) : undefined;
}

/** The elements of a list field that are objects (others are skipped: they say nothing msgstat can use). */
export function readObjects<T, K extends keyof T & string>(
  shape: ObjectShape<T>,
  value: unknown,
  key: K,
): ReadonlyArray<Readonly<Record<string, unknown>>> {
  const list = read(shape, value, key);
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

const KIND_WORDS: Record<Kind, string> = {
  string: "a string",
  timestamp: "a timestamp string",
  integer: "a whole number",
  boolean: "true or false",
  any: "a value",
  map: "an object",
  list: "an array",
  object: "an object",
};

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The first place where a response lacks what msgstat cannot work without, as "path: expected ..., got
 * ...", or undefined when it has all of it. Only `required` fields are checked (and the objects and lists
 * on the way to them); everything else passes, whatever it holds.
 */
export function problemIn(shape: Shape, value: unknown, path = ""): string | undefined {
  // Every message of every page is checked: the common answer (all there) costs no path strings.
  return conforms(shape, value) ? undefined : describeProblem(shape, value, path);
}

function conforms(shape: Shape, value: unknown): boolean {
  if (!fits(shape, value)) return false;
  if (shape.kind === "list" && shape.of !== undefined && needsCheck(shape.of)) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) if (!conforms(shape.of, list[i])) return false;
  }
  if (shape.kind === "object") {
    for (const [name, field] of requiredFieldsOf(shape)) if (!conforms(field, ownValue(value, name))) return false;
  }
  return true;
}

function describeProblem(shape: Shape, value: unknown, path: string): string | undefined {
  const where = path === "" ? "(the body)" : path;
  if (!fits(shape, value)) return `${where}: expected ${KIND_WORDS[shape.kind]}, got ${describeValue(value)}`;
  if (shape.kind === "list" && shape.of !== undefined && needsCheck(shape.of)) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) {
      const problem = problemIn(shape.of, list[i], path === "" ? String(i) : `${path}.${i}`);
      if (problem !== undefined) return problem;
    }
  }
  if (shape.kind === "object") {
    for (const [name, field] of requiredFieldsOf(shape)) {
      const problem = problemIn(field, ownValue(value, name), path === "" ? name : `${path}.${name}`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

const requiredFields = new WeakMap<Shape, ReadonlyArray<readonly [string, Shape]>>();

/** The fields of an object shape that are required, or lead to something that is (worked out once per shape). */
function requiredFieldsOf(shape: Shape): ReadonlyArray<readonly [string, Shape]> {
  let fields = requiredFields.get(shape);
  if (fields === undefined) {
    fields = Object.entries(shape.fields ?? {}).filter(([, field]) => field.required === true);
    requiredFields.set(shape, fields);
  }
  return fields;
}

/** Whether anything inside a shape is required: list elements are walked only when something is. */
function needsCheck(shape: Shape): boolean {
  if (shape.kind === "object") return requiredFieldsOf(shape).length > 0;
  return shape.kind === "list" && shape.of !== undefined && needsCheck(shape.of);
}
