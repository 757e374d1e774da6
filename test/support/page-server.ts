// A small listing server for hostile cases the sandbox does not model (pages in the wrong order, the
// same ids page after page, empty pages that say more follow, pages far larger than asked for). Pages
// are chained by cursors of its own: page i is served for `after=c<i>` (page 0 for no cursor).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface PageServer {
  url: string;
  /** Every request target received, in order. */
  requests: string[];
}

/** One page's body: an object (sent as JSON) or text sent as it is. */
export type PageBody = unknown;

/** Serves `answer(request URL)` as JSON to every GET; closed when the running test ends. */
export async function startPageServer(answer: (url: URL) => PageBody): Promise<PageServer> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? "");
    const body = answer(new URL(req.url ?? "/", "http://localhost"));
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(200, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  });
  // As the sandbox: idle connections are the client's to close (see test/sandbox/server/connections.test.ts).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A listing of these pages, in this order, chained by cursors c1, c2, ...; the last says no more follow. */
export function chainedPages(pages: readonly unknown[][]): (url: URL) => PageBody {
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
export function cursorPages(texts: readonly string[]): (url: URL) => PageBody {
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
