// The hand-written shape check beside the zod schemas it stands in for: on real sandbox pages and on
// every field of them replaced by each JSON type, it may reject what zod accepts (zod then decides),
// but never accept what zod rejects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickMessageOk, quickPageOk } from "../../src/api/quick-check.js";
import { messagePageSchema, messageSchema } from "../../src/api/schemas.js";
import { startSandbox } from "../../src/sandbox/index.js";

type Json = unknown;
const REPLACEMENTS: Json[] = [null, 0, 1.5, "", "x", true, false, [], {}, [{}], { id: "x" }];
const DELETE = Symbol("delete");

/** Every copy of `root` with one value somewhere inside replaced (or its key removed). */
function* mutations(root: Json, depthLimit = 6): Generator<Json> {
  function* walk(node: Json, depth: number, rebuild: (replacement: Json | typeof DELETE) => Json): Generator<Json> {
    for (const replacement of [...REPLACEMENTS, DELETE]) yield rebuild(replacement);
    if (depth >= depthLimit || node === null || typeof node !== "object") return;
    const entries: Array<[string | number, Json]> = Array.isArray(node) ? node.slice(0, 2).map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, child] of entries) {
      yield* walk(child, depth + 1, (replacement) => {
        const copy: Record<string | number, Json> | Json[] = Array.isArray(node) ? [...node] : { ...(node as object) };
        if (replacement === DELETE) {
          if (Array.isArray(copy)) copy.splice(key as number, 1);
          else delete (copy as Record<string, Json>)[key];
        } else (copy as Record<string | number, Json>)[key] = replacement;
        return rebuild(copy);
      });
    }
  }
  yield* walk(root, 0, (replacement) => (replacement === DELETE ? undefined : replacement));
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let page: { data: Json[]; pageData: Json };
let single: Json;

beforeAll(async () => {
  sandbox = await startSandbox({ messages: 3000, seed: 7 });
  const campaign = sandbox.campaigns[0]!.id;
  page = (await (await fetch(`${sandbox.url}/campaigns/${campaign}/messages?limit=50`)).json()) as typeof page;
  const id = (page.data[0] as { id: string }).id;
  single = await (await fetch(`${sandbox.url}/campaigns/${campaign}/messages/${id}`)).json();
});

afterAll(async () => {
  await sandbox?.close();
});

describe("quick shape check", () => {
  it("accepts the service's own pages and messages, as zod does", () => {
    expect(messagePageSchema.safeParse(page).success).toBe(true);
    expect(quickPageOk(page)).toBe(true);
    expect(messageSchema.safeParse(single).success).toBe(true);
    expect(quickMessageOk(single)).toBe(true);
  });

  it("never accepts a message zod rejects", () => {
    let rejectedByZod = 0;
    for (const message of [...page.data.slice(0, 8), single]) {
      for (const variant of mutations(message)) {
        const zodOk = messageSchema.safeParse(variant).success;
        if (!zodOk) {
          rejectedByZod++;
          expect(quickMessageOk(variant), String(JSON.stringify(variant)).slice(0, 300)).toBe(false);
        }
      }
    }
    expect(rejectedByZod).toBeGreaterThan(100);
  });

  it("never accepts a page zod rejects", () => {
    const small = { data: page.data.slice(0, 2), pageData: page.pageData };
    for (const variant of mutations(small, 3)) {
      if (!messagePageSchema.safeParse(variant).success) expect(quickPageOk(variant), String(JSON.stringify(variant)).slice(0, 300)).toBe(false);
    }
  });

  it("rejects a record zod would not take as one", () => {
    const message = { ...(page.data[0] as object), values: Object.create(null) as object };
    expect(quickMessageOk(message)).toBe(messageSchema.safeParse(message).success);
  });
});
