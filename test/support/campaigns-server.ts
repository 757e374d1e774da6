// A small server of several campaigns, for the fan-out's cases the sandbox does not model: a campaign
// that is missing, one that fails part way, pages in the wrong order; and it counts requests in flight.
// Each campaign's messages are served in the order given, `limit` at a time, cursors naming positions.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface CampaignsServer {
  url: string;
  /** Every request target received, in order. */
  requests: string[];
  /** The most requests that were being answered at one moment. */
  maxInFlight: number;
  /** Stops it (done by itself when the test that started it ends; for a server of a whole file's tests). */
  close: () => Promise<void>;
}

export interface CampaignsServerOptions {
  /** A status to answer instead of a page: for the campaign's `page`-th request (0 the first), or for all. */
  fail?: (campaignId: string, page: number) => number | undefined;
  /** Hold each answer until this many requests are in flight, or `holdMs` went by (bounds show up at once). */
  holdUntil?: number;
  holdMs?: number;
  /** Started outside a test (in beforeAll): the caller closes it. */
  outsideTest?: boolean;
}

export async function startCampaignsServer(
  campaigns: Record<string, readonly Record<string, unknown>[]>,
  options: CampaignsServerOptions = {},
): Promise<CampaignsServer> {
  const state: CampaignsServer = { url: "", requests: [], maxInFlight: 0, close: async () => undefined };
  const pagesServed = new Map<string, number>();
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests.push(req.url ?? "");
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    const answer = () => {
      inFlight--;
      respond(new URL(req.url ?? "/", "http://localhost"), res);
    };
    if (options.holdUntil === undefined) return answer();
    waiting.push(answer);
    if (inFlight >= options.holdUntil) for (const next of waiting.splice(0)) next();
    else
      setTimeout(
        () => waiting.includes(answer) && waiting.splice(waiting.indexOf(answer), 1)[0]!(),
        options.holdMs ?? 20,
      );
  });
  function respond(url: URL, res: ServerResponse): void {
    const [, , campaignId] = url.pathname.split("/").map(decodeURIComponent);
    const messages = campaigns[campaignId ?? ""];
    const page = pagesServed.get(campaignId ?? "") ?? 0;
    pagesServed.set(campaignId ?? "", page + 1);
    const status = messages === undefined ? 404 : options.fail?.(campaignId!, page);
    if (status !== undefined) {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: status === 404 ? "campaign not found" : "broken" }));
      return;
    }
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const after = url.searchParams.get("after");
    const start = after === null ? 0 : Number(after.slice(1)) + 1;
    const end = Math.min(messages!.length, start + limit);
    const data = messages!.slice(start, end);
    const text = JSON.stringify({
      data,
      pageData: {
        hasNextPage: end < messages!.length,
        hasPreviousPage: start > 0,
        ...(data.length > 0 ? { startCursor: `p${start}`, endCursor: `p${end - 1}` } : {}),
      },
    });
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  }
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
