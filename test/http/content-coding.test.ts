// Content codings over loopback: what msgstat asks for, how each coding is undone, and the cap on
// what a body may decode to, against small servers that send exactly the bytes each case needs.
import { Readable } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished } from "vitest";
import { ResponseError } from "../../src/core/errors.js";
import type { ApiClient, ClientOptions } from "../../src/http/client.js";
import { codingsOf } from "../../src/http/content-coding.js";
import { readBody } from "../../src/http/json-body.js";
import { caught, testClient } from "../support/client.js";
import { serveHttp as serve } from "../support/http-servers.js";

function client(url: string, options: Partial<ClientOptions> = {}): ApiClient {
  const made = testClient(url, { retries: 2, random: () => 0, ...options });
  onTestFinished(() => made.close());
  return made;
}

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
      expect(list.sourceOf(0).text()).toBe('{"id":"a","n":9007199254740993,"fullMessage":"Grüße 🎉"}');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^GET ${server.url}/p -> 200, ${coding}: ${encoded.length} B on the wire, ${Buffer.byteLength(PAGE)} B decoded \\(\\d+ ms\\)$`,
        ),
      );
    },
  );

  it("asks for one object uncompressed, and still decodes one a server compresses anyway", async () => {
    const encoded = ENCODERS.gzip(Buffer.from(PAGE));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(encoded);
    });
    const body = await client(server.url).get(["m"], {}, { oneObject: true });
    expect(server.seen[0]!.headers["accept-encoding"]).toBe("identity");
    expect(body.bytes.toString("utf8")).toBe(PAGE);
  });

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
      `the response to GET ${server.url}/p is encoded as "zstd", which msgstat did not ask for and cannot decode (it decodes gzip, deflate, br)`,
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
        'is encoded as "compress", which msgstat did not ask for and cannot decode (it decodes gzip, deflate, br)',
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
