// A live listing the test scripts, for what the sandbox does not model: bursts between two polls, many
// messages sharing one createdAt, a message inserted below the newest one, empty pages whose cursors are
// "" or null, requests that get a 503 or are never answered. The listing is newest first, as the
// reference's example; cursors are the message ids (`after=`, `before=` as the reference describes).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

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

export interface LiveListing {
  url: string;
  /** Every request target received, in order. */
  requests: string[];
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

export async function startLiveListing(): Promise<LiveListing> {
  const listing: LiveListing = {
    url: "",
    requests: [],
    rows: [],
    faults: [],
    emptyCursors: "",
    send: (...messages) => listing.rows.unshift(...messages.reverse()),
    insertBelow: (depth, message) => listing.rows.splice(depth, 0, message),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    listing.requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://localhost");
    listing.onRequest?.(url);
    const fault = listing.faults.find((rule) => rule.times > 0 && rule.when(url));
    if (fault) {
      fault.times--;
      if (fault.kind === "stall") return;
      res.writeHead(503, { "Content-Type": "application/json" });
      res.end('{"message":"try again"}');
      return;
    }
    // As a strict service would: an empty cursor is a bad request.
    if (url.searchParams.get("before") === "" || url.searchParams.get("after") === "") {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end('{"message":"bad cursor"}');
      return;
    }
    const text = JSON.stringify(pageOf(listing, url));
    res.writeHead(200, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  listing.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return listing;
}

/** The page a request asks for, from the listing as it is now. */
function pageOf(listing: LiveListing, url: URL): unknown {
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
