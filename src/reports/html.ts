// The delivery report as one self-contained HTML page (`stats --format html`, `-o report.html`): the
// same figures as `stats --json`, each in a real table, with inline SVG charts drawn here. No script:
// the page reads completely without one, and its Content-Security-Policy forbids every fetch, so it
// opens offline and from an email. Light and dark follow prefers-color-scheme; print keeps each chart
// and table head on one page. Every string goes through reports/html-escape.ts for where it lands.
import { createHash } from "node:crypto";
import type { StatsReport } from "../stats/report.js";
import { countText, percentText } from "../core/numbers.js";
import { INTERVAL_MS } from "../stats/time-buckets.js";
import { inlineSafe } from "../core/text.js";
import type { TimeZone } from "../core/time.js";
import {
  drawSections,
  durationFigure,
  histogramLabel,
  lateVerdict,
  shownHistogram,
  type SectionDrawers,
} from "./sections.js";
import { contiguous } from "./terminal.js";
import { htmlAttribute, htmlText, jsonInScript, svgText } from "./html-escape.js";
import {
  aboutLines,
  attemptsLabel,
  batchLabel,
  COMPARISON_COLUMNS,
  errorCodeLabel,
  errorTypeLabel,
  notCountedReasons,
  notCountedText,
  reportTitle,
  statusLabel,
  partialBucketsNote,
  timeBucketLabel,
  timeRowLabel,
  type ComparisonRow,
  type ShareableReport,
} from "./parts.js";

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--rule:#d0d7de;--head:#f6f8fa;
--success:#1a7f37;--failure:#cf222e;--pending:#9a6700;--bar:#0969da;--grid:#d8dee4}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--rule:#30363d;
--head:#161b22;--success:#3fb950;--failure:#ff7b72;--pending:#d29922;--bar:#58a6ff;--grid:#30363d}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:16px;background:var(--bg);color:var(--fg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.5em;margin:.2em 0 .4em}h2{font-size:1.2em;margin:1.6em 0 .5em;border-bottom:1px solid var(--rule)}
h3{font-size:1.05em;margin:1.2em 0 .4em}
dl.about{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 1em;color:var(--muted)}
dl.about dt{font-weight:600}dl.about dd{margin:0;overflow-wrap:anywhere}
.headline{display:flex;flex-wrap:wrap;gap:12px;margin:.5em 0}
.headline div{border:1px solid var(--rule);border-radius:6px;padding:8px 12px;min-width:140px}
.headline .value{display:block;font-size:1.5em;font-weight:600}
.section{break-inside:avoid-page}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.4em 0 1em;min-width:50%}
caption{text-align:left;color:var(--muted);padding:2px 0;caption-side:top}
.scroll caption{position:sticky;left:0;max-width:calc(100vw - 32px)}
th,td{border-bottom:1px solid var(--rule);padding:4px 10px;text-align:left;vertical-align:top;overflow-wrap:break-word}
thead th{background:var(--head);font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.id{white-space:nowrap}
@media (max-width:600px){body{padding:12px}th,td{padding:4px 6px}table{font-size:.93em}
svg:not(.narrow) text{font-size:21px}svg text.tick:not(.sparse){display:none}
table.cards,table.cards tbody,table.cards tr,table.cards th,table.cards td{display:block;width:auto}
table.cards{min-width:0}table.cards caption{display:block}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.cards tr{border:1px solid var(--rule);border-radius:6px;margin:0 0 8px;padding:4px 10px}
table.cards th,table.cards td{border:0;padding:2px 0;text-align:right}table.cards th{text-align:left}
table.cards td{display:flex;justify-content:space-between;gap:12px;white-space:normal;overflow-wrap:anywhere}
table.cards td::before{content:attr(data-label);color:var(--muted);text-align:left;white-space:nowrap}
table.cards tr.total{border-width:2px}table.cards tr.total th,table.cards tr.total td{border-top:0}}
tr.total th,tr.total td{font-weight:600;border-top:2px solid var(--rule)}
figure{margin:.4em 0 1em;break-inside:avoid}
svg{display:block;width:100%;height:auto;max-width:720px}svg.narrow{max-width:560px}
.pair>*{min-width:0}
@media (min-width:1000px){.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:28px;
align-items:start}}
svg text{fill:var(--fg);font:14px system-ui,sans-serif}
svg .muted{fill:var(--muted)}svg .tick{font-size:12px}
svg .grid{stroke:var(--grid);stroke-width:1}svg .partial-column{opacity:.45}
.s-success{fill:var(--success)}.s-failure{fill:var(--failure)}.s-pending{fill:var(--pending)}.s-bar{fill:var(--bar)}
.legend{color:var(--muted);font-size:.9em}
.swatch{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;vertical-align:-.05em}
.w-success{background:var(--success)}.w-failure{background:var(--failure)}.w-pending{background:var(--pending)}
.w-bar{background:var(--bar)}.partial-key{margin-left:.8em}
.note{color:var(--muted)}
.partial{border-left:4px solid var(--failure);padding:6px 12px;margin:.4em 0 1em;background:var(--head)}
footer{margin-top:2em;color:var(--muted);font-size:.9em}
@media print{:root{color-scheme:light;--bg:#fff;--fg:#000;--muted:#444;--rule:#bbb;--head:#eee;
--success:#1a7f37;--failure:#cf222e;--pending:#9a6700;--bar:#0969da;--grid:#ccc}
@page{margin:12mm}body{max-width:none;padding:0;font-size:11pt}
.headline div{break-inside:avoid}thead{display:table-header-group}tr{break-inside:avoid}
h2,h3{break-after:avoid}.scroll{overflow:visible}}
`.trim();

/** The Content-Security-Policy: nothing may load; the one <style> is allowed by its hash (see docs/report.md). */
function contentSecurityPolicy(): string {
  const hash = createHash("sha256").update(STYLE).digest("base64");
  return `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
}

export function renderHtmlReport(input: ShareableReport): string {
  const { total } = input;
  const title = reportTitle(total);
  const missing = notCountedText(total, notCountedReasons(input));
  const carried = input.campaigns ? { campaigns: input.campaigns.map((row) => row.report ?? null), total } : total;
  const sections = drawSections(input, HTML_SECTIONS);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlAttribute(contentSecurityPolicy())}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="msgstat ${htmlAttribute(input.version)}">
<title>${htmlText(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${idsWhole(htmlText(title), total)}</h1>
${missing ? `<p class="partial" id="not-counted">${idsWhole(htmlText(missing), total)}</p>\n` : ""}<dl class="about">
${aboutLines(input)
  .map(([term, value]) => {
    const shown = term === "Campaigns" || term === "Batch" ? idsWhole(htmlText(value), total) : htmlText(value);
    return `<dt>${htmlText(term)}</dt><dd>${shown}</dd>`;
  })
  .join("\n")}
</dl>
</header>
<main>
${sections.join("\n")}
</main>
<footer>Made by msgstat ${htmlText(input.version)}. The same figures as <code>msgstat stats --json</code>,
which this page carries too.</footer>
<!-- The figures as data, as stats --json prints them: a script element of type application/json is never run. -->
<script type="application/json" id="msgstat-report">${jsonInScript(carried)}</script>
</body>
</html>
`;
}

/** The campaign and batch ids in escaped text, each kept on one line: a browser would break them at a hyphen. */
function idsWhole(escaped: string, report: StatsReport): string {
  const ids = [
    ...(report.campaignIds ?? [report.campaignId]),
    ...(report.campaignIdsNotCounted ?? []),
    ...(report.batchId === null ? [] : [report.batchId]),
  ];
  const pattern = ids
    .map((id) => htmlText(inlineSafe(id)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .sort((a, b) => b.length - a.length)
    .join("|");
  return pattern === "" ? escaped : escaped.replace(new RegExp(pattern, "g"), (id) => `<span class="id">${id}</span>`);
}

// ---- sections ----

const HTML_SECTIONS: SectionDrawers<string> = {
  comparison: ({ campaigns, total }, caption) => comparisonSection(campaigns ?? [], total, caption),
  summary: ({ total }, caption) => summarySection(total, caption),
  status: ({ total }, caption) => statusSection(total, caption),
  failures: ({ total }, caption) => failureSection(total, caption),
  attempts: ({ total }, caption) => attemptSection(total, caption),
  timeToFinal: ({ total }, caption) => timeToFinalSection(total, caption),
  batches: ({ total }, caption) => batchSection(total, caption),
  overTime: (input, caption) => overTimeSection(input.total, input.timeZone, caption),
};

function comparisonSection(rows: readonly ComparisonRow[], total: StatsReport, caption: string): string {
  const header = `<tr><th scope="col">campaign</th>${COMPARISON_COLUMNS.map(
    (column) => `<th scope="col"${column.numeric ? ' class="num"' : ""}>${htmlText(column.header)}</th>`,
  ).join("")}</tr>`;
  const line = (label: string, report: StatsReport | undefined, uncounted: string | undefined, cls = "") => {
    const cells = report
      ? COMPARISON_COLUMNS.map(
          (column) =>
            `<td${column.numeric ? ' class="num"' : ""} data-label="${htmlAttribute(column.header)}">` +
            `${htmlText(column.figure(report))}</td>`,
        ).join("")
      : `<td colspan="${COMPARISON_COLUMNS.length}">not counted: ${htmlText(uncounted ?? "")}</td>`;
    return `<tr${cls}><th scope="row" class="id">${htmlText(label)}</th>${cells}</tr>`;
  };
  const body = [
    ...rows.map((row) => line(row.campaignId, row.report, row.uncounted)),
    line("total", total, undefined, ' class="total"'),
  ].join("\n");
  const counted = rows.filter((row) => row.report);
  const chart = stackedBars(
    "comparison-chart",
    "Outcome of each campaign's messages",
    counted.map((row) => ({
      label: row.campaignId,
      parts: [
        { cls: "success", value: row.report!.delivery.success, name: "success" },
        { cls: "failure", value: row.report!.delivery.failure, name: "failure" },
        { cls: "pending", value: row.report!.delivery.notFinal, name: "not final" },
      ],
    })),
  );
  return `<section class="section" aria-labelledby="h-comparison">
<h2 id="h-comparison">${htmlText(caption)}</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Campaigns compared, table">
<table id="comparison" class="cards"><caption>One row a campaign, then the total of those counted</caption>
<thead>${header}</thead><tbody>
${body}
</tbody></table></div>
${chart}
</section>`;
}

function summarySection(report: StatsReport, caption: string): string {
  if (report.totals.messages === 0)
    return `<section class="section"><h2>${htmlText(caption)}</h2><p>No messages: nothing to report.</p></section>`;
  const { delivery, totals, threshold } = report;
  const headline = [
    ["total-messages", "Messages", countText(totals.messages), totals.messages],
    ["total-attempts", "Attempts", countText(totals.attempts), totals.attempts],
    ["total-delivery-rate", "Delivery rate", percentText(delivery.deliveryRate), delivery.deliveryRate],
    ["total-failure-rate", "Failure rate", percentText(delivery.failureRate), delivery.failureRate],
  ] as const;
  return `<section class="section" aria-labelledby="h-summary">
<h2 id="h-summary">${htmlText(caption)}</h2>
<div class="headline">${headline.map(([id, label, text, value]) => headlineBox(id, label, value, text)).join("")}</div>
<p>${countText(delivery.success)} of ${countText(delivery.final)} final messages succeeded, ${countText(
    delivery.failure,
  )} failed; ${countText(delivery.notFinal)} not final yet (final = success or failure).${
    totals.undated > 0 ? ` ${countText(totals.undated)} without a readable createdAt.` : ""
  }</p>
${
  threshold
    ? `<p id="threshold">--max-failure-rate ${htmlText(String(threshold.maxFailureRate))}%: ${
        !threshold.checked
          ? "not checked, no message is final"
          : threshold.exceeded
            ? "<strong>above the limit</strong>"
            : "within the limit"
      }</p>`
    : ""
}
</section>`;
}

function statusSection(report: StatsReport, caption: string): string {
  const rows = report.byStatus.map((row) => ({
    label: statusLabel(row),
    cls: row.status === "success" ? "success" : row.status === "failure" ? "failure" : "pending",
    value: row.count,
  }));
  return section(
    "status",
    caption,
    pair(
      table(
        "by-status",
        "Messages by latestStatus",
        ["status", "messages", "share", "final"],
        report.byStatus.map((row) => [
          text(statusLabel(row)),
          figure(row.count),
          share(row.share),
          text(row.final ? "yes" : "no"),
        ]),
      ),
      horizontalBars("status-chart", "Messages by status", rows),
    ),
  );
}

function failureSection(report: StatsReport, caption: string): string {
  return section(
    "failures",
    caption,
    pair(
      table(
        "failures",
        "Failed messages by the error of their latest failed attempt",
        // The figures before the error type, so that a phone shows them beside the code.
        ["error code", "messages", "share", "error type"],
        report.failures.map((row) => [
          name(errorCodeLabel(row)),
          figure(row.count),
          share(row.share),
          name(errorTypeLabel(row)),
        ]),
      ),
      horizontalBars(
        "failures-chart",
        "Failed messages by error",
        report.failures.slice(0, 20).map((row) => ({ label: errorCodeLabel(row), cls: "failure", value: row.count })),
      ),
    ),
  );
}

function attemptSection(report: StatsReport, caption: string): string {
  const { buckets, succeededAfterRetry } = report.attempts;
  return section(
    "attempts",
    caption,
    pair(
      table(
        "attempts",
        "Messages by their number of attempts",
        ["attempts", "messages", "share", "success", "failure"],
        buckets.map((row) => [
          name(attemptsLabel(row.attempts)),
          figure(row.count),
          share(row.share),
          figure(row.success),
          figure(row.failure),
        ]),
      ),
      horizontalBars(
        "attempts-chart",
        "Messages by number of attempts",
        buckets.map((row) => ({ label: attemptsLabel(row.attempts), cls: "bar", value: row.count })),
      ),
    ) +
      `<p id="succeeded-after-retry" data-value="${succeededAfterRetry}">${countText(succeededAfterRetry)} ${
        succeededAfterRetry === 1 ? "message" : "messages"
      } succeeded only after a retry.</p>`,
  );
}

/** --max-time-to-final's result, under the section's figures. */
function lateParagraph(report: StatsReport): string {
  const verdict = lateVerdict(report);
  if (!verdict) return "";
  const text = htmlText(verdict.text);
  return `\n<p id="time-threshold">${verdict.exceeded ? `<strong>${text}</strong>` : text}</p>`;
}

function timeToFinalSection(report: StatsReport, caption: string): string {
  const ttf = report.timeToFinal;
  const figures = [
    ["median", "Median", ttf.medianMs],
    ["p90", "90th percentile", ttf.p90Ms],
    ["p99", "99th percentile", ttf.p99Ms],
  ] as const;
  const lead = `<div class="headline">${figures
    .map(([id, label, ms]) => headlineBox(`ttf-${id}`, label, ms, durationFigure(ms)))
    .join("")}</div>
<p class="note">From a message's createdAt to the updatedAt of its last attempt, for the ${countText(
    ttf.measured,
  )} final messages that have both${
    ttf.withoutTimes > 0 ? `; ${countText(ttf.withoutTimes)} final messages without those times are left out` : ""
  }. Not the time to the handset: the service shows no handset receipt.
Percentiles are within 1 % (msgstat help stats).</p>${lateParagraph(report)}`;
  return section(
    "time-to-final",
    caption,
    lead +
      columnChart(
        "ttf-chart",
        "Final messages by time to final status",
        shownHistogram(ttf).map((row) => ({ label: histogramLabel(row), value: row.count, failed: 0 })),
        false,
      ) +
      table(
        "time-to-final",
        "Final messages by time from creation to their last attempt's update",
        ["time to final status", "messages", "share"],
        shownHistogram(ttf).map((row) => [
          text(histogramLabel(row)),
          figure(row.count),
          share(ttf.measured === 0 ? 0 : row.count / ttf.measured),
        ]),
      ),
  );
}

function batchSection(report: StatsReport, caption: string): string {
  return section(
    "batches",
    caption,
    table(
      "batches",
      "Each batch of the campaign, then the messages in no batch",
      // The file name last: the figures stay beside the batch id on a phone.
      ["batch id", "size", "counted", "success", "failure", "delivered", "file"],
      (report.batches ?? []).map((row) => [
        name(batchLabel(row)),
        row.totalMessages === null ? text("–", true) : figure(row.totalMessages),
        figure(row.messages),
        figure(row.success),
        figure(row.failure),
        share(row.deliveryRate),
        name(row.fileName ?? ""),
      ]),
    ),
  );
}

function overTimeSection(report: StatsReport, zone: TimeZone, caption: string): string {
  const { interval, buckets, unplotted } = report.overTime;
  const label = (start: string) => timeBucketLabel(start, report, zone);
  return section(
    "over-time",
    caption,
    columnChart(
      "over-time-chart",
      `Messages and failures per ${interval}`,
      drawnBuckets(report, zone).map((bucket) => ({
        // Without the year, which the table and the span above give: the labels stay short enough to read.
        // A mark of one character: the labels have little room; the legend and the table say it in words.
        label: label(bucket.start).slice(5) + (bucket.partial ? CHART_PARTIAL_MARK : ""),
        value: bucket.messages,
        failed: bucket.failures,
        partial: bucket.partial === true,
      })),
      true,
    ) +
      table(
        "over-time",
        `Messages created per ${interval} of ${zone.name}, and how many of them failed`,
        [interval, "messages", "failed"],
        buckets.map((bucket) => [
          text(timeRowLabel(bucket, report, zone)),
          figure(bucket.messages),
          figure(bucket.failures),
        ]),
      ) +
      (partialBucketsNote(report)
        ? `<p class="note" id="partial-buckets">${htmlText(partialBucketsNote(report))}</p>`
        : "") +
      (unplotted > 0
        ? `<p class="note">${countText(unplotted)} messages with createdAt decades away from the rest ` +
          "are not drawn.</p>"
        : ""),
  );
}

/** The buckets with the empty ones put back (a gap shows as a gap), unless that would be too many columns. */
function drawnBuckets(report: StatsReport, zone: ShareableReport["timeZone"]) {
  const { interval, buckets } = report.overTime;
  const span = Date.parse(buckets[buckets.length - 1]!.start) - Date.parse(buckets[0]!.start);
  return span / INTERVAL_MS[interval] <= MAX_COLUMNS ? contiguous(buckets, interval, zone) : buckets;
}

const MAX_COLUMNS = 400;

/** After a column chart's label of an hour or day counted only in part (the table writes PARTIAL_MARK). */
const CHART_PARTIAL_MARK = " *";

// ---- tables ----

interface CellHtml {
  html: string;
  numeric: boolean;
  /** An id, an error code, a file name: kept on one line, never broken at its hyphens. */
  whole?: boolean;
}

const text = (value: string, numeric = false): CellHtml => ({ html: htmlText(value), numeric });
const name = (value: string): CellHtml => ({ html: htmlText(value), numeric: false, whole: true });
/** A count: shown with separators, its exact value in data-value for whoever reads the page as data. */
const figure = (value: number): CellHtml => ({
  html: `<span data-value="${value}">${countText(value)}</span>`,
  numeric: true,
});
const share = (value: number | null): CellHtml => ({
  html: `<span data-value="${value ?? ""}">${percentText(value)}</span>`,
  numeric: true,
});

function table(id: string, caption: string, headers: string[], rows: CellHtml[][]): string {
  const head = headers
    .map((header, i) => `<th scope="col"${rows[0]?.[i]?.numeric ? ' class="num"' : ""}>${htmlText(header)}</th>`)
    .join("");
  const body = rows
    .map(
      (cells) =>
        `<tr>${cells
          .map((cell, i) => {
            const cls = cell.numeric ? ' class="num"' : cell.whole ? ' class="id"' : "";
            if (i === 0) return `<th scope="row"${cls}>${cell.html}</th>`;
            return `<td${cls} data-label="${htmlAttribute(headers[i] ?? "")}">${cell.html}</td>`;
          })
          .join("")}</tr>`,
    )
    .join("\n");
  // On a phone, a table of more than three columns becomes a card a row, each figure beside its column's
  // name (data-label), so none is behind a sideways scroll. Wider still, it scrolls: focusable, for a keyboard.
  const cards = headers.length > 3 ? ' class="cards"' : "";
  return `<div class="scroll" tabindex="0" role="region" aria-label="${htmlAttribute(caption)}">
<table id="${id}"${cards}><caption>${htmlText(caption)}</caption>
<thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>`;
}

/** A table and its chart: side by side on a wide screen, one under the other on a narrow one. */
function pair(tableHtml: string, chart: string): string {
  return `<div class="pair">${tableHtml}${chart}</div>`;
}

function section(id: string, heading: string, body: string): string {
  return `<section class="section" aria-labelledby="h-${id}">
<h2 id="h-${id}">${htmlText(heading)}</h2>
${body}
</section>`;
}

// ---- charts ----

const WIDTH = 720;
/**
 * The size of a wide chart's text on a phone, in the chart's units (the stylesheet's 21px): its 720 units
 * are drawn about 366 px wide at 390, so the text is about 10.7 px there.
 */
const PHONE_TEXT = 21;
/** The bar charts beside a table: narrower, so their text stays readable on a phone. */
const BARS_WIDTH = 480;
const LABEL_ROOM = 190;
/** Chart labels are cut to this many characters; the table beside each chart has the whole text. */
const LABEL_CHARS = 22;

const cut = (label: string): string =>
  [...label].length > LABEL_CHARS ? `${[...label].slice(0, LABEL_CHARS - 1).join("")}…` : label;

/** A chart: its viewBox scales to the width it has, so the whole chart shows on a phone too. */
function svgOpen(id: string, height: number, title: string, description: string, width = WIDTH): string {
  const narrow = width === WIDTH ? "" : ' class="narrow"';
  return `<figure><svg id="${id}"${narrow} viewBox="0 0 ${width} ${height}" role="img"
aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-title">${svgText(title)}</title><desc id="${id}-desc">${svgText(description)}</desc>`;
}

const svgClose = "</svg></figure>";

const fixed = (value: number): string => value.toFixed(1);

/** A bar of a chart, its colour from its class (s-success, s-failure, s-pending, s-bar), set by the stylesheet. */
function rect(cls: string, x: number, y: number, width: number, height: number): string {
  return `<rect class="s-${cls}" x="${fixed(x)}" y="${fixed(y)}" width="${fixed(width)}" height="${fixed(height)}"/>`;
}

/** Text in a chart, escaped for SVG; `rotate` turns it about its anchor, in degrees. */
function svgLabel(
  x: number,
  y: number,
  label: string,
  options: { cls?: string; anchor?: "start" | "middle" | "end"; rotate?: number } = {},
): string {
  const cls = options.cls ? ` class="${options.cls}"` : "";
  const anchor = options.anchor ? ` text-anchor="${options.anchor}"` : "";
  const turn = options.rotate ? ` transform="rotate(${options.rotate} ${fixed(x)} ${fixed(y)})"` : "";
  return `<text${cls} x="${fixed(x)}" y="${fixed(y)}"${anchor}${turn}>${svgText(label)}</text>`;
}

/** A headline figure: its label, and its value shown and (data-value) exact. */
function headlineBox(id: string, label: string, value: number | null, shown: string): string {
  return (
    `<div><span class="label">${htmlText(label)}</span> ` +
    `<span class="value" id="${id}" data-value="${value ?? ""}">${htmlText(shown)}</span></div>`
  );
}

/** One bar a row, scaled to the largest; the figure at the bar's end. */
function horizontalBars(id: string, title: string, rows: Array<{ label: string; cls: string; value: number }>): string {
  if (rows.length === 0) return "";
  const rowHeight = 24;
  const height = rows.length * rowHeight + 8;
  const most = Math.max(1, ...rows.map((row) => row.value));
  const room = BARS_WIDTH - LABEL_ROOM - 70;
  const figures = rows.map((row) => `${row.label} ${countText(row.value)}`).join("; ");
  const description = `${title}: ${figures}. The table has every figure.`;
  const bars = rows
    .map((row, i) => {
      const y = 4 + i * rowHeight;
      const width = row.value === 0 ? 0 : Math.max(1, (row.value / most) * room);
      return (
        `<text x="${LABEL_ROOM - 8}" y="${y + 16}" text-anchor="end">${svgText(cut(row.label))}</text>` +
        rect(row.cls, LABEL_ROOM, y + 3, width, rowHeight - 8) +
        `<text x="${(LABEL_ROOM + width + 6).toFixed(1)}" y="${y + 16}">${countText(row.value)}</text>`
      );
    })
    .join("\n");
  return `${svgOpen(id, height, title, description, BARS_WIDTH)}\n${bars}\n${svgClose}`;
}

/** One bar a campaign, split into success, failure and not final, each as a share of its messages. */
function stackedBars(
  id: string,
  title: string,
  rows: Array<{ label: string; parts: Array<{ cls: string; value: number; name: string }> }>,
): string {
  if (rows.length === 0) return "";
  const rowHeight = 26;
  const height = rows.length * rowHeight + 30;
  const room = BARS_WIDTH - LABEL_ROOM - 30;
  const description = `${title}: ${rows
    .map((row) => `${row.label}: ${row.parts.map((part) => `${countText(part.value)} ${part.name}`).join(", ")}`)
    .join("; ")}.`;
  const bars = rows
    .map((row, i) => {
      const y = 4 + i * rowHeight;
      const whole = row.parts.reduce((sum, part) => sum + part.value, 0);
      let x = LABEL_ROOM;
      const pieces = row.parts
        .filter((part) => part.value > 0)
        .map((part) => {
          const width = (part.value / Math.max(1, whole)) * room;
          const drawn = rect(part.cls, x, y + 3, width, rowHeight - 8);
          x += width;
          return drawn;
        })
        .join("");
      return `<text x="${LABEL_ROOM - 8}" y="${y + 17}" text-anchor="end">${svgText(cut(row.label))}</text>${pieces}`;
    })
    .join("\n");
  const axisY = rows.length * rowHeight + 20;
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map((at) => svgLabel(LABEL_ROOM + at * room, axisY, `${at * 100}%`, { cls: "muted", anchor: "middle" }))
    .join("");
  const chart = `${svgOpen(id, height, title, description, BARS_WIDTH)}\n${bars}\n${axis}\n${svgClose}`;
  return chart + legend(rows[0]!.parts);
}

/** Columns over a sequence (time buckets, histogram bins); `withFailures` draws each column's failed part. */
function columnChart(
  id: string,
  title: string,
  columns: Array<{ label: string; value: number; failed: number; partial?: boolean }>,
  withFailures: boolean,
): string {
  if (columns.length === 0) return "";
  const top = 16;
  const plot = 164;
  // Room under the axis for the longest label turned 35°, at the size a phone draws it (PHONE_TEXT).
  const longest = Math.max(...columns.map((column) => [...cut(column.label)].length)) * PHONE_TEXT * 0.58;
  const bottom = Math.max(70, Math.ceil(22 + longest * Math.sin((35 * Math.PI) / 180)));
  const height = top + plot + bottom;
  // And room left of the axis for the first label, which reaches back as far as the longest.
  const left = Math.max(80, Math.ceil(longest * Math.cos((35 * Math.PI) / 180)));
  const room = WIDTH - left - 10;
  const most = Math.max(1, ...columns.map((column) => column.value));
  const step = room / columns.length;
  const barWidth = Math.max(1, step * 0.8);
  // Up to about 12 labels under the axis, evenly spaced.
  const every = Math.max(1, Math.ceil(columns.length / 12));
  const grid = axisTicks(most)
    .map((tick) => {
      const y = top + plot * (1 - tick / most);
      return (
        `<line class="grid" x1="${left}" x2="${WIDTH - 10}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"/>` +
        svgLabel(left - 6, y + 4, countText(tick), { cls: "muted", anchor: "end" })
      );
    })
    .join("");
  const bars = columns
    .map((column, i) => {
      const x = left + i * step + (step - barWidth) / 2;
      const h = (column.value / most) * plot;
      const failedHeight = withFailures ? (column.failed / most) * plot : 0;
      const base = top + plot;
      // Every other label stays on a phone, where the text is larger (the stylesheet hides the rest).
      const cls = i % (2 * every) === 0 ? "muted tick sparse" : "muted tick";
      const label =
        i % every === 0
          ? svgLabel(x + barWidth / 2, base + 14, cut(column.label), { cls, anchor: "end", rotate: -35 })
          : "";
      // A partial hour or day drawn paler: its height is of part of it only.
      const bars =
        (h > 0 ? rect("bar", x, base - h, barWidth, h) : "") +
        (failedHeight > 0 ? rect("failure", x, base - failedHeight, barWidth, failedHeight) : "");
      return (column.partial ? `<g class="partial-column">${bars}</g>` : bars) + label;
    })
    .join("\n");
  const description =
    `${title}, ${columns.length} columns; the busiest has ${countText(most)}. ` + "The table has every figure.";
  const partly = columns.some((column) => column.partial)
    ? `<span class="partial-key">${htmlText(`${CHART_PARTIAL_MARK.trim()} paler: counted in part`)}</span>`
    : "";
  const key = withFailures
    ? legend(
        [
          { cls: "bar", name: "messages" },
          { cls: "failure", name: "of which failed" },
        ],
        partly,
      )
    : "";
  return `${svgOpen(id, height, title, description)}\n${grid}\n${bars}\n${svgClose}${key}`;
}

/**
 * The figures a column chart's grid lines are drawn at: 0 and multiples of a round step (1, 2 or 5 times a
 * power of ten), the largest such step that gives at least two lines above 0 up to the busiest column.
 */
export function axisTicks(most: number): number[] {
  let step = 1;
  for (let power = 1; power <= most / 2; power *= 10)
    step = Math.max(step, ...[power, power * 2, power * 5].filter((candidate) => candidate <= most / 2));
  const ticks: number[] = [];
  for (let tick = 0; tick <= most; tick += step) ticks.push(tick);
  return ticks;
}

function legend(parts: Array<{ cls: string; name: string }>, more = ""): string {
  const swatch = (cls: string) => (cls === "bar" ? "w-bar" : `w-${cls}`);
  return `<p class="legend">${parts
    .map((part) => `<span class="swatch ${swatch(part.cls)}" aria-hidden="true"></span>${htmlText(part.name)}`)
    .join("")}${more}</p>`;
}
