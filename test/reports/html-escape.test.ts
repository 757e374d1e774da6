// The HTML report's escaping, one context at a time, with the payloads of issue 23.
import { describe, expect, it } from "vitest";
import { HOSTILE_PAYLOADS } from "../support/hostile-payloads.js";
import { cssString, htmlAttribute, htmlText, jsonInScript, svgText } from "../../src/reports/html-escape.js";

describe("htmlText, htmlAttribute, svgText", () => {
  it("leaves no tag, quote or entity start in the text", () => {
    for (const payload of HOSTILE_PAYLOADS) {
      for (const escape of [htmlText, htmlAttribute, svgText]) {
        const escaped = escape(payload);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
      }
    }
  });

  it("escapes the five characters as entities and keeps the rest", () => {
    expect(htmlText(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c&#39;");
    expect(htmlText("Smith Junior 🎉 مرحبا")).toBe("Smith Junior 🎉 مرحبا");
  });

  it("makes a bidirectional override and control characters visible and inert", () => {
    expect(htmlText("invoice\u202Efdp.exe")).toBe("invoice\\u202efdp.exe");
    expect(htmlText("a\u001b[31mb\nc")).toBe("a\\x1b[31mb\\nc");
  });
});

describe("cssString", () => {
  it("is a quoted string no payload can end", () => {
    for (const payload of HOSTILE_PAYLOADS) {
      const css = cssString(payload);
      expect(css.startsWith('"') && css.endsWith('"')).toBe(true);
      expect(css.slice(1, -1)).not.toMatch(/[<>"'/]/);
    }
    expect(cssString("a</style>")).toBe('"a\\3c \\2f style\\3e "');
  });
});

describe("jsonInScript", () => {
  it("has no <, >, &, U+2028 or U+2029 and parses back to the same value", () => {
    for (const payload of HOSTILE_PAYLOADS) {
      const value = { text: payload, list: [payload] };
      const json = jsonInScript(value);
      expect(json).not.toMatch(/[<>&\u2028\u2029]/);
      expect(JSON.parse(json)).toEqual(value);
    }
    expect(jsonInScript("</script>")).toBe('"\\u003c/script\\u003e"');
  });
});
