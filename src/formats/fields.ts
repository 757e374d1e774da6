// --fields: dotted paths into a message (`values.first_name`, `batches.0.originalFileName`,
// `messageAttempts.-1.status` for the last) and a few derived fields, compiled once into getters.
// The catalogue is the message shape itself (core/message.ts): a path is valid when the shape has it.
import { closest, didYouMean } from "../core/edit-distance.js";
import { UsageError } from "../core/errors.js";
import { attemptCount, batchFileOf, batchIdOf, newestAttempt, newestFailedAttempt } from "../core/attempts.js";
import { fits, isPlainObject, MESSAGE, type CheckedMessage, type Shape } from "../core/message.js";
import type { Tagged } from "../service/fan-out.js";

type Getter = (message: CheckedMessage) => unknown;

/** A column of the table or CSV, a key of JSON: its name and how a row (a message unless said) gives its value. */
export interface Field<R = CheckedMessage> {
  name: string;
  get: (row: R) => unknown;
  /** A timestamp: a table on a terminal shows it in --tz; data formats keep the server's text. */
  time?: true;
}

export const DERIVED_FIELDS: Record<string, { describe: string; get: Getter; time?: true }> = {
  attemptCount: { describe: "number of attempts (numAttempts, or the attempts listed)", get: attemptCount },
  lastAttemptStatus: { describe: "status of the newest attempt", get: (m) => newestAttempt(m)?.status },
  lastAttemptAt: { describe: "createdAt of the newest attempt", get: (m) => newestAttempt(m)?.at, time: true },
  lastErrorType: { describe: "errorType of the newest failed attempt", get: (m) => newestFailedAttempt(m)?.errorType },
  lastErrorCode: { describe: "errorCode of the newest failed attempt", get: (m) => newestFailedAttempt(m)?.errorCode },
  batchFile: { describe: "originalFileName of the message's first batch", get: batchFileOf },
};

const isIndex = (segment: string) => /^-?\d+$/.test(segment);
const fieldNames = (shape: Shape) => Object.keys(shape.fields ?? {});

/** The shape a dotted path leads to, or why the message shape has no such path (and the paths it may have meant). */
function resolve(path: readonly string[]): { shape: Shape } | { problem: string; near?: string[] } {
  let shape: Shape = MESSAGE;
  let where = "";
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (segment === "") return { problem: "empty field name" };
    switch (shape.kind) {
      case "object": {
        const next = shape.fields?.[segment];
        if (next === undefined) {
          // A derived field has no sub-fields: offered only for a name without any.
          const derived = path.length === 1 ? Object.keys(DERIVED_FIELDS) : [];
          const names = [...fieldNames(shape), ...derived];
          return {
            problem:
              where === ""
                ? `unknown field "${segment}"`
                : `unknown field "${segment}" in ${where} (known: ${fieldNames(shape).join(", ")})`,
            near: closest(segment, names).map((name) => [...path.slice(0, i), name, ...path.slice(i + 1)].join(".")),
          };
        }
        shape = next;
        break;
      }
      case "list": {
        const example = fieldNames(shape.of ?? { kind: "any" })[0];
        if (!isIndex(segment))
          return {
            problem:
              `${where} is a list: name an index, as in ${where}.0${example ? `.${example}` : ""} (or -1 for ` +
              `the last)`,
          };
        shape = shape.of ?? { kind: "any" };
        break;
      }
      case "map":
        shape = shape.of ?? { kind: "any" };
        break;
      case "any":
        return { shape };
      default:
        return { problem: `${where} has no sub-fields` };
    }
    where = where === "" ? segment : `${where}.${segment}`;
  }
  return { shape };
}

/**
 * A getter for a path the shape has. Only own properties are followed (`values.constructor` is a
 * placeholder name, never Object's constructor), and a value of another kind than the shape declares
 * reads as nothing: an empty cell rather than a misleading one.
 */
function pathGetter(path: readonly string[], leaf: Shape): Getter {
  if (path.length === 1) {
    // A message's own field (most columns): a message is always a plain object.
    const key = path[0]!;
    return (message) => {
      const value = Object.hasOwn(message, key) ? message[key] : undefined;
      return fits(leaf, value) ? value : undefined;
    };
  }
  return (message) => {
    let value: unknown = message;
    for (const segment of path) {
      if (Array.isArray(value) && isIndex(segment)) {
        const index = Number(segment);
        value = value[index < 0 ? value.length + index : index];
      } else if (isPlainObject(value) && Object.hasOwn(value, segment)) {
        value = value[segment];
      } else return undefined;
    }
    return fits(leaf, value) ? value : undefined;
  };
}

/** Words joined into lines of at most `width` characters, for help text. */
function wrap(text: string, width: number, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

/** The fields --fields knows, as one sentence (the derived ones aside). */
export function fieldHelpText(): string {
  return (
    `${fieldNames(MESSAGE).join(", ")}; dotted paths into them (values.<name>, templateBody.body, ` +
    `batches.0.originalFileName, messageAttempts.-1.errorCode, where -1 is the last).`
  );
}

export function fieldHelp(): string {
  const derived = Object.entries(DERIVED_FIELDS)
    .map(([name, { describe }]) => `  ${name}: ${describe}`)
    .join("\n");
  return `${wrap(`Fields (--fields): ${fieldHelpText()}`, 78, "  ")}\nDerived fields:\n${derived}`;
}

/**
 * Every path --fields accepts that can be named in advance (lists at index 0, maps by their own name): for shell
 * completion.
 */
export function fieldPaths(): string[] {
  const paths: string[] = [];
  const walk = (shape: Shape, prefix: string) => {
    for (const [name, field] of Object.entries(shape.fields ?? {})) {
      const path = `${prefix}${name}`;
      paths.push(path);
      if (field.kind === "object") walk(field, `${path}.`);
      if (field.kind === "list" && field.of?.kind === "object") walk(field.of, `${path}.0.`);
    }
  };
  walk(MESSAGE, "");
  return [...paths, ...Object.keys(DERIVED_FIELDS)];
}

/** Compiles a --fields list; an unknown name is a usage error that lists the valid ones. */
export function compileFields(names: readonly string[], context: { batchId?: string } = {}): Field[] {
  return names.map((name) => {
    const derived = Object.hasOwn(DERIVED_FIELDS, name) ? DERIVED_FIELDS[name] : undefined;
    if (derived) return derived.time ? { name, get: derived.get, time: true } : { name, get: derived.get };
    const path = name.split(".");
    if (path.length > 1 && Object.hasOwn(DERIVED_FIELDS, path[0]!))
      throw new UsageError(`--fields: ${path[0]} has no sub-fields`).withHint(fieldHelp());
    const found = resolve(path);
    if ("problem" in found) {
      const error = new UsageError(`--fields: ${found.problem}`);
      const guess = didYouMean(found.near ?? []);
      if (guess !== undefined) error.withHint(guess);
      throw error.withHint(fieldHelp());
    }
    // Batch listings omit batchId: the listing itself says which batch the message is in.
    if (name === "batchId") return { name, get: (m) => batchIdOf(m, context.batchId) };
    const get = pathGetter(path, found.shape);
    return found.shape.kind === "timestamp" ? { name, get, time: true } : { name, get };
  });
}

/**
 * The fields of a merged listing's rows: each message's own, and first the campaign it was listed
 * under, unless the fields name campaignId themselves (the message's own, where they put it).
 */
export function taggedFields(fields: readonly Field[]): Array<Field<Tagged<CheckedMessage>>> {
  const lifted = fields.map(({ get, ...field }) => ({ ...field, get: (row: Tagged<CheckedMessage>) => get(row.item) }));
  return fields.some((field) => field.name === "campaignId")
    ? lifted
    : [{ name: "campaignId", get: (row) => row.campaignId }, ...lifted];
}

export const DEFAULT_CSV_FIELDS = [
  "id",
  "recipient",
  "latestStatus",
  "createdAt",
  "attemptCount",
  "lastErrorType",
  "lastErrorCode",
  "batchId",
  "fullMessage",
];
