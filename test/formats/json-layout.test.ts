// JSON laid out from its text: one line, or indented as JSON.stringify(value, null, 2) would.
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { indentedJson, oneLineJson } from "../../src/formats/json-layout.js";

const samples = [
  '{"id":"a","values":{},"list":[],"nested":{"a":[1,{"b":null}],"c":"x"}}',
  '{ "id" : "a" ,\n  "s": "with \\"quotes\\", commas, colons: and { braces } [ ]",\r\n "n": [ 1 , 2 ] }',
  '{"esc":"\\\\","u":"é\\n","emoji":"😀","empty":[ ],"obj":{ }}',
  "[]",
  '"just a string"',
  "42",
];

describe("one line", () => {
  it.each(samples)("%j keeps every token and loses only line breaks and the spaces between tokens", (text) => {
    const line = oneLineJson(text);
    expect(line).not.toMatch(/[\n\r]/);
    expect(JSON.parse(line)).toEqual(JSON.parse(text));
  });

  it("text already on one line is returned as it is", () => {
    const text = '{ "id": "a", "n": 9007199254740993 }';
    expect(oneLineJson(text)).toBe(text);
  });

  it("keeps numbers digit for digit", () => {
    expect(oneLineJson('{\n"n": 9007199254740993,\n"e": 1e400\n}')).toBe('{"n":9007199254740993,"e":1e400}');
  });
});

describe("indented", () => {
  it.each(samples)("%j as JSON.stringify(value, null, 2) lays it out", (text) => {
    expect(indentedJson(text, "  ")).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });

  it("every message of a sandbox page (its hostile text included)", async () => {
    const sandbox = await startSandbox({ messages: 300 });
    try {
      const response = await fetch(`${sandbox.url}/campaigns/cmp-spring-sale/messages?limit=200`);
      const page = (await response.json()) as { data: unknown[] };
      expect(page.data.length).toBeGreaterThan(0);
      for (const message of page.data)
        expect(indentedJson(JSON.stringify(message), "  ")).toBe(JSON.stringify(message, null, 2));
    } finally {
      await sandbox.close();
    }
  });

  it("keeps escapes as sent (JSON.stringify would write \\u00e9 as é)", () => {
    expect(indentedJson('{"u":"\\u00e9"}', "  ")).toBe('{\n  "u": "\\u00e9"\n}');
  });

  it("keeps numbers digit for digit", () => {
    expect(indentedJson('{"n":[9007199254740993,1e400]}', "  ")).toBe(
      '{\n  "n": [\n    9007199254740993,\n    1e400\n  ]\n}',
    );
  });
});
