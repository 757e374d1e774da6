// Bodies: the size cap as bytes arrive, the JSON checks, and the per-element reading of a page that
// keeps each message's text exactly as sent.
import { once } from "node:events";
import { Readable } from "node:stream";
import { describe, expect, it, onTestFinished } from "vitest";
import { JsonSource, needsOwnText } from "../../src/core/json-source.js";
import { ResponseError } from "../../src/core/errors.js";
import type { ApiClient, ClientOptions } from "../../src/http/client.js";
import { inUtf8, JsonBody, jsonBodyProblem, readCapped, releaseBody } from "../../src/http/json-body.js";
import { arraySpans } from "../../src/http/json-spans.js";
import { decodePage, PARSED_MESSAGES, SOURCED_MESSAGES } from "../../src/service/endpoints.js";
import { caught, testClient } from "../support/client.js";
import { serveHttp as serve } from "../support/http-servers.js";

const TARGET = { method: "GET", origin: "http://127.0.0.1:9", path: "/campaigns/c/messages?limit=2" } as const;

/** A body stream that counts how many chunks were taken from it. */
function body(chunks: Buffer[]) {
  let taken = 0;
  const stream = Readable.from(
    (function* () {
      for (const chunk of chunks) {
        taken++;
        yield chunk;
      }
    })(),
  );
  return { stream, taken: () => taken };
}

describe("the body cap", () => {
  const kib = (n: number) => Buffer.alloc(1024 * n, 0x20);

  it("a declared Content-Length over the cap is refused before any byte is read", async () => {
    const { stream, taken } = body([kib(1), kib(1)]);
    expect(await readCapped(stream, String(3 * 1024), 2 * 1024)).toEqual({ tooLarge: true });
    expect(taken()).toBe(0);
    expect(stream.destroyed).toBe(true);
  });

  it("without one, refused as soon as the bytes pass the cap", async () => {
    const { stream, taken } = body(Array.from({ length: 10 }, () => kib(1)));
    expect(await readCapped(stream, undefined, 2 * 1024 + 10)).toEqual({ tooLarge: true });
    // The third passes the cap; a flowing stream may have taken one more ahead of it.
    expect(taken()).toBeGreaterThanOrEqual(3);
    expect(taken()).toBeLessThanOrEqual(4);
    expect(stream.destroyed).toBe(true);
  });

  it("a body that sends more than it declared is refused too", async () => {
    const { stream } = body([kib(1), kib(1)]);
    expect(await readCapped(stream, "1024", 1024 * 1024)).toEqual({ tooLarge: true });
  });

  it("up to the cap, every byte, in order", async () => {
    const parts = [Buffer.from("ab"), Buffer.from("cd"), Buffer.from("e")];
    expect(await readCapped(body(parts).stream, "5", 5)).toEqual({ bytes: Buffer.from("abcde") });
    expect(await readCapped(body(parts).stream, undefined, 5)).toEqual({ bytes: Buffer.from("abcde") });
  });
});

describe("reading a body to its end", () => {
  it("an error part way is the read's error", async () => {
    const stream = new Readable({ read() {} });
    stream.push("ab");
    const reading = readCapped(stream, undefined, 1024);
    stream.destroy(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    await expect(reading).rejects.toMatchObject({ message: "aborted", code: "ECONNRESET" });
  });

  it("a body closed before its end without an error is a premature close", async () => {
    const stream = new Readable({ read() {} });
    stream.push("ab");
    const reading = readCapped(stream, undefined, 1024);
    stream.destroy();
    await expect(reading).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
  });

  it("a body that failed before it was read fails the read, and one already ended reads as nothing more", async () => {
    // Destroyed in this tick: its 'error' event comes after readCapped has returned.
    const failed = new Readable({ read() {} });
    failed.destroy(new Error("reset"));
    await expect(readCapped(failed, undefined, 1024)).rejects.toThrow("reset");
    const ended = Readable.from([]);
    ended.resume();
    await once(ended, "end");
    expect(await readCapped(ended, "0", 1024)).toEqual({ bytes: Buffer.alloc(0) });
  });
});

describe("what a 2xx body must be", () => {
  it.each([
    ["application/json", "{}", undefined],
    ["application/json; charset=utf-8", "{}", undefined],
    ["application/problem+json", "{}", undefined],
    ["", "{}", undefined],
    ["text/html; charset=utf-8", "<html>", "is text/html, not JSON"],
    ["application/json", "", "has an empty body, not JSON"],
  ])("%j with %j", (contentType, text, problem) => {
    expect(jsonBodyProblem(contentType, Buffer.from(text))).toBe(problem);
  });

  it("JSON that does not parse names the request and says it may be cut short", () => {
    const error = (() => {
      try {
        new JsonBody(Buffer.from('{"data":[{"id":"a"'), TARGET).value();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as Error).message).toMatch(
      /^the response to GET http:\/\/127\.0\.0\.1:9\/campaigns\/c\/messages\?limit=2 is not valid JSON \(.+\); it may have been cut short$/,
    );
  });
});

// A small seeded generator of JSON values: nothing here depends on chance between runs.
function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const strings = [
    "",
    "a",
    'quo"te',
    "back\\slash",
    "brace } and ] bracket [ {",
    '\\"',
    "é",
    "😀",
    "\u2028",
    "line\nbreak",
    "tab\t",
    "\u001b[31m",
  ];
  const numbers = ["0", "-1", "9007199254740993", "1e400", "123456789012345678901234567890", "-0.000001e-7", "3.14"];
  const value = (depth: number): string => {
    const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
    switch (pick) {
      case 0:
        return JSON.stringify(strings[Math.floor(next() * strings.length)]);
      case 1:
        return numbers[Math.floor(next() * numbers.length)]!;
      case 2:
        return ["true", "false", "null"][Math.floor(next() * 3)]!;
      case 3:
        return JSON.stringify(strings[Math.floor(next() * strings.length)]);
      case 4:
        return `[${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(",")}]`;
      default:
        return `{${Array.from({ length: Math.floor(next() * 4) }, (_, i) => `${JSON.stringify(`k${i}${strings[Math.floor(next() * strings.length)]}`)}:${value(depth + 1)}`).join(",")}}`;
    }
  };
  const message = (i: number) => `{"id":"m${i}","x":${value(1)},"y":${value(1)}}`;
  const space = () => [" ", "\n", "\r\n", "\t", "", "  "][Math.floor(next() * 6)]!;
  return { message, space };
}

describe("a page read element by element", () => {
  it("gives exactly what JSON.parse gives, each element's text as sent, for 300 generated pages", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { message, space } = generator(seed);
      const messages = Array.from({ length: seed % 7 }, (_, i) => message(i));
      const text = `${space()}{${space()}"before":${messages[0] ?? "1"},${space()}"data"${space()}:${space()}[${space()}${messages.join(`${space()},${space()}`)}${space()}]${space()},"pageData":{"hasNextPage":false}}${space()}`;
      const list = new JsonBody(Buffer.from(text), TARGET).listAt("data");
      expect(list, text).toBeDefined();
      const whole = JSON.parse(text) as { data: unknown[] };
      expect(list!.count).toBe(whole.data.length);
      expect(list!.rest).toEqual({ ...whole, data: [] });
      for (let i = 0; i < list!.count; i++) {
        expect(list!.parse(i)).toEqual(whole.data[i]);
        expect(list!.sourceOf(i).text()).toBe(messages[i]);
        expect(list!.sourceOf(i).oneLine).toBe(!/[\r\n]/.test(messages[i]!));
      }
      // From the end (a backward walk through a page read in parts): the same.
      const fromEnd = new JsonBody(Buffer.from(text), TARGET).listAt("data")!;
      for (let i = fromEnd.count - 1; i >= 0; i--) {
        expect(fromEnd.parse(i)).toEqual(whole.data[i]);
        expect(fromEnd.sourceOf(i).text()).toBe(messages[i]);
        expect(fromEnd.sourceOf(i).oneLine).toBe(!/[\r\n]/.test(messages[i]!));
      }
    }
  });

  it("a listing page read with its texts: every message comes with where its text lies, for the same 300 pages", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { message, space } = generator(seed);
      const messages = Array.from({ length: 1 + (seed % 5) }, (_, i) => message(i));
      const text = `{"data":${space()}[${messages.join(`,${space()}`)}],"pageData":{"hasNextPage":false}}`;
      const [part, ...more] = [...decodePage(new JsonBody(Buffer.from(text), TARGET), SOURCED_MESSAGES).parts()];
      expect(more).toEqual([]);
      expect(part!.data.map((item) => item.message)).toEqual((JSON.parse(text) as { data: unknown[] }).data);
      expect(part!.data.map((item) => item.source.text())).toEqual(messages);
      // Line breaks between elements are not in any element's text: each is one line as it is.
      expect(part!.data.map((item) => item.source.oneLine)).toEqual(messages.map((message) => !/[\r\n]/.test(message)));
    }
  });

  it("which numbers need the text: all but plain safe integers", () => {
    for (const n of [0, 1, -1, 42, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])
      expect(needsOwnText({ a: [{ n }] })).toBe(false);
    for (const n of [0.5, -0, 1e300, Number.MAX_SAFE_INTEGER + 1, Infinity, -Infinity])
      expect(needsOwnText({ a: [{ n }] })).toBe(true);
    expect(needsOwnText({ id: "9007199254740993", s: "1e400" })).toBe(false);
  });

  it("texts come only when asked for; a message read whole comes with its text, without the spaces around it", () => {
    const text = '{"data":[{"id":"a","n":1e400}],"pageData":{"hasNextPage":false}}';
    const [plain] = [...decodePage(new JsonBody(Buffer.from(text), TARGET), PARSED_MESSAGES).parts()];
    // As parsed: the message itself, nothing beside it (its number already a double).
    expect(plain!.data).toEqual([{ id: "a", n: Infinity }]);
    expect(Object.getOwnPropertySymbols(plain!.data[0])).toEqual([]);
    const [sourced] = [...decodePage(new JsonBody(Buffer.from(text), TARGET), SOURCED_MESSAGES).parts()];
    expect(sourced!.data[0]!.source.text()).toBe('{"id":"a","n":1e400}');
    expect(Object.getOwnPropertySymbols(sourced!.data[0]!.message)).toEqual([]);
    const whole = new JsonBody(Buffer.from(' {"id":"m", "n": 1}\n'), TARGET).sourcedValue();
    expect(whole.value).toEqual({ id: "m", n: 1 });
    expect(whole.source.text()).toBe('{"id":"m", "n": 1}');
    expect(whole.source.oneLine).toBe(true);
  });

  it("a message whose bytes the scan cannot tell apart comes with the text JSON.stringify writes", () => {
    const source = JsonSource.written({ id: "a", n: 1, s: "\u2028" });
    expect(source.text()).toBe('{"id":"a","n":1,"s":"\u2028"}');
    expect(source.oneLine).toBe(true);
  });

  it("bytes that are not valid UTF-8 are never one line as they are: their text is decoded, as JSON.parse saw it", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"data":[{"id":"a","s":"'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}],"pageData":{"hasNextPage":false}}'),
    ]);
    const [part] = [...decodePage(new JsonBody(bytes, TARGET), SOURCED_MESSAGES).parts()];
    const { message, source } = part!.data[0]!;
    expect(source.oneLine).toBe(false);
    expect(source.text()).toBe('{"id":"a","s":"\ufffd\ufffd"}');
    expect(JSON.parse(source.text())).toEqual(message);
  });

  it("numbers keep their digits: the text, not a double", () => {
    const text =
      '{"data":[{"id":"a","n":9007199254740993,"big":1e400,"long":123456789012345678901234567890}],"pageData":{"hasNextPage":false}}';
    const list = new JsonBody(Buffer.from(text), TARGET).listAt("data")!;
    const element = list.parse(0);
    expect(list.sourceOf(0).text()).toBe(
      '{"id":"a","n":9007199254740993,"big":1e400,"long":123456789012345678901234567890}',
    );
    expect((element as { n: number }).n).toBe(9007199254740992); // what JSON.parse makes of it
  });

  it("the last of two data keys wins, as with JSON.parse, and an escaped spelling is the same key", () => {
    const twice = '{"data":[{"id":"first"}],"d\\u0061ta":[{"id":"second"}],"pageData":{"hasNextPage":false}}';
    const list = new JsonBody(Buffer.from(twice), TARGET).listAt("data")!;
    expect(list.count).toBe(1);
    expect(list.parse(0)).toEqual({ id: "second" });
    expect(arraySpans(Buffer.from('{"data":[1],"data":{}}'), "data")).toBeUndefined();
  });

  it.each([
    ["an array at the top", "[1,2]"],
    ["no data key", '{"items":[]}'],
    ["data not an array", '{"data":{"id":"a"}}'],
    ["cut short in a string", '{"data":[{"id":"a'],
    ["cut short after an element", '{"data":[{"id":"a"}'],
    ["two elements without a comma", '{"data":[{"id":"a"} {"id":"b"}]}'],
    ["text after the object", '{"data":[]} x'],
  ])("%s: not read element by element (the whole parse then says what is wrong)", (_name, text) => {
    expect(new JsonBody(Buffer.from(text), TARGET).listAt("data")).toBeUndefined();
  });

  it("an element that is not JSON is a clear error when it is parsed (not 'cut short': the body went on)", () => {
    const list = new JsonBody(Buffer.from('{"data":[{"id":"a"},{"id":tru}],"pageData":{}}'), TARGET).listAt("data")!;
    expect(list.parse(0)).toEqual({ id: "a" });
    expect(() => list.parse(1)).toThrow(/^the response to GET .* is not valid JSON \(Unexpected token '}', [^)]+\)$/);
  });

  it.each([
    ["an unterminated string", '{"data":[{"id":"a', true],
    ["an object without its end", '{"data":[],"pageData":{"hasNextPage":false', true],
    ["an array without its end", '{"data":[1,', true],
    ["a missing end, then spaces", '{"a":1\n  ', true],
    ["a bad token in the middle", '{"data":[tru, 1]}', false],
    ["text after the value", '{"data":[]} x', false],
    ["a comma too many", '{"data":[1,]}', false],
  ])("%s: 'cut short' only when the text ended early", (_name, text, cut) => {
    expect(() => new JsonBody(Buffer.from(text), TARGET).value()).toThrow(
      cut ? /; it may have been cut short$/ : /\)$/,
    );
  });

  it("inUtf8 drops a leading UTF-8 byte-order mark, as RFC 8259 allows, and keeps one elsewhere", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(inUtf8(Buffer.concat([bom, Buffer.from("{}")]), "application/json")).toEqual({ bytes: Buffer.from("{}") });
    expect(inUtf8(Buffer.concat([bom, Buffer.from("{}")]), "application/json; charset=UTF-8")).toEqual({
      bytes: Buffer.from("{}"),
    });
    const inside = Buffer.concat([Buffer.from('{"a":"'), bom, Buffer.from('"}')]);
    expect(inUtf8(inside, "application/json")).toEqual({ bytes: inside });
  });

  it("JSON around the array that is not valid leaves it to the whole parse", () => {
    expect(new JsonBody(Buffer.from('{"data":[],"pageData":{,}}'), TARGET).listAt("data")).toBeUndefined();
    expect(new JsonBody(Buffer.from('{"data":[],}'), TARGET).listAt("data")).toBeUndefined();
  });
});

describe("releaseBody: a page's memory freed once its messages are parsed", () => {
  const page = (ids: string[]) =>
    Buffer.from(JSON.stringify({ data: ids.map((id) => ({ id })), pageData: { hasNextPage: false } }));

  it("a body read into a buffer of its own is emptied, whether it came with a length or in pieces", async () => {
    const bytes = page(["a", "b", "c"]);
    const withLength = await readCapped(body([bytes]).stream, String(bytes.length), 1 << 20);
    const inPieces = await readCapped(body([bytes.subarray(0, 10), bytes.subarray(10)]).stream, undefined, 1 << 20);
    for (const read of [withLength, inPieces]) {
      if (!("bytes" in read)) throw new Error("not read");
      const json = new JsonBody(read.bytes, TARGET);
      expect(json.value()).toEqual(JSON.parse(bytes.toString()));
      releaseBody(json);
      expect(json.bytes.length).toBe(0);
      releaseBody(json); // twice is harmless
    }
  });

  it("never touches a buffer it did not allocate: one shared with Node's pool, or the single chunk as it came", async () => {
    const neighbour = Buffer.from("kept");
    const pooled = Buffer.from(page(["a"]).toString());
    const json = new JsonBody(pooled, TARGET);
    releaseBody(json);
    expect(json.bytes.toString()).toBe(page(["a"]).toString());
    expect(neighbour.toString()).toBe("kept");
    const single = await readCapped(body([page(["b"])]).stream, undefined, 1 << 20);
    if (!("bytes" in single)) throw new Error("not read");
    releaseBody(new JsonBody(single.bytes, TARGET));
    expect(JSON.parse(single.bytes.toString())).toEqual({ data: [{ id: "b" }], pageData: { hasNextPage: false } });
  });

  it("decodePage frees a page parsed for its values, in parts or whole, and keeps one whose messages keep their text", async () => {
    const bytes = page(["a", "b", "c"]);
    const own = async () => {
      const read = await readCapped(body([bytes]).stream, String(bytes.length), 1 << 20);
      if (!("bytes" in read)) throw new Error("not read");
      return new JsonBody(read.bytes, TARGET);
    };
    const whole = await own();
    expect([...decodePage(whole, PARSED_MESSAGES).parts()].flatMap((part) => part.data.map((m) => m.id))).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(whole.bytes.length).toBe(0);
    const inParts = await own();
    const parts = [...decodePage(inParts, PARSED_MESSAGES, { fromBytes: 0, messages: 2, bytes: 1 << 20 }).parts()];
    expect(parts.map((part) => part.data.map((m) => m.id))).toEqual([["a", "b"], ["c"]]);
    expect(inParts.bytes.length).toBe(0);
    const sourced = await own();
    const messages = [...decodePage(sourced, SOURCED_MESSAGES).parts()].flatMap((part) => part.data);
    expect(sourced.bytes.length).toBe(bytes.length);
    expect(messages.map((m) => m.source.text())).toEqual(['{"id":"a"}', '{"id":"b"}', '{"id":"c"}']);
  });
});

function client(url: string, options: Partial<ClientOptions> = {}): ApiClient {
  const made = testClient(url, { retries: 2, random: () => 0, ...options });
  onTestFinished(() => made.close());
  return made;
}

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
