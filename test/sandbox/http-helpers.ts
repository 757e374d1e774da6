// Plain HTTP helpers for the sandbox tests: everything goes over real sockets with global fetch.
import type { Message, PageData } from "../../src/core/message.js";

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;
export const FIXED_NOW = Date.parse("2025-05-01T12:00:00.000Z");

export interface Page {
  data: Message[];
  pageData: PageData;
}

export interface JsonResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * fetch without compression unless a test asks for it: these tests read what the sandbox serves, not how
 * it is packed (test/sandbox/front-end.test.ts tests that), and packing a million messages costs a third
 * more CPU, which a loaded machine can ill spare.
 */
export function fetchPlain(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
  return fetch(url, { ...init, headers });
}

export async function getJson<T = unknown>(url: string, init?: RequestInit): Promise<JsonResponse<T>> {
  const response = await fetchPlain(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as T };
}

export async function getPage(
  base: string,
  path: string,
  params: Record<string, string | number | undefined>,
): Promise<Page> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const { status, body } = await getJson<Page>(`${base}${path}?${query.toString()}`);
  if (status !== 200) throw new Error(`GET ${path}?${query.toString()} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

/** Every message of a listing, following endCursor with `after`. */
export async function pageForward(
  base: string,
  path: string,
  limit: number,
  extra: Record<string, string> = {},
): Promise<{ messages: Message[]; pages: Page[] }> {
  const pages: Page[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await getPage(base, path, { limit, after, ...extra });
    pages.push(page);
    if (!page.pageData.hasNextPage) break;
    after = page.pageData.endCursor;
    if (after === undefined) throw new Error("hasNextPage without endCursor");
  }
  return { messages: pages.flatMap((page) => page.data), pages };
}

/** Every message before `cursor` (newest first), following startCursor with `before`. */
export async function pageBackward(
  base: string,
  path: string,
  limit: number,
  cursor: string,
  extra: Record<string, string> = {},
): Promise<{ messages: Message[]; pages: Page[] }> {
  const pages: Page[] = [];
  let before = cursor;
  for (;;) {
    const page = await getPage(base, path, { limit, before, ...extra });
    pages.unshift(page);
    if (!page.pageData.hasPreviousPage) break;
    if (page.pageData.startCursor === undefined) throw new Error("hasPreviousPage without startCursor");
    before = page.pageData.startCursor;
  }
  return { messages: pages.flatMap((page) => page.data), pages };
}

/** Newest createdAt first (instants, offsets included), ties by id ascending; returns the first offending pair. */
export function firstOrderViolation(messages: Message[]): [Message, Message] | undefined {
  for (let i = 1; i < messages.length; i++) {
    const a = messages[i - 1] as Message;
    const b = messages[i] as Message;
    const ta = Date.parse(a.createdAt);
    const tb = Date.parse(b.createdAt);
    if (!(ta > tb || (ta === tb && a.id < b.id))) return [a, b];
  }
  return undefined;
}

export function renderBody(body: string, values: Record<string, string>): string {
  return body.replace(/\{\{([A-Za-z0-9_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for placeholder ${name}`);
    return value;
  });
}
