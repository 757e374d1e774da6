// A hand-written check of exactly what the zod schemas in schemas.ts accept, for the hot path: zod
// copies every object it checks (about a million objects per 100k messages), this allocates nothing.
// It may only be stricter than zod, never looser: `false` sends the body to zod, which decides and
// words the error. test/bench/quick-check.test.ts holds the two side by side.

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const optString = (value: unknown) => value === undefined || typeof value === "string";
const optNullableString = (value: unknown) => value === undefined || value === null || typeof value === "string";

/** zod's own test for z.record: an object whose constructor, if it is a function, has an ordinary prototype. */
function isPlainObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, "isPrototypeOf");
}

function attemptOk(value: unknown): boolean {
  return isObject(value) && optString(value.status) && optString(value.createdAt) && optNullableString(value.errorType) && optNullableString(value.errorCode);
}

function attemptSummaryOk(value: unknown): boolean {
  if (!isObject(value) || !optString(value.status) || !optString(value.createdAt)) return false;
  const error = value.error;
  return error === undefined || error === null || (isObject(error) && optString(error.type) && optString(error.code));
}

function batchOk(value: unknown): boolean {
  return isObject(value) && typeof value.id === "string" && optString(value.originalFileName);
}

function optArrayOf(value: unknown, each: (item: unknown) => boolean): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!each(value[i])) return false;
  return true;
}

export function quickMessageOk(value: unknown): boolean {
  if (!isObject(value)) return false;
  const m = value;
  if (typeof m.id !== "string") return false;
  if (!optString(m.createdAt) || !optString(m.updatedAt) || !optString(m.recipient) || !optString(m.latestStatus)) return false;
  if (!optString(m.fullMessage) || !optString(m.campaignId) || !optString(m.batchId)) return false;
  if (m.numAttempts !== undefined && !(typeof m.numAttempts === "number" && Number.isFinite(m.numAttempts))) return false;
  if (m.values !== undefined && !isPlainObject(m.values)) return false;
  if (m.templateBody !== undefined && !(isObject(m.templateBody) && optString(m.templateBody.body))) return false;
  return optArrayOf(m.batches, batchOk) && optArrayOf(m.messageAttempts, attemptOk) && optArrayOf(m.attempts, attemptSummaryOk);
}

export function quickPageOk(value: unknown): boolean {
  if (!isObject(value) || !Array.isArray(value.data)) return false;
  const pageData = value.pageData;
  if (!isObject(pageData) || typeof pageData.hasNextPage !== "boolean") return false;
  if (pageData.hasPreviousPage !== undefined && typeof pageData.hasPreviousPage !== "boolean") return false;
  if (!optNullableString(pageData.startCursor) || !optNullableString(pageData.endCursor)) return false;
  const data = value.data;
  for (let i = 0; i < data.length; i++) if (!quickMessageOk(data[i])) return false;
  return true;
}
