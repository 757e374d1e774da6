// JSON.stringify at any depth. JSON.parse accepts any nesting depth, but JSON.stringify recurses and
// overflows the stack a few thousand levels down; so a value that deep is written by the loop below
// instead, with an explicit stack, as JSON.stringify would write it had it the stack.

type Frame =
  | { array: readonly unknown[]; index: number }
  | { object: Readonly<Record<string, unknown>>; keys: string[]; index: number; written: number };

/**
 * JSON.stringify(value, null, indent), whatever the depth. Past the stack's depth the text is compact
 * even when `indent` asks for more: indenting that deep would make the text grow with the square of it.
 */
export function stringifyAtAnyDepth(value: object, indent?: number): string;
export function stringifyAtAnyDepth(value: unknown, indent?: number): string | undefined;
export function stringifyAtAnyDepth(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof RangeError) || !isContainer(value)) throw error;
    return loopStringify(value);
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function loopStringify(root: object): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const open = (value: unknown) => {
    if (Array.isArray(value)) {
      parts.push("[");
      stack.push({ array: value, index: 0 });
    } else if (isContainer(value)) {
      parts.push("{");
      stack.push({ object: value as Record<string, unknown>, keys: Object.keys(value), index: 0, written: 0 });
    } else {
      parts.push(omitted(value) ? "null" : JSON.stringify(value));
    }
  };
  open(root);
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if ("array" in top) {
      if (top.index === top.array.length) {
        parts.push("]");
        stack.pop();
        continue;
      }
      if (top.index > 0) parts.push(",");
      open(top.array[top.index++]);
      continue;
    }
    while (top.index < top.keys.length && omitted(top.object[top.keys[top.index]!])) top.index++;
    if (top.index === top.keys.length) {
      parts.push("}");
      stack.pop();
      continue;
    }
    const key = top.keys[top.index++]!;
    parts.push(`${top.written++ > 0 ? "," : ""}${JSON.stringify(key)}:`);
    open(top.object[key]);
  }
  return parts.join("");
}
