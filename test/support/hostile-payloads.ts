// Hostile server text (tags that close the report's own, script URLs, templates, bidi and line
// separators, Markdown), for every test of the HTML and Markdown reports: each must stay text.
export const HOSTILE_PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "</script><script>alert(2)</script>",
  "</style><script>alert(3)</script>",
  "</svg><script>alert(4)</script>",
  "javascript:alert(5)",
  "{{recipient}}",
  "invoice\u202Efdp.exe",
  "it's & <b>bold</b>",
  "line\u2028sep\u2029para",
  "pipe | in [a](javascript:x) *b* `c` <u>",
];
