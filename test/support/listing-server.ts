// The one scriptable server on 127.0.0.1 for what the sandbox does not model: a test gives it the
// answer to each request (a page, a status, or none at all) and reads back what it received. The
// listings most tests need are here as answers: pages chained by cursors, a listing of exact texts,
// several campaigns, and a live listing the test changes as it runs.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** An answer other than 200: this status with this body (an object is sent as JSON, text as it is). */
export class Status {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A request held unanswered, as a stalled service holds it. */
export const STALL = Symbol("stall");

/** What a request gets: a 200 with this body (an object as JSON, text or bytes as they are), a Status, or STALL. */
export type Answer = unknown;

export interface ListingServer {
  url: string;
  /** Every request target received, in order. */
  requests: string[];
  /** The connections clients opened. */
  connections: number;
  /** The most requests that were being answered at one moment. */
  maxInFlight: number;
  /** Stops it (done by itself when the test that started it ends; for a server of a whole file's tests). */
  close: () => Promise<void>;
}

export interface ListingServerOptions {
  /** Hold each answer until this many requests are in flight, or `holdMs` went by (bounds show up at once). */
  holdUntil?: number;
  holdMs?: number;
  /** Started outside a test (in beforeAll, or at a file's top): the caller closes it. */
  outsideTest?: boolean;
}

export async function startListingServer(
  answer: (url: URL, request: IncomingMessage) => Answer,
  options: ListingServerOptions = {},
): Promise<ListingServer> {
  const state: ListingServer = { url: "", requests: [], connections: 0, maxInFlight: 0, close: async () => undefined };
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests.push(req.url ?? "");
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    const respond = () => {
      inFlight--;
      send(res, answer(new URL(req.url ?? "/", "http://localhost"), req));
    };
    if (options.holdUntil === undefined) return respond();
    waiting.push(respond);
    if (inFlight >= options.holdUntil) for (const next of waiting.splice(0)) next();
    else
      setTimeout(
        () => waiting.includes(respond) && waiting.splice(waiting.indexOf(respond), 1)[0]!(),
        options.holdMs ?? 20,
      );
  });
  server.on("connection", () => state.connections++);
  // As the sandbox: idle connections are the client's to close (see test/sandbox/server/connections.test.ts).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  if (!options.outsideTest) onTestFinished(state.close);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function send(res: ServerResponse, answer: Answer): void {
  if (answer === STALL) return;
  const { status, body } = answer instanceof Status ? answer : { status: 200, body: answer };
  const text = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** A listing of these pages, in this order, chained by cursors c1, c2, ...; the last says no more follow. */
export function chainedPages(pages: readonly unknown[][]): (url: URL) => Answer {
  return (url) => {
    const after = url.searchParams.get("after");
    const index = after === null ? 0 : Number(after.slice(1));
    const data = pages[index] ?? [];
    const last = index >= pages.length - 1;
    return {
      data,
      pageData: {
        hasNextPage: !last,
        hasPreviousPage: index > 0,
        startCursor: `s${index}`,
        endCursor: `c${index + 1}`,
      },
    };
  };
}

/**
 * A listing of these messages' texts, newest first, as the reference pages it: `limit` honoured (50
 * unless asked), `after=mK` starts after message K, `before=mK` ends before it. The texts are sent as
 * they are, so a number JSON.parse would round reaches the client as written.
 */
export function cursorPages(texts: readonly string[]): (url: URL) => Answer {
  return (url) => {
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const after = url.searchParams.get("after");
    const before = url.searchParams.get("before");
    let start = 0;
    let end = Math.min(texts.length, limit);
    if (after !== null) {
      start = Number(after.slice(1)) + 1;
      end = Math.min(texts.length, start + limit);
    } else if (before !== null) {
      end = Number(before.slice(1));
      start = Math.max(0, end - limit);
    }
    const pageData = {
      hasNextPage: end < texts.length,
      hasPreviousPage: start > 0,
      ...(end > start ? { startCursor: `m${start}`, endCursor: `m${end - 1}` } : {}),
    };
    return `{"data":[${texts.slice(start, end).join(",")}],"pageData":${JSON.stringify(pageData)}}`;
  };
}

/** A minimal message as the reference shows it, created `hoursBefore` hours before `now`. */
export function messageAt(
  id: string,
  now: number,
  hoursBefore: number,
  latestStatus = "success",
): Record<string, unknown> {
  return {
    id,
    createdAt: new Date(now - hoursBefore * 3_600_000).toISOString().replace("Z", "+00:00"),
    latestStatus,
    recipient: "15550100",
    messageAttempts: [],
  };
}

/**
 * Several campaigns, for the fan-out's cases: one missing (404), one failing part way (`fail` gives a
 * status for the campaign's `page`-th request, 0 the first), pages in the wrong order. Each
 * campaign's messages are served in the order given, `limit` at a time, cursors naming positions.
 */
export function campaignPages(
  campaigns: Record<string, readonly Record<string, unknown>[]>,
  fail?: (campaignId: string, page: number) => number | undefined,
): (url: URL) => Answer {
  const pagesServed = new Map<string, number>();
  return (url) => {
    const [, , campaignId = ""] = url.pathname.split("/").map(decodeURIComponent);
    const messages = campaigns[campaignId];
    const page = pagesServed.get(campaignId) ?? 0;
    pagesServed.set(campaignId, page + 1);
    if (messages === undefined) return new Status(404, { message: "campaign not found" });
    const status = fail?.(campaignId, page);
    if (status !== undefined) return new Status(status, { message: "broken" });
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const after = url.searchParams.get("after");
    const start = after === null ? 0 : Number(after.slice(1)) + 1;
    const end = Math.min(messages.length, start + limit);
    const data = messages.slice(start, end);
    return {
      data,
      pageData: {
        hasNextPage: end < messages.length,
        hasPreviousPage: start > 0,
        ...(data.length > 0 ? { startCursor: `p${start}`, endCursor: `p${end - 1}` } : {}),
      },
    };
  };
}

/** A message of `campaignId` created at minute `minute` of 2025-05-01 (larger is newer). */
export function campaignMessage(campaignId: string, id: string, minute: number, latestStatus = "success") {
  return {
    id,
    campaignId,
    createdAt: new Date(Date.UTC(2025, 4, 1, 0, minute)).toISOString().replace("Z", "+00:00"),
    latestStatus,
    recipient: "447700900123",
    messageAttempts: [],
  };
}

export interface ScriptedMessage {
  id: string;
  createdAt: string;
  latestStatus: string;
  recipient: string;
  messageAttempts: unknown[];
  /** Padding, for large records. */
  fullMessage?: string;
}

/** What a request matching `when` gets instead of its page, `times` times. */
export interface ScriptedFault {
  when: (url: URL) => boolean;
  times: number;
  kind: "503" | "stall";
}

/**
 * A live listing the test scripts: bursts between two polls, many messages sharing one createdAt, a
 * message inserted below the newest one, empty pages whose cursors are "" or null, requests that get a
 * 503 or are never answered. Newest first, as the reference's example; cursors are the message ids
 * (`after=`, `before=` as the reference describes).
 */
export interface LiveListing extends ListingServer {
  /** The listing, newest first. */
  rows: ScriptedMessage[];
  faults: ScriptedFault[];
  /** How an empty page's cursors are sent: as "", as null, or left out. */
  emptyCursors: "" | null | "absent";
  /** Adds messages at the top, oldest given first (the last one given is listed first). */
  send(...messages: ScriptedMessage[]): void;
  /** Inserts a message `depth` places below the top (a late insert, or a server whose clock lags). */
  insertBelow(depth: number, message: ScriptedMessage): void;
  /** How many messages a page holds for the `limit` asked (a service may send fewer); all by default. */
  pageSize?: (limit: number) => number;
  /** Called with each request before it is answered (e.g. to send messages between pages). */
  onRequest?: (url: URL) => void;
}

/** A message created at `at` (ms), with `padding` characters of text to make it large. */
export function scripted(id: string, at: number, padding = 0, latestStatus = "success"): ScriptedMessage {
  return {
    id,
    createdAt: new Date(at).toISOString().replace("Z", "+00:00"),
    latestStatus,
    recipient: "4915112345678",
    messageAttempts: [],
    ...(padding > 0 ? { fullMessage: "x".repeat(padding) } : {}),
  };
}

/** The listing server with a live listing as its answer, closed when the test ends. */
export async function startLiveListing(): Promise<LiveListing> {
  // The server's own state object becomes the listing, so that what it counts stays current; requests
  // reach the answer only once it is.
  const server = await startListingServer((url) => {
    live.onRequest?.(url);
    const fault = live.faults.find((rule) => rule.times > 0 && rule.when(url));
    if (fault) {
      fault.times--;
      return fault.kind === "stall" ? STALL : new Status(503, { message: "try again" });
    }
    // As a strict service would: an empty cursor is a bad request.
    if (url.searchParams.get("before") === "" || url.searchParams.get("after") === "")
      return new Status(400, { message: "bad cursor" });
    return livePage(live, url);
  });
  const script: Omit<LiveListing, keyof ListingServer> = {
    rows: [],
    faults: [],
    emptyCursors: "",
    send: (...messages) => void live.rows.unshift(...messages.reverse()),
    insertBelow: (depth, message) => void live.rows.splice(depth, 0, message),
  };
  const live: LiveListing = Object.assign(server, script);
  return live;
}

/** The page a request asks for, from the listing as it is now. */
function livePage(listing: LiveListing, url: URL): Answer {
  const rows = listing.rows;
  const asked = Number(url.searchParams.get("limit") ?? "50");
  const limit = Math.max(1, Math.min(asked, listing.pageSize?.(asked) ?? asked));
  const after = url.searchParams.get("after");
  const before = url.searchParams.get("before");
  let start: number;
  let end: number;
  if (before !== null) {
    const at = rows.findIndex((row) => row.id === before);
    end = at < 0 ? 0 : at;
    start = Math.max(0, end - limit);
  } else {
    start = after === null ? 0 : rows.findIndex((row) => row.id === after) + 1;
    end = Math.min(rows.length, start + limit);
  }
  const data = rows.slice(start, end);
  const empty = data.length === 0;
  const cursors = empty
    ? listing.emptyCursors === "absent"
      ? {}
      : { startCursor: listing.emptyCursors, endCursor: listing.emptyCursors }
    : { startCursor: data[0]!.id, endCursor: data[data.length - 1]!.id };
  return {
    data,
    pageData: { hasNextPage: end < rows.length && !empty, hasPreviousPage: start > 0, ...cursors },
  };
}
