// The read-ahead of PageReader: the next page is on its way while the consumer works on the current one,
// and waits as its bytes until it is wanted. Real HTTP over loopback; the first test's server runs on a
// thread of its own, so that it sees a request while this thread is busy.
import { Worker } from "node:worker_threads";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { testClient } from "../support/client.js";
import { flushAtPageBoundaries } from "../../src/output/page-flush.js";
import type { Sink } from "../../src/output/sink.js";
import type { SourcedMessage } from "../../src/core/json-source.js";
import {
  PARSED_MESSAGES,
  SOURCED_MESSAGES,
  type MessageReading,
  type PageClient,
} from "../../src/service/endpoints.js";
import { PageReader } from "../../src/service/paging.js";
import { messageAt, startListingServer } from "../support/listing-server.js";
import { waitFor } from "../support/wait-for.js";

const NOW = Date.parse("2025-05-01T12:00:00.000Z");
const PAGES = 3;
const PER_PAGE = 2;

/** Page i of PAGES, PER_PAGE messages each, newest first; `after=c<i>` asks for page i + 1. */
function pageBody(i: number): string {
  const data = Array.from({ length: PER_PAGE }, (_, k) => messageAt(`m${i * PER_PAGE + k}`, NOW, i * PER_PAGE + k));
  return JSON.stringify({ data, pageData: { hasNextPage: i < PAGES - 1, endCursor: `c${i}` } });
}

const pageOf = (url: URL): number => {
  const after = url.searchParams.get("after");
  return after === null ? 0 : Number(after.slice(1)) + 1;
};

const allIds = Array.from({ length: PAGES * PER_PAGE }, (_, k) => `m${k}`);

function readerOf(client: PageClient, freeEachPage = false): PageReader {
  return new PageReader(
    client,
    { campaignId: "cmp" },
    { direction: "forward", pageSize: PER_PAGE, exact: false, remaining: () => Infinity, freeEachPage },
  );
}

/** The listing served over loopback, through a client that counts the bodies it has read whole. */
async function countedListing(): Promise<{ client: PageClient; bodies: () => number }> {
  const server = await startListingServer((url) => pageBody(pageOf(url)));
  const api = testClient(server.url);
  let bodies = 0;
  const client: PageClient = { get: (...args) => api.get(...args).then((body) => (bodies++, body)) };
  return { client, bodies: () => bodies };
}

// The listing server on a thread of its own: it counts the requests it received in `requests[0]` and
// wakes whoever waits on it.
const THREADED_SERVER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createServer } = require("node:http");
const { requests, pages } = workerData;
const server = createServer((request, response) => {
  Atomics.add(requests, 0, 1);
  Atomics.notify(requests, 0);
  const after = new URL(request.url, "http://localhost").searchParams.get("after");
  const body = pages[after === null ? 0 : Number(after.slice(1)) + 1];
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 0;
server.listen(0, "127.0.0.1", () => parentPort.postMessage("http://127.0.0.1:" + server.address().port));
`;

async function startThreadedServer(): Promise<{ url: string; requests: Int32Array }> {
  const requests = new Int32Array(new SharedArrayBuffer(4));
  const pages = Array.from({ length: PAGES }, (_, i) => pageBody(i));
  const worker = new Worker(THREADED_SERVER, { eval: true, workerData: { requests, pages } });
  onTestFinished(() => worker.terminate().then(() => undefined));
  const url = await new Promise<string>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return { url, requests };
}

describe("the read-ahead", () => {
  it("asks for the next page before handing out the current one: a consumer that never yields does not hold the request back", async () => {
    const server = await startThreadedServer();
    const ids: string[] = [];
    let waited: string | undefined;
    for await (const { messages } of readerOf(testClient(server.url)).pages(PARSED_MESSAGES)) {
      // This thread is blocked here, as by a renderer busy with the page and never giving Node a turn:
      // the server, on its own thread, sees the second request only if it was sent before the page
      // came out ("not-equal" when it already had, "ok" when it came during the wait).
      waited ??= Atomics.wait(server.requests, 0, 1, 10_000);
      ids.push(...messages.map((message) => message.id));
    }
    expect(waited).not.toBe("timed-out");
    expect(ids).toEqual(allIds);
    expect(Atomics.load(server.requests, 0)).toBe(PAGES);
  });

  it("holds the page read ahead as its bytes until it is wanted, then parses it", async () => {
    const { client, bodies } = await countedListing();
    let parsed = 0;
    const counting: MessageReading<CheckedMessage> = {
      ...PARSED_MESSAGES,
      fromParsed: (message) => (parsed++, message),
      fromList: (message) => (parsed++, message),
    };
    const parsedAtEachPage: number[] = [];
    const ids: string[] = [];
    for await (const { messages } of readerOf(client).pages(counting)) {
      const page = ids.length / PER_PAGE;
      if (page < PAGES - 1) await waitFor(() => bodies() === page + 2, `the body of page ${page + 2}`);
      parsedAtEachPage.push(parsed);
      ids.push(...messages.map((message) => message.id));
    }
    // Each time, the next page's body had arrived; only the pages handed out were parsed.
    expect(parsedAtEachPage).toEqual([2, 4, 6]);
    expect(ids).toEqual(allIds);
  });

  it("hands out a page read ahead that has arrived within the page-boundary check, so the output is not flushed there", async () => {
    const { client, bodies } = await countedListing();
    let flushes = 0;
    const sink: Sink = {
      write: () => undefined,
      writeBytes: () => undefined,
      flush: () => (flushes++, Promise.resolve()),
      finish: () => Promise.resolve(),
      discard: () => Promise.resolve(),
      fate: "the output is incomplete",
      untouchedByFailure: false,
    };
    const reader = readerOf(client);
    async function* chunks() {
      for await (const { messages } of reader.pages(PARSED_MESSAGES)) yield messages;
    }
    let pages = 0;
    for await (const chunk of flushAtPageBoundaries(chunks(), sink)) {
      expect(chunk).toHaveLength(PER_PAGE);
      pages++;
      if (pages < PAGES) await waitFor(() => bodies() === pages + 1, `the body of page ${pages + 1}`);
    }
    expect(pages).toBe(PAGES);
    // Each time the next page was there: a flush (a partial write to the pipe) would have been wasted.
    expect(flushes).toBe(0);
  });
});

const idIn = (item: SourcedMessage): string => (JSON.parse(item.source.text()) as { id: string }).id;

describe("freeing a page's bytes (freeEachPage)", () => {
  /** Each page's messages with their text, and whether each page's text was still there at each step. */
  async function readWithText(freeEachPage: boolean) {
    const { client } = await countedListing();
    const pages: SourcedMessage[][] = [];
    const textWhileHandedOut: string[] = [];
    for await (const { messages } of readerOf(client, freeEachPage).pages(SOURCED_MESSAGES)) {
      textWhileHandedOut.push(...messages.map((item) => idIn(item)));
      pages.push(messages);
    }
    return { pages, textWhileHandedOut };
  }

  it("frees a page's bytes once the next page is asked for: its messages' text is there while they are handed out", async () => {
    const { pages, textWhileHandedOut } = await readWithText(true);
    expect(textWhileHandedOut).toEqual(allIds);
    // Every page was freed when the consumer asked for the one after it (the last when it asked past it).
    for (const page of pages) for (const item of page) expect(item.source.bytes.length).toBe(0);
    // Reading a freed message's text is a loud error, never an empty message.
    expect(() => pages[0]![0]!.source.text()).toThrow(/freed before it was written/);
  });

  it("leaves them to the collector without it: a consumer may keep the messages", async () => {
    const { pages, textWhileHandedOut } = await readWithText(false);
    expect(textWhileHandedOut).toEqual(allIds);
    expect(pages.flat().map((item) => idIn(item))).toEqual(allIds);
  });
});
