import { describe, expect, it } from "vitest";
import { parseMarkdown, plainInline, renderMarkdown } from "../../src/terminal/markdown.js";

const text = (markdown: string, width: number) =>
  renderMarkdown(markdown, width)
    .map((line) => line.text)
    .join("\n");

describe("parseMarkdown", () => {
  it("reads headings, paragraphs, lists with continuation lines, fenced code and tables", () => {
    const markdown = [
      "# Title",
      "",
      "A paragraph on",
      "two lines.",
      "- one item",
      "  continued",
      "- two",
      "",
      "1. first",
      "",
      "```sh",
      "  kept   as is",
      "",
      "```",
      "| a | b \\| c |",
      "|---|---|",
      "| 1 | 2 |",
    ].join("\n");
    expect(parseMarkdown(markdown)).toEqual([
      { kind: "heading", level: 1, text: "Title" },
      { kind: "paragraph", text: "A paragraph on two lines." },
      {
        kind: "list",
        items: [
          { marker: "- ", text: "one item continued" },
          { marker: "- ", text: "two" },
        ],
      },
      { kind: "list", items: [{ marker: "1. ", text: "first" }] },
      { kind: "code", lines: ["  kept   as is", ""] },
      { kind: "table", header: ["a", "b | c"], rows: [["1", "2"]] },
    ]);
  });

  it("drops inline marks, keeps a link's target unless it points inside the page", () => {
    expect(plainInline("`--json`, **bold**, [docs](docs/x.md) and [here](#here)")).toBe(
      "--json, bold, docs (docs/x.md) and here",
    );
  });
  it("leaves out a line that is an HTML comment, as a reader never sees it", () => {
    expect(parseMarkdown("Before.\n<!-- bench:latest:start -->\nAfter.\n\n<!-- end -->\n")).toEqual([
      { kind: "paragraph", text: "Before." },
      { kind: "paragraph", text: "After." },
    ]);
  });

  it("shows an image as its alt text and target, never as markup", () => {
    expect(plainInline("See ![The HTML report, 1280 px wide](docs/images/report-1280.png).")).toBe(
      "See The HTML report, 1280 px wide (docs/images/report-1280.png).",
    );
    expect(plainInline("![](docs/images/a.png) and **`MSGSTAT_TOKEN`**")).toBe("docs/images/a.png and MSGSTAT_TOKEN");
  });
});

describe("renderMarkdown", () => {
  const markdown = [
    "# Exit codes",
    "",
    "Every command ends with one of these codes; a `script` can act on them.",
    "",
    "## Codes",
    "",
    "| code | meaning |",
    "|---|---|",
    "| 0 | success, an empty result included |",
    "| 1 | the service failed, was unreachable, or sent a response msgstat cannot read |",
    "",
    "- a list item long enough to wrap under its own marker at this width",
    "",
    "```",
    "msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5 --json > report.json",
    "```",
  ].join("\n");

  it("wraps at 40 columns: underlined headings, hanging list items, table cells wrapped in their column, code kept", () => {
    expect(text(markdown, 40)).toBe(
      [
        "Exit codes",
        "==========",
        "",
        "Every command ends with one of these",
        "codes; a script can act on them.",
        "",
        "Codes",
        "-----",
        "",
        "code  meaning",
        "----  ----------------------------------",
        "0     success, an empty result included",
        "",
        "1     the service failed, was",
        "      unreachable, or sent a response",
        "      msgstat cannot read",
        "",
        "- a list item long enough to wrap under",
        "  its own marker at this width",
        "",
        "  msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5 --json > report.json",
      ].join("\n"),
    );
  });

  it("at 160 columns nothing wraps, and a table of one-line rows has no blank lines", () => {
    expect(text(markdown, 160)).toBe(
      [
        "Exit codes",
        "==========",
        "",
        "Every command ends with one of these codes; a script can act on them.",
        "",
        "Codes",
        "-----",
        "",
        "code  meaning",
        "----  ---------------------------------------------------------------------------",
        "0     success, an empty result included",
        "1     the service failed, was unreachable, or sent a response msgstat cannot read",
        "",
        "- a list item long enough to wrap under its own marker at this width",
        "",
        "  msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5 --json > report.json",
      ].join("\n"),
    );
  });

  it("marks code lines, the only ones that may be wider than asked", () => {
    const lines = renderMarkdown(markdown, 40);
    expect(lines.filter((line) => line.text.length > 40)).toEqual([
      { text: "  msgstat stats cmp-spring-sale --since 24h --max-failure-rate 5 --json > report.json", code: true },
    ]);
  });

  it("lays a table too wide for its columns out as records, header by header", () => {
    const table = [
      "| variable | meaning |",
      "|---|---|",
      "| `MSGSTAT_CONFIG_DIR_THAT_IS_LONG` | where the config file and the credentials file are kept |",
    ].join("\n");
    expect(text(table, 30)).toBe(
      [
        "MSGSTAT_CONFIG_DIR_THAT_IS_LON",
        "G",
        "  meaning: where the config",
        "    file and the credentials",
        "    file are kept",
      ].join("\n"),
    );
  });
});
