// The HTML report in a real browser: Debian's chromium, driven by playwright-core, every request but
// the file itself refused. It opens offline, reads completely without JavaScript, shows the numbers of
// `stats --json` for the same arguments, lets no payload run, is drawn (not blank, charts with area)
// at 1280 px, 390 px and in print, light and dark, and axe-core finds no serious or critical problem.
// Without chromium these tests are skipped, saying so; on CI (MSGSTAT_CI) they fail instead.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, CHROMIUM_PATH, launchChromium, offlinePage } from "../../scripts/chromium.mjs";
import { countText, percentText } from "../../src/core/numbers.js";
import { HOSTILE_VALUES } from "../../src/sandbox/hostile-text.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import type { StatsReport } from "../../src/stats/report.js";
import { FIXED_NOW } from "../sandbox/http-helpers.js";
import { campaignPages, startListingServer } from "../support/listing-server.js";
import { HOSTILE_PAYLOADS } from "../support/hostile-payloads.js";
import { decodePng, distinctColours, shareOf } from "../support/png.js";
import { hostileCampaigns, smallCampaign } from "../support/report-campaigns.js";
import { runBin } from "../support/run-cli.js";

const available = chromiumAvailable();
if (!available && process.env.MSGSTAT_CI)
  throw new Error(`no Chromium at ${CHROMIUM_PATH}, and CI (MSGSTAT_CI) installs it: .ci/run's apt-get line failed`);
/** A test that needs the browser: skipped without it, saying so (on CI the file fails above instead). */
function browserIt(name: string, options: { timeout: number }, body: () => Promise<void>): void {
  it(name, options, async (context) => {
    if (!available)
      return context.skip(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium): the page was not opened`);
    await body();
  });
}

// The whole file's: made in beforeAll, removed in afterAll.
const folder = mkdtempSync(path.join(tmpdir(), "msgstat-report-browser-"));
let sandbox: Sandbox;
let browser: Browser;
const pages: Record<string, string> = {};
const json: Record<string, StatsReport> = {};

/** `stats <args> -o <name>.html` and `stats <args> --json`, as a user runs them (the built bin). */
async function makeReport(name: string, url: string, args: string[]) {
  const file = path.join(folder, `${name}.html`);
  const env = { MSGSTAT_BASE_URL: url };
  const written = await runBin(["stats", ...args, "-o", file], { env });
  expect(written.code, written.stderr).toBe(0);
  pages[name] = file;
  const data = await runBin(["stats", ...args, "--json"], { env });
  expect(data.code, data.stderr).toBe(0);
  const parsed = JSON.parse(data.stdout) as StatsReport | { total: StatsReport };
  json[name] = "total" in parsed ? parsed.total : parsed;
}

beforeAll(async () => {
  if (!available) return;
  sandbox = await startSandbox({ seed: 5, messages: 3000, now: FIXED_NOW });
  await makeReport("spring", sandbox.url, ["cmp-spring-sale"]);
  await makeReport("spring-kolkata", sandbox.url, ["cmp-spring-sale", "--tz", "Asia/Kolkata", "--interval", "day"]);
  await makeReport("two", sandbox.url, ["cmp-spring-sale", "cmp-loyalty-es"]);
  // The payloads of issue 23 as campaign ids, batch ids and file names, error types and codes, statuses;
  // the sandbox's own hostile text (controls, bidi, formulas) as file names and error codes.
  const values = Object.fromEntries(
    HOSTILE_VALUES.map((value, i) => [
      `cmp-value-${i}`,
      smallCampaign(`cmp-value-${i}`, { batchId: `bat-${i}`, fileName: value, errorType: value, errorCode: value }),
    ]),
  );
  const server = await startListingServer(campaignPages({ ...hostileCampaigns(), ...values }), { outsideTest: true });
  try {
    await makeReport("hostile", server.url, [...HOSTILE_PAYLOADS, ...Object.keys(values)]);
  } finally {
    await server.close();
  }
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** What the page's own scripts see, for the few functions run in it (the tests are typed for Node). */
interface BrowserGlobals {
  getComputedStyle: (element: unknown) => { breakInside: string };
}

interface Opened {
  page: Page;
  requests: string[];
  consoleErrors: string[];
  dialogs: string[];
  close: () => Promise<void>;
}

/** A page of the report, every request but the file refused and remembered, console errors and dialogs too. */
async function open(name: string, options: BrowserContextOptions = {}): Promise<Opened> {
  const { context, page, requests } = await offlinePage(browser, {
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  const consoleErrors: string[] = [];
  const dialogs: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(pages[name]!).href);
  return { page, requests, consoleErrors, dialogs, close: () => context.close() };
}

/** The rows of a table as text, header cell first, each cell's shown text trimmed. */
async function tableRows(page: Page, id: string): Promise<string[][]> {
  const rows = page.locator(`#${id} tbody tr`);
  const result: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator("th, td");
    result.push((await cells.allTextContents()).map((text) => text.trim()));
  }
  return result;
}

/** The page's own functions that the 390-px test uses to tell a broken line (the tests are typed for Node). */
interface RangeGlobals {
  document: {
    createRange: () => { selectNodeContents: (node: unknown) => void; getClientRects: () => ArrayLike<unknown> };
  };
}

/** What the 390-px test reads of a cell and of a chart's text in the page (the tests are typed for Node). */
interface DOMRectLike {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}
type Dataset = Record<string, string | undefined>;
interface ChartText {
  textContent: string | null;
  getBoundingClientRect: () => DOMRectLike;
  ownerSVGElement: { id: string; getBoundingClientRect: () => DOMRectLike; viewBox: { baseVal: { width: number } } };
}
interface StyleGlobals {
  getComputedStyle: (element: unknown) => { display: string; fontSize: string };
}

describe("the HTML report in Chromium", () => {
  browserIt(
    "at 390 px: every chart and caption within the width, ids on one line, the failures' figures shown",
    { timeout: 60_000 },
    async () => {
      const { page, close } = await open("two", { viewport: { width: 390, height: 900 } });
      const pastEdge = async (selector: string) => {
        const past: string[] = [];
        const found = page.locator(selector);
        for (let i = 0; i < (await found.count()); i++) {
          const box = (await found.nth(i).boundingBox())!;
          if (box.x + box.width > 390.5)
            past.push(`${selector} ${i}: ${(await found.nth(i).textContent())!.slice(0, 40)}`);
        }
        return past;
      };
      const facts = {
        chartsPastEdge: await pastEdge("svg"),
        captionsPastEdge: await pastEdge("caption"),
        failuresFiguresPastEdge: await pastEdge("#failures td.num"),
        // Text on more than one line has a box a line: an id broken at a hyphen has two.
        brokenIds: await page
          .locator("#comparison tbody th, #failures tbody th, #batches tbody th, #batches tbody td:last-child")
          .evaluateAll((cells) =>
            (cells as unknown[])
              .filter((cell) => {
                const range = (globalThis as unknown as RangeGlobals).document.createRange();
                range.selectNodeContents(cell);
                return range.getClientRects().length > 1;
              })
              .map((cell) => (cell as { textContent: string | null }).textContent ?? ""),
          ),
      };
      await close();
      expect(facts).toEqual({ chartsPastEdge: [], captionsPastEdge: [], failuresFiguresPastEdge: [], brokenIds: [] });
    },
  );

  browserIt(
    "at 390 px: every figure of every table in view without scrolling sideways; chart text 10 px or more",
    { timeout: 60_000 },
    async () => {
      const { page, close } = await open("two", { viewport: { width: 390, height: 900 } });
      // Cells (the key columns among them: share, failure, error type, failed) outside the width, and
      // regions that would need a sideways scroll to show them.
      const cellsOutside = await page.locator("table th, table td").evaluateAll((cells) =>
        (cells as Array<{ getBoundingClientRect: () => DOMRectLike; textContent: string | null; dataset: Dataset }>)
          .filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.width > 0 && (box.left < 0 || box.right > 390.5);
          })
          .map((cell) => `${cell.dataset.label ?? ""}: ${cell.textContent ?? ""}`),
      );
      const scrolled = await page
        .locator(".scroll")
        .evaluateAll((regions) =>
          (regions as Array<{ scrollWidth: number; clientWidth: number; ariaLabel: string | null }>)
            .filter((region) => region.scrollWidth > region.clientWidth + 0.5)
            .map((region) => region.ariaLabel ?? ""),
        );
      const keyColumns = await page
        .locator(
          '#failures td[data-label="share"], #failures td[data-label="error type"], #by-status td[data-label="share"], #attempts td[data-label="failure"], #comparison td[data-label="failed"]',
        )
        .count();
      // Each chart's text as drawn: its font size in the chart's units times the chart's scale, and whether
      // the chart's box holds it whole.
      const texts = await page.locator("svg text").evaluateAll((nodes) =>
        (nodes as unknown as ChartText[]).flatMap((node) => {
          const style = (globalThis as unknown as StyleGlobals).getComputedStyle(node);
          if (style.display === "none") return [];
          const svg = node.ownerSVGElement;
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const box = node.getBoundingClientRect();
          const frame = svg.getBoundingClientRect();
          const inside =
            box.left >= frame.left - 0.5 &&
            box.right <= frame.right + 0.5 &&
            box.top >= frame.top - 0.5 &&
            box.bottom <= frame.bottom + 0.5;
          return [{ chart: svg.id, text: node.textContent ?? "", px: parseFloat(style.fontSize) * scale, inside }];
        }),
      );
      const overTimeLabels = texts.filter((text) => text.chart === "over-time-chart" && /^\d\d-\d\d /.test(text.text));
      await close();
      expect({
        cellsOutside,
        scrolled,
        textBelow10px: texts.filter((text) => text.px < 10),
        textCut: texts.filter((text) => !text.inside),
      }).toEqual({ cellsOutside: [], scrolled: [], textBelow10px: [], textCut: [] });
      expect(keyColumns).toBeGreaterThan(10);
      expect(overTimeLabels.length).toBeGreaterThanOrEqual(3);
    },
  );

  browserIt(
    "opens offline: no request leaves the page, no console error, with and without JavaScript",
    { timeout: 180_000 },
    async () => {
      for (const name of Object.keys(pages)) {
        for (const javaScriptEnabled of [true, false]) {
          const opened = await open(name, { javaScriptEnabled });
          expect(opened.requests, name).toEqual([]);
          expect(opened.consoleErrors, name).toEqual([]);
          expect(opened.dialogs, name).toEqual([]);
          await opened.close();
        }
      }
    },
  );

  browserIt("reads without JavaScript: every figure of stats --json, in its table", { timeout: 180_000 }, async () => {
    for (const name of ["spring", "spring-kolkata"]) {
      const report = json[name]!;
      const { page, close } = await open(name, { javaScriptEnabled: false });
      expect(await page.locator("#total-messages").textContent()).toBe(countText(report.totals.messages));
      expect(await page.locator("#total-attempts").textContent()).toBe(countText(report.totals.attempts));
      expect(await page.locator("#total-delivery-rate").textContent()).toBe(percentText(report.delivery.deliveryRate));
      expect(await page.locator("#total-failure-rate").textContent()).toBe(percentText(report.delivery.failureRate));
      expect(await tableRows(page, "by-status")).toEqual(
        report.byStatus.map((row) => [
          row.status!,
          countText(row.count),
          percentText(row.share),
          row.final ? "yes" : "no",
        ]),
      );
      expect(await tableRows(page, "failures")).toEqual(
        report.failures.map((row) => [row.errorCode!, countText(row.count), percentText(row.share), row.errorType!]),
      );
      expect((await tableRows(page, "attempts")).map((cells) => cells.slice(1))).toEqual(
        report.attempts.buckets.map((row) => [
          countText(row.count),
          percentText(row.share),
          countText(row.success),
          countText(row.failure),
        ]),
      );
      expect(await page.locator("#succeeded-after-retry").getAttribute("data-value")).toBe(
        String(report.attempts.succeededAfterRetry),
      );
      expect(await tableRows(page, "batches")).toEqual(
        report.batches!.map((row) => [
          row.batchId ?? "(no batch)",
          row.totalMessages === null ? "–" : countText(row.totalMessages),
          countText(row.messages),
          countText(row.success),
          countText(row.failure),
          percentText(row.deliveryRate),
          row.fileName ?? "",
        ]),
      );
      // Per day (or hour) of --tz: the same buckets, in order, with the same counts.
      expect((await tableRows(page, "over-time")).map((cells) => cells.slice(1))).toEqual(
        report.overTime.buckets.map((bucket) => [countText(bucket.messages), countText(bucket.failures)]),
      );
      const firstDay = (await tableRows(page, "over-time"))[0]![0]!;
      expect(firstDay.startsWith(report.overTime.buckets[0]!.start.slice(0, 10))).toBe(true);
      const ttf = report.timeToFinal;
      for (const [id, ms] of [
        ["ttf-median", ttf.medianMs],
        ["ttf-p90", ttf.p90Ms],
        ["ttf-p99", ttf.p99Ms],
      ] as const)
        expect(await page.locator(`#${id}`).getAttribute("data-value")).toBe(String(ms));
      const shown = (await tableRows(page, "time-to-final")).map((cells) => cells[1]);
      expect(shown).toEqual(ttf.histogram.slice(0, shown.length).map((row) => countText(row.count)));
      expect(ttf.histogram.slice(shown.length).every((row) => row.count === 0)).toBe(true);
      await close();
    }
  });

  browserIt(
    "several campaigns: the comparison first, a row each and the total, then the total's report",
    { timeout: 180_000 },
    async () => {
      const { page, close } = await open("two", { javaScriptEnabled: false });
      const headings = await page.locator("h2").allTextContents();
      expect(headings[0]).toBe("Campaigns compared (2)");
      expect(headings[1]).toBe("All campaigns together");
      const rows = await tableRows(page, "comparison");
      expect(rows.map((cells) => cells[0])).toEqual(["cmp-spring-sale", "cmp-loyalty-es", "total"]);
      expect(rows[2]![1]).toBe(countText(json.two!.totals.messages));
      expect(await page.locator("#comparison-chart rect").count()).toBeGreaterThanOrEqual(4);
      await close();
    },
  );

  browserIt("no payload runs or becomes an element; each reads as the text it is", { timeout: 180_000 }, async () => {
    const { page, consoleErrors, dialogs, requests, close } = await open("hostile");
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(await page.locator("img, iframe, object, embed, a, form").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("script").getAttribute("type")).toBe("application/json");
    const campaigns = (await tableRows(page, "comparison")).map((cells) => cells[0]);
    expect(campaigns.slice(0, HOSTILE_PAYLOADS.length)).toEqual(
      // Controls and bidirectional overrides shown as escapes, as on a terminal; the rest exactly as sent.
      HOSTILE_PAYLOADS.map((payload) => payload.replace("\u202e", "\\u202e")),
    );
    await close();
  });

  browserIt(
    "is drawn at 1280 px, 390 px and in print, light and dark: not blank, the charts with area",
    { timeout: 180_000 },
    async () => {
      const shots = folder;
      for (const colorScheme of ["light", "dark"] as const) {
        for (const view of [
          { name: "1280", viewport: { width: 1280, height: 1000 } },
          { name: "390", viewport: { width: 390, height: 844 } },
          { name: "print", viewport: { width: 794, height: 1123 }, media: "print" as const },
        ]) {
          const { page, close } = await open("spring", { viewport: view.viewport, colorScheme });
          if (view.media) await page.emulateMedia({ media: view.media, colorScheme });
          const png = await page.screenshot({ fullPage: true });
          writeFileSync(path.join(shots, `spring-${view.name}-${colorScheme}.png`), png);
          const pixels = decodePng(png);
          expect(pixels.width).toBe(view.viewport.width);
          expect(distinctColours(pixels), `${view.name} ${colorScheme}`).toBeGreaterThan(50);
          // Mostly background, but far from all of it.
          const background =
            colorScheme === "dark" && !view.media ? ([13, 17, 23] as const) : ([255, 255, 255] as const);
          const share = shareOf(pixels, [...background]);
          expect(share, `${view.name} ${colorScheme}`).toBeGreaterThan(0.4);
          expect(share, `${view.name} ${colorScheme}`).toBeLessThan(0.98);
          const charts = page.locator("svg");
          expect(await charts.count()).toBeGreaterThanOrEqual(5);
          for (let i = 0; i < (await charts.count()); i++) {
            const box = await charts.nth(i).boundingBox();
            expect(box!.width * box!.height, `chart ${i}, ${view.name} ${colorScheme}`).toBeGreaterThan(5000);
          }
          if (view.media) {
            const breaks = await page
              .locator("figure")
              .evaluateAll((figures) =>
                figures.map((figure) => (globalThis as unknown as BrowserGlobals).getComputedStyle(figure).breakInside),
              );
            expect(new Set(breaks)).toEqual(new Set(["avoid"]));
          }
          await close();
        }
      }
    },
  );

  browserIt(
    "axe-core finds no serious or critical violation, light and dark, wide and narrow",
    { timeout: 180_000 },
    async () => {
      const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
      for (const name of ["spring", "two", "hostile"]) {
        for (const colorScheme of ["light", "dark"] as const) {
          for (const width of [1280, 390]) {
            // The page's CSP forbids every script, axe's too: bypassed for this test's context only.
            const { page, close } = await open(name, {
              bypassCSP: true,
              colorScheme,
              viewport: { width, height: 900 },
            });
            await page.addScriptTag({ content: axeSource });
            const violations = await page.evaluate(async () => {
              const axe = (
                globalThis as unknown as {
                  axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
                }
              ).axe;
              const result = await axe.run();
              return result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
            });
            expect(
              violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"),
              `${name} ${colorScheme} ${width}`,
            ).toEqual([]);
            await close();
          }
        }
      }
    },
  );
});
