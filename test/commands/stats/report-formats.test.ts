// `msgstat stats --format html|md` and `-o report.html|.md`: what is printed, exactly, on stdout and
// stderr and the exit code, at 80 and 160 columns (a page or a document does not depend on the width),
// for one campaign and for several (the comparison first); and what server text cannot do to them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../../src/sandbox/index.js";
import { axisTicks } from "../../../src/reports/html.js";
import { markdownText } from "../../../src/reports/markdown.js";
import { campaignPages, startListingServer } from "../../support/listing-server.js";
import { HOSTILE_PAYLOADS } from "../../support/hostile-payloads.js";
import { hostileCampaigns, smallCampaign } from "../../support/report-campaigns.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const NOW = Date.parse("2026-11-20T12:00:00.000Z");

const SPRING = smallCampaign("cmp-spring", {
  batchId: "bat-1",
  fileName: "wave|1.csv",
  errorType: "delivery_error",
  errorCode: "recipient_unavailable",
});
const AUTUMN = smallCampaign("cmp-autumn", {
  batchId: "bat-9",
  fileName: "autumn.csv",
  errorType: "server_error",
  errorCode: "server_unknown_error",
});

async function statsOf(args: string[], columns = 80, campaigns: Record<string, unknown[]> = {}) {
  const server = await startListingServer(
    campaignPages({
      "cmp-spring": SPRING,
      "cmp-autumn": AUTUMN,
      ...(campaigns as Record<string, Record<string, unknown>[]>),
    }),
  );
  return runCli(["--base-url", server.url, "stats", ...args], { now: NOW, columns });
}

const SPRING_SECTIONS = `## Summary

|  |  |
|---|---:|
| Messages | 3 |
| Attempts | 4 |
| Delivery rate | 50.0% |
| Failure rate | 50.0% |
| Final (success or failure) | 2 |
| Not final yet | 1 |

### By status

| status | messages | share | final |
|---|---:|---:|---|
| created | 1 | 33.3% | no |
| failure | 1 | 33.3% | yes |
| success | 1 | 33.3% | yes |

### Failures by latest error (1 failed)

| error code | error type | messages | share |
|---|---|---:|---:|
| recipient\\_unavailable | delivery\\_error | 1 | 100% |

### Attempts per message

| attempts | messages | share | success | failure |
|---|---:|---:|---:|---:|
| 1 attempt | 2 | 66.7% | 1 | 0 |
| 2 attempts | 1 | 33.3% | 0 | 1 |
| 3 attempts | 0 | 0% | 0 | 0 |
| 4+ attempts | 0 | 0% | 0 | 0 |

0 succeeded only after a retry.

### Time to final status

Median 42 s, 90th percentile 5 min 28 s, 99th percentile 5 min 28 s: from createdAt to the last attempt's updatedAt, 2 final messages.

| time to final status | messages | share |
|---|---:|---:|
| under 1 s | 0 | 0% |
| 1 s – 5 s | 0 | 0% |
| 5 s – 10 s | 0 | 0% |
| 10 s – 30 s | 0 | 0% |
| 30 s – 1 min | 1 | 50.0% |
| 1 min – 2 min | 0 | 0% |
| 2 min – 5 min | 0 | 0% |
| 5 min – 10 min | 1 | 50.0% |

### By batch

| batch id | file | size | counted | success | failure | delivered |
|---|---|---:|---:|---:|---:|---:|
| bat-1 | wave\\|1.csv | 2 | 2 | 1 | 1 | 50.0% |
| (no batch) |  | – | 1 | 0 | 0 | – |

### Messages per hour (UTC)

| hour | messages | failed |
|---|---:|---:|
| 2026-11-20 Fri 10:00 (partial) | 3 | 1 |

_(partial): the count starts or ends inside that hour_

_Made by msgstat 0.1.0; \`msgstat stats --json\` gives the same figures as data._
`;

const SPRING_MD = `# Delivery report: campaign cmp-spring

- **Generated:** 2026-11-20 12:00:00 UTC
- **By:** msgstat 0.1.0
- **Campaigns:** cmp-spring
- **Filters:** none
- **Time zone:** UTC
- **Created:** 2026-11-20 10:03 → 2026-11-20 10:05 (2 min)

${SPRING_SECTIONS}`;

describe("--format md", () => {
  it.each([80, 160])("one campaign, at %i columns: the whole document, exactly", async (columns) => {
    expect(await statsOf(["cmp-spring", "--format", "md"], columns)).toEqual({
      code: 0,
      stderr: "",
      stdout: SPRING_MD,
    });
  });

  it.each([80, 160])("several campaigns, at %i columns: the comparison first, then the total", async (columns) => {
    const result = await statsOf(["cmp-spring", "cmp-autumn", "--format", "md"], columns);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const [head, rest] = result.stdout.split("\n## All campaigns together\n");
    expect(head).toBe(`# Delivery report: 2 campaigns together (cmp-spring, cmp-autumn)

- **Generated:** 2026-11-20 12:00:00 UTC
- **By:** msgstat 0.1.0
- **Campaigns:** cmp-spring, cmp-autumn
- **Filters:** none
- **Time zone:** UTC
- **Created:** 2026-11-20 10:03 → 2026-11-20 10:05 (2 min)

## Campaigns compared (2)

| campaign | messages | success | failure | not final | delivered | failed | attempts/msg | top error |
|---|---:|---:|---:|---:|---:|---:|---:|---|
| cmp-spring | 3 | 1 | 1 | 1 | 50.0% | 50.0% | 1.33 | recipient\\_unavailable 100% |
| cmp-autumn | 3 | 1 | 1 | 1 | 50.0% | 50.0% | 1.33 | server\\_unknown\\_error 100% |
| **total** | 6 | 2 | 2 | 2 | 50.0% | 50.0% | 1.33 | recipient\\_unavailable 50.0% |
`);
    expect(rest).toMatch(/^\n\| {2}\| {2}\|\n\|---\|---:\|\n\| Messages \| 6 \|\n/);
  });

  it("one of two campaigns counted: the title says partial and names it, the other's row says why in words", async () => {
    const result = await statsOf(["cmp-spring", "cmp-nope", "--format", "md"]);
    expect(result.code).toBe(3);
    expect(result.stdout.split("\n")[0]).toBe("# Partial delivery report: campaign cmp-spring, 1 of 2 campaigns");
    expect(result.stdout).toContain("\n| cmp-nope | not counted: not found (404) |");
  });

  it("a filter's time reads as in the Created line: no backslash before its colon", async () => {
    const result = await statsOf(["cmp-spring", "--since", "2026-11-19T23:29:00Z", "--format", "md"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("- **Filters:** created since 2026-11-19 23:29\n");
  });

  it("keeps every payload text: no cell ends early, no link, emphasis, code or HTML starts", async () => {
    const result = await statsOf([...Object.keys(hostileCampaigns()), "--format", "md"], 80, hostileCampaigns());
    expect(result.code).toBe(0);
    for (const line of result.stdout.split("\n").filter((row) => row.startsWith("| "))) {
      // An unescaped | is a cell boundary: every row of a table has as many as its header.
      const boundaries = line.replace(/\\./g, "").split("|").length;
      expect([4, 5, 6, 7, 9, 11], line).toContain(boundaries);
    }
    const unescaped = (mark: string) => new RegExp(`(^|[^\\\\])\\${mark}`);
    const body = result.stdout.replace(/^_Made by.*$/m, "").replace(/`msgstat[^`]*`/g, "");
    for (const mark of ["<", "[", "`", "!"]) expect(body).not.toMatch(unescaped(mark));
    expect(body).not.toContain("\u202e");
    for (const payload of HOSTILE_PAYLOADS) expect(result.stdout).toContain(markdownText(payload));
  });
});

describe("markdownText", () => {
  it("escapes what is syntax in a line and keeps the rest", () => {
    expect(markdownText("a|b")).toBe("a\\|b");
    expect(markdownText("[x](javascript:alert(1))")).toBe("\\[x\\](javascript:alert(1))");
    expect(markdownText("*b* _i_ `c` <u> ~s~ &amp; @me !")).toBe(
      "\\*b\\* \\_i\\_ \\`c\\` \\<u\\> \\~s\\~ \\&amp; \\@me \\!",
    );
    expect(markdownText("{{name}} back\\slash")).toBe("\\{\\{name\\}\\} back\\\\slash");
    expect(markdownText("cmp-spring-sale 86.3%")).toBe("cmp-spring-sale 86.3%");
    expect(markdownText("invoice\u202Efdp.exe\nnext")).toBe("invoice\\\\u202efdp.exe\\\\nnext");
  });

  it("escapes a colon only before a slash (a GFM autolink's https://), not in a time", () => {
    expect(markdownText("created since 2026-11-19 23:29")).toBe("created since 2026-11-19 23:29");
    expect(markdownText("see https://evil.example/x")).toBe("see https\\://evil.example/x");
  });
});

describe("--format html", () => {
  it.each([80, 160])(
    "-o report.html at %i columns: one line on stderr, nothing on stdout, the page in the file",
    async (columns) => {
      const folder = scratchFolder("msgstat-report-");
      const target = path.join(folder, "report.html");
      const result = await statsOf(["cmp-spring", "-o", target], columns);
      expect(result).toEqual({ code: 0, stdout: "", stderr: `wrote the report of 3 messages to ${target}\n` });
      expect(readdirSync(folder)).toEqual(["report.html"]);
      const page = readFileSync(target, "utf8");
      expect(page.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
      expect(page).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-`,
      );
      // The same page as --format html to stdout.
      const piped = await statsOf(["cmp-spring", "--format", "html"], columns);
      expect(piped).toEqual({ code: 0, stderr: "", stdout: page });
    },
  );

  it("several campaigns: the comparison, then the total; -o says how many campaigns", async () => {
    const folder = scratchFolder("msgstat-report-");
    const target = path.join(folder, "both.html");
    const result = await statsOf(["cmp-spring", "cmp-autumn", "-o", target]);
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `wrote the report of 6 messages in 2 campaigns to ${target}\n`,
    });
    const page = readFileSync(target, "utf8");
    const comparison = page.indexOf('<h2 id="h-comparison">Campaigns compared (2)</h2>');
    const total = page.indexOf('<h2 id="h-summary">All campaigns together</h2>');
    expect(comparison).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(comparison);
    expect(page).toContain('<svg id="comparison-chart"');
  });

  it("keeps ids, error codes and file names on one line; the figures come before the long text", async () => {
    const page = (await statsOf(["cmp-spring", "cmp-autumn", "--format", "html"])).stdout;
    expect(page).toContain(".id{white-space:nowrap}");
    expect(page).toContain(
      '<h1>Delivery report: 2 campaigns together (<span class="id">cmp-spring</span>, <span class="id">cmp-autumn</span>)</h1>',
    );
    expect(page).toContain('<tr><th scope="row" class="id">cmp-spring</th>');
    expect(page).toContain('<th scope="row" class="id">recipient_unavailable</th>');
    expect(page).toContain('<th scope="row" class="id">bat-1</th>');
    expect(page).toContain('<td class="id" data-label="file">wave|1.csv</td></tr>');
    const headers = (id: string) =>
      [
        ...new RegExp(`<table id="${id}"[^>]*>.*?</thead>`, "s")
          .exec(page)![0]
          .matchAll(/<th scope="col"[^>]*>([^<]*)/g),
      ].map((match) => match[1]);
    expect(headers("failures")).toEqual(["error code", "messages", "share", "error type"]);
    expect(headers("batches")).toEqual(["batch id", "size", "counted", "success", "failure", "delivered", "file"]);
  });

  it("every chart scales to the width it has: no chart keeps a minimum width that a phone would cut", async () => {
    const page = (await statsOf(["cmp-spring", "cmp-autumn", "--format", "html"])).stdout;
    expect(page).not.toMatch(/min-width:5\d\dpx|class="wide"/);
    expect(page).toContain("svg{display:block;width:100%;height:auto;");
    expect(page).toMatch(/<svg id="comparison-chart" class="narrow" viewBox="0 0 480 /);
  });

  it("one of two campaigns counted: the title says partial and names it, the row says why in words", async () => {
    const result = await statsOf(["cmp-spring", "cmp-nope", "--format", "html"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("<title>Partial delivery report: campaign cmp-spring, 1 of 2 campaigns</title>");
    expect(result.stdout).toContain(
      '<th scope="row" class="id">cmp-nope</th><td colspan="8">not counted: not found (404)</td>',
    );
  });

  it("marks an hour counted only in part in the table and the chart, and says what the mark means", async () => {
    const page = (await statsOf(["cmp-spring", "--format", "html"])).stdout;
    expect(page).toContain('<th scope="row">2026-11-20 Fri 10:00 (partial)</th>');
    expect(page).toContain(
      '<p class="note" id="partial-buckets">(partial): the count starts or ends inside that hour</p>',
    );
    const chart = /<svg id="over-time-chart".*?<\/svg>/s.exec(page)![0];
    expect(chart).toMatch(
      /<g class="partial-column"><rect class="s-bar" [^>]*\/><rect class="s-failure" [^>]*\/><\/g>/,
    );
    expect(chart).toContain(">11-20 Fri 10:00 *</text>");
    expect(page).toContain('<span class="partial-key">* paler: counted in part</span></p>');
  });

  it("says in the footer what a reader needs; the note on the JSON is a comment in the source", async () => {
    const page = (await statsOf(["cmp-spring", "--format", "html"])).stdout;
    const footer = /<footer>(.*?)<\/footer>/s.exec(page)![1]!;
    expect(footer).toBe(
      "Made by msgstat 0.1.0. The same figures as <code>msgstat stats --json</code>,\nwhich this page carries too.",
    );
    expect(page).toContain("<!-- The figures as data");
  });

  it("draws a column chart's grid at round figures (1, 2 or 5 times a power of ten)", async () => {
    expect(axisTicks(1)).toEqual([0, 1]);
    expect(axisTicks(26)).toEqual([0, 10, 20]);
    expect(axisTicks(424)).toEqual([0, 200, 400]);
    expect(axisTicks(1632)).toEqual([0, 500, 1000, 1500]);
    expect(axisTicks(9)).toEqual([0, 2, 4, 6, 8]);
    const page = (await statsOf(["cmp-spring", "--format", "html"])).stdout;
    const chart = /<svg id="over-time-chart".*?<\/svg>/s.exec(page)![0];
    expect([...chart.matchAll(/<text class="muted"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1])).toEqual([
      "0",
      "1",
      "2",
      "3",
    ]);
  });

  it("-o report.md is the Markdown; .htm the page; the format flag may not contradict the extension", async () => {
    const folder = scratchFolder("msgstat-report-");
    expect((await statsOf(["cmp-spring", "-o", path.join(folder, "r.md")])).code).toBe(0);
    expect(readFileSync(path.join(folder, "r.md"), "utf8")).toBe(SPRING_MD);
    expect((await statsOf(["cmp-spring", "-o", path.join(folder, "r.htm")])).code).toBe(0);
    expect(readFileSync(path.join(folder, "r.htm"), "utf8")).toMatch(/^<!DOCTYPE html>/);
    const clash = await statsOf(["cmp-spring", "--json", "-o", path.join(folder, "r.html")]);
    expect(clash).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `msgstat: --json contradicts -o ${path.join(folder, "r.html")}: a .html file is html\n` +
        "  Leave out --json (the extension sets the format), or name the file for json.\n",
    });
  });

  it("refuses --watch with html or md, and two formats at once (exit 2)", async () => {
    expect(await statsOf(["cmp-spring", "--format", "html", "--watch"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: --watch shows the report, or a JSON line a round: it does not write HTML\n",
    });
    expect(await statsOf(["cmp-spring", "--format", "md", "--csv"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: choose one output format, not md and csv\n",
    });
  });

  it("no payload becomes markup: the only elements are msgstat's own, the inlined JSON parses back", async () => {
    const campaigns = hostileCampaigns();
    const result = await statsOf([...Object.keys(campaigns), "--format", "html"], 80, campaigns);
    expect(result.code).toBe(0);
    const page = result.stdout;
    const tags = new Set([...page.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => match[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(
      [
        "body",
        "caption",
        "code",
        "dd",
        "desc",
        "div",
        "dl",
        "dt",
        "figure",
        "footer",
        "g",
        "h1",
        "h2",
        "head",
        "header",
        "html",
        "line",
        "main",
        "meta",
        "p",
        "rect",
        "script",
        "section",
        "span",
        "style",
        "svg",
        "table",
        "tbody",
        "td",
        "text",
        "th",
        "thead",
        "title",
        "tr",
      ].sort(),
    );
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    expect(page.match(/<\/style>/g)).toHaveLength(1);
    // Inside msgstat's own tags, no event handler and no URL: a payload's "onerror=" is text between them.
    for (const [tag] of page.matchAll(/<[a-zA-Z][^>]*>/g)) expect(tag).not.toMatch(/\son[a-z]+=|javascript:|src=/i);
    expect(page).not.toContain("\u202e");
    const json = /<script type="application\/json" id="msgstat-report">(.*)<\/script>/s.exec(page)![1]!;
    const carried = JSON.parse(json) as { campaigns: Array<{ campaignId: string }> };
    expect(carried.campaigns.map((report) => report.campaignId)).toEqual(Object.keys(campaigns));
  });
});

describe("size", () => {
  it("is bounded by the aggregates: ten times the messages, about the same page", async () => {
    const sizes: number[] = [];
    for (const messages of [2000, 20_000]) {
      const sandbox = await startSandbox({ seed: 3, messages, now: NOW });
      try {
        const result = await runCli(["--base-url", sandbox.url, "stats", "cmp-spring-sale", "--format", "html"], {
          now: NOW,
        });
        expect(result.code).toBe(0);
        sizes.push(Buffer.byteLength(result.stdout));
      } finally {
        await sandbox.close();
      }
    }
    expect(sizes[1]! / sizes[0]!).toBeLessThan(1.1);
    expect(sizes[1]!).toBeLessThan(300 * 1024);
  });
});
