// What crosses the wire on a real network: content codings, charsets, interim 1xx responses, DNS.
// Over loopback, against small servers that send exactly the bytes each case needs.
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import type { AddressInfo, LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ResponseError } from "../../src/core/errors.js";
import { jsonTextOf } from "../../src/core/json-text.js";
import { ApiClient, type ClientOptions } from "../../src/http/client.js";
import { codingsOf } from "../../src/http/content-coding.js";
import { createTransport } from "../../src/http/transport.js";
import { networkFailure, RequestFailedError } from "../../src/http/errors.js";
import { inUtf8, readBody } from "../../src/http/json-body.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function serve(
  handler: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ url: request.url!, headers: request.headers });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A server that writes raw bytes in answer to each request, for what node:http will not send. */
/** A server that answers each request with these bytes, and with `close`, then closes the connection. */
async function serveRaw(
  answer: () => string,
  { close = false } = {},
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = net.createServer((socket) => {
    socket.on("data", () => {
      requests++;
      if (close) socket.end(answer());
      else socket.write(answer());
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

function client(url: string, options: Partial<ClientOptions> = {}): ApiClient {
  const made = new ApiClient({
    baseUrl: new URL(url),
    headers: [],
    timeoutMs: 10_000,
    retries: 2,
    retryBaseMs: 1,
    warn: () => undefined,
    random: () => 0,
    ...options,
  });
  closers.push(() => made.close());
  return made;
}

const caught = async (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error("resolved");
    },
    (error: Error) => error,
  );

// Numbers JSON.parse cannot give back and text beyond ASCII: decoding must change neither.
const PAGE =
  '{"data":[{"id":"a","n":9007199254740993,"fullMessage":"Grüße 🎉"},{"id":"b","price":1.10}],"pageData":{"hasNextPage":false}}';
const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

describe("content codings", () => {
  it.each(Object.keys(ENCODERS) as Array<keyof typeof ENCODERS>)(
    "asks for gzip, deflate and br, and decodes a %s body exactly",
    async (coding) => {
      const encoded = ENCODERS[coding](Buffer.from(PAGE));
      const server = await serve((_request, response) => {
        response.writeHead(200, {
          "content-type": "application/json",
          "content-encoding": coding,
          "content-length": encoded.length,
        });
        response.end(encoded);
      });
      const lines: string[] = [];
      const body = await client(server.url, { log: (line) => lines.push(line) }).get(["p"]);
      expect(server.seen[0]!.headers["accept-encoding"]).toBe("gzip, deflate, br");
      expect(body.bytes.toString("utf8")).toBe(PAGE);
      const list = body.listAt("data")!;
      expect(jsonTextOf(list.parse(0, true))).toBe('{"id":"a","n":9007199254740993,"fullMessage":"Grüße 🎉"}');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^GET ${server.url}/p -> 200, ${coding}: ${encoded.length} B on the wire, ${Buffer.byteLength(PAGE)} B decoded \\(\\d+ ms\\)$`,
        ),
      );
    },
  );

  it("an identity body is read as before, its size in the verbose line", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(PAGE) });
      response.end(PAGE);
    });
    const lines: string[] = [];
    const body = await client(server.url, { log: (line) => lines.push(line) }).get(["p"]);
    expect(body.bytes.toString("utf8")).toBe(PAGE);
    expect(lines[0]).toMatch(new RegExp(`^GET ${server.url}/p -> 200, ${Buffer.byteLength(PAGE)} B \\(\\d+ ms\\)$`));
  });

  it("two codings stacked (gzip, then br) are undone in reverse order", async () => {
    const encoded = brotliCompressSync(gzipSync(Buffer.from(PAGE)));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip, br" });
      response.end(encoded);
    });
    expect((await client(server.url).get(["p"])).bytes.toString("utf8")).toBe(PAGE);
  });

  it("a coding msgstat did not ask for is one clear line naming it, not 'not valid JSON', and is not retried", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "zstd" });
      response.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]));
    });
    const error = await caught(client(server.url).get(["p"]));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toBe(
      `the response to GET ${server.url}/p is encoded as "zstd", which msgstat did not ask for and cannot decode (it asks for gzip, deflate, br)`,
    );
    expect(server.seen).toHaveLength(1);
  });

  it("bytes that are not what their coding says are a clear error, not retried", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(PAGE); // not gzip at all
    });
    const error = await caught(client(server.url).get(["p"]));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toBe(`the response to GET ${server.url}/p is not valid gzip (incorrect header check)`);
    expect(server.seen).toHaveLength(1);
  });

  it("an error status's gzip body is decoded for the server's own words", async () => {
    const server = await serve((_request, response) => {
      const encoded = gzipSync('{"message":"campaign is archived"}');
      response.writeHead(410, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": encoded.length,
      });
      response.end(encoded);
    });
    const error = await caught(client(server.url).get(["p"]));
    expect(error.message).toBe(`GET ${server.url}/p answered HTTP 410: campaign is archived`);
  });

  it("Content-Encoding names are read as RFC 9110 says: case-insensitive, identity is none, a list in order applied", () => {
    expect(codingsOf(undefined)).toEqual({ codings: [] });
    expect(codingsOf("identity")).toEqual({ codings: [] });
    expect(codingsOf("GZIP")).toEqual({ codings: ["gzip"] });
    expect(codingsOf(["deflate", "br"])).toEqual({ codings: ["deflate", "br"] });
    expect(codingsOf("gzip, gzip, gzip")).toEqual({
      refused: "is encoded 3 times over (gzip, gzip, gzip); msgstat undoes at most 2",
    });
    expect(codingsOf("compress")).toEqual({
      refused:
        'is encoded as "compress", which msgstat did not ask for and cannot decode (it asks for gzip, deflate, br)',
    });
  });
});

describe("a decompression bomb", () => {
  // Gzip members may follow one another; each of these decodes to 1 MiB of zeros from about 1 KB.
  const member = gzipSync(Buffer.alloc(1024 * 1024));

  it("stops at the cap on decoded bytes, having taken only the first few pieces of the body", async () => {
    let taken = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 1000; i++) {
          taken++;
          yield member;
        }
      })(),
    );
    const read = await readBody(source, { "content-encoding": "gzip" }, 4 * 1024 * 1024);
    expect(read).toEqual({ tooLarge: true, coded: true });
    // 1000 pieces would be 1000 MiB decoded; the reader stops a few past the fourth (read-ahead).
    expect(taken).toBeLessThan(40);
    expect(source.destroyed).toBe(true);
  });

  it("over HTTP with the real 64 MiB cap: a clear error, not retried, long before the gigabyte", async () => {
    let sent = 0;
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      const pump = () => {
        while (sent < 1024) {
          sent++;
          if (!response.write(member)) return void response.once("drain", pump);
        }
        response.end();
      };
      response.on("error", () => undefined);
      pump();
    });
    const error = await caught(client(server.url).get(["bomb"]));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toBe(
      `the response to GET ${server.url}/bomb is larger than 64 MiB once decoded, more than any page of this API`,
    );
    expect(server.seen).toHaveLength(1);
  });
});

describe("charsets", () => {
  it("a Latin-1 body is decoded as Latin-1: café stays café", async () => {
    const body = Buffer.from(
      '{"data":[{"id":"m1","fullMessage":"café à côté"}],"pageData":{"hasNextPage":false}}',
      "latin1",
    );
    const server = await serve((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/json; charset=ISO-8859-1",
        "content-length": body.length,
      });
      response.end(body);
    });
    const value = (await client(server.url).get(["p"])).value() as { data: Array<{ fullMessage: string }> };
    expect(value.data[0]!.fullMessage).toBe("café à côté");
  });

  it("a charset TextDecoder does not know is refused with its name, never read as UTF-8", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": 'application/json; charset="x-klingon"' });
      response.end('{"data":[],"pageData":{"hasNextPage":false}}');
    });
    const error = await caught(client(server.url).get(["p"]));
    expect(error.message).toBe(
      `the response to GET ${server.url}/p is in charset "x-klingon", which msgstat cannot decode`,
    );
  });

  it("UTF-8 under any of its names, and UTF-16, come out as UTF-8", () => {
    const text = '{"a":"Grüße"}';
    for (const type of [
      "application/json",
      "application/json;charset=utf-8",
      "application/json; charset=UTF8",
      "application/json; charset=unicode-1-1-utf-8",
    ]) {
      expect(inUtf8(Buffer.from(text), type)).toEqual({ bytes: Buffer.from(text) });
    }
    expect(inUtf8(Buffer.from(text, "utf16le"), "application/json; charset=utf-16le")).toEqual({
      bytes: Buffer.from(text),
    });
    expect(inUtf8(Buffer.from([0x7b, 0xd8, 0x00]), "application/json; charset=utf-16le")).toEqual({
      unreadable: "is not valid utf-16le, the charset its Content-Type names",
    });
  });
});

describe("interim 1xx responses", () => {
  const final = (body: string) =>
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const body = '{"data":[],"pageData":{"hasNextPage":false}}';

  it("102 and 103 before the final response are skipped", async () => {
    const server = await serveRaw(
      () => `HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${final(body)}`,
    );
    expect((await client(server.url).get(["p"])).bytes.toString()).toBe(body);
  });

  it("an unasked-for 100 Continue is skipped as well", async () => {
    const server = await serveRaw(() => `HTTP/1.1 100 Continue\r\n\r\n${final(body)}`);
    expect((await client(server.url).get(["p"])).bytes.toString()).toBe(body);
    expect(server.requests()).toBe(1);
  });
});

describe("a response that ends before it is whole, or is not HTTP", () => {
  // Node's client calls each of the first two ECONNRESET; they are said as what they are, and retried.
  it.each<[string, () => string]>([
    [
      "a body cut short",
      () => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"data":[`,
    ],
    ["no answer at all", () => ""],
  ])("%s: the connection closed before the response was complete, retried", async (_name, answer) => {
    const server = await serveRaw(answer, { close: true });
    const error = await caught(client(server.url, { retries: 1 }).get(["p"]));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(
      `GET ${server.url}/p failed after 2 attempts: connection closed before the response was complete (ECONNRESET)`,
    );
    expect(server.requests()).toBe(2);
  });

  it("a reply that is not HTTP says so, and is not retried", async () => {
    const server = await serveRaw(() => "SSH-2.0-OpenSSH_9.2\r\n\r\n");
    const error = await caught(client(server.url).get(["p"]));
    expect(error.message).toBe(
      `GET ${server.url}/p failed after 1 attempt: the reply is not HTTP: it does not begin with HTTP/1.1 (HPE_INVALID_CONSTANT)`,
    );
    expect(server.requests()).toBe(1);
  });
});

describe("connecting", () => {
  it(
    "a host that never completes the connection is given up on after the connect timeout, and said to be unreachable",
    { timeout: 60_000 },
    async () => {
      const { port, stop } = await unacceptingListener();
      try {
        const transport = createTransport({ timeoutMs: 500 });
        const error = await caught(
          transport.request({
            origin: `http://127.0.0.1:${port}`,
            path: "/p",
            headers: {},
            signal: new AbortController().signal,
          }),
        );
        expect((error as NodeJS.ErrnoException).code).toBe("ETIMEDOUT");
        expect(networkFailure(error)).toEqual({
          kind: "network",
          code: "ETIMEDOUT",
          text: "could not connect within 0.5 s (ETIMEDOUT)",
        });
        transport.close();
      } finally {
        stop();
      }
    },
  );
});

/**
 * A port whose accept queue is full: a process that listens with a backlog of one and never accepts
 * (its event loop is held), and connections that fill the queue. A further connection attempt gets no
 * answer to its SYN, as from a host behind a firewall that drops it.
 */
async function unacceptingListener(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      'require("net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 }, function () { process.stdout.write(String(this.address().port) + "\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000); })',
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(Number(String(data).trim())));
    child.once("exit", (code) => reject(new Error(`the listener exited (${code})`)));
  });
  const fillers: net.Socket[] = [];
  for (let i = 0; i < 4; i++) fillers.push(net.connect(port, "127.0.0.1").on("error", () => undefined));
  // The queue holds what the kernel accepted for the process; wait until the fillers have had their turn.
  await Promise.all(fillers.slice(0, 2).map((socket) => new Promise((resolve) => socket.once("connect", resolve))));
  return {
    port,
    stop: () => {
      for (const socket of fillers) socket.destroy();
      child.kill("SIGKILL");
    },
  };
}

describe("DNS", () => {
  // Name resolution is the transport's lookup, injected here: no test depends on how this machine's
  // resolver answers. RFC 6761: names under .invalid never resolve.
  const host = "msgstat-test-host.invalid";
  const asked: string[] = [];
  const failingWith =
    (code: string): LookupFunction =>
    (hostname, _options, callback) => {
      asked.push(hostname);
      callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, syscall: "getaddrinfo" }), "", 4);
    };
  afterEach(() => void asked.splice(0));

  it("a host DNS does not know is not retried", async () => {
    const error = await caught(
      client(`http://${host}:9`, { retries: 1, network: { lookup: failingWith("ENOTFOUND") } }).get(["p"]),
    );
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(`GET http://${host}:9/p failed after 1 attempt: host not found (DNS) (ENOTFOUND)`);
    expect(asked).toEqual([host]);
  });

  it("a resolver that cannot answer (EAI_AGAIN) is a temporary failure, retried", async () => {
    const error = await caught(
      client(`http://${host}:9`, { retries: 1, network: { lookup: failingWith("EAI_AGAIN") } }).get(["p"]),
    );
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toBe(`GET http://${host}:9/p failed after 2 attempts: DNS lookup failed (EAI_AGAIN)`);
    expect(asked).toEqual([host, host]);
  });

  it("the connection goes to the address the lookup gives, and the Host header keeps the name", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(PAGE);
    });
    const port = new URL(server.url).port;
    const lookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    };
    const body = await client(`http://api.msgstat.test:${port}`, { network: { lookup } }).get(["p"]);
    expect(body.bytes.toString("utf8")).toBe(PAGE);
    expect(asked).toEqual(["api.msgstat.test"]);
    expect(server.seen.map(({ headers }) => headers.host)).toEqual([`api.msgstat.test:${port}`]);
  });
});
