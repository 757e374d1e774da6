// `msgstat stats <campaignId...>` with several campaigns: one row a campaign, and the total, side by side,
// before the usual report of the total. Laid out by terminal/layout.ts as every table is: the figures
// join in the order they matter for a comparison (messages, the two rates) and a narrow terminal loses
// the detail first; the top error is the one column that is cut rather than left out.
import type { StatsReport } from "../stats/report.js";
import { countText, percentText } from "../core/numbers.js";
import { inlineSafe } from "../core/text.js";
import { drawLine, layOut, type Cell, type Slot } from "../terminal/layout.js";
import type { Palette } from "../terminal/palette.js";
import { cutToWidth, displayWidth, padToWidth } from "../terminal/width.js";

/** A campaign's row: its report, or (a campaign that could not be counted) why not, in a few words (stderr has all). */
export interface ComparisonRow {
  campaignId: string;
  report?: StatsReport;
  uncounted?: string;
}

const INDENT = "  ";
const GAP = 2;
const TOTAL = "total";

export interface Column {
  /** Header forms, preferred first: a narrower terminal takes a shorter one before leaving a column out. */
  headers: readonly string[];
  figure: (report: StatsReport) => string;
  /** Join order on a narrow terminal; the campaign column always shows. */
  rank: number;
  /** Only the top error is cut to fit (to at least this); figures are never cut. */
  min?: number;
  align: "left" | "right";
}

// Ranks: the rates and the counts behind them first, then what needs explaining (attempts, the top error).
export const COLUMNS: readonly Column[] = [
  { headers: ["messages"], figure: (r) => countText(r.totals.messages), rank: 1, align: "right" },
  { headers: ["success"], figure: (r) => countText(r.delivery.success), rank: 6, align: "right" },
  { headers: ["failure"], figure: (r) => countText(r.delivery.failure), rank: 5, align: "right" },
  { headers: ["not final"], figure: (r) => countText(r.delivery.notFinal), rank: 4, align: "right" },
  { headers: ["delivered"], figure: (r) => percentText(r.delivery.deliveryRate), rank: 2, align: "right" },
  { headers: ["failed"], figure: (r) => percentText(r.delivery.failureRate), rank: 3, align: "right" },
  { headers: ["attempts/msg", "att/msg"], figure: attemptsPerMessage, rank: 7, align: "right" },
  { headers: ["top error"], figure: topError, rank: 8, min: 9, align: "left" },
];

function attemptsPerMessage(report: StatsReport): string {
  return report.totals.messages === 0 ? "–" : (report.totals.attempts / report.totals.messages).toFixed(2);
}

/** The error code of the latest failed attempt that most failed messages share, and its share of them. */
function topError(report: StatsReport): string {
  const top = report.failures[0];
  if (top === undefined) return "";
  const name = top.other ? "(other errors)" : inlineSafe(top.errorCode ?? top.errorType ?? "(no code)");
  return `${name} ${percentText(top.share)}`;
}

/** The comparison under its caption: a header line, a row a campaign (in the order named) and the total's row. */
export function renderComparison(
  rows: readonly ComparisonRow[],
  total: StatsReport,
  options: { columns: number; palette: Palette },
): string {
  const { palette } = options;
  const width = Math.max(40, options.columns) - INDENT.length;
  const labels = [...rows.map((row) => inlineSafe(row.campaignId)), TOTAL];
  const reports = [...rows.map((row) => row.report), total];
  const cellsOf = (report: StatsReport | undefined) => COLUMNS.map((column) => (report ? column.figure(report) : ""));
  const figures = reports.map(cellsOf);
  const widest = (texts: string[]) => Math.max(0, ...texts.map(displayWidth));
  const slots: Slot[] = [
    { widths: [widest(["campaign", ...labels])] },
    ...COLUMNS.map((column, i): Slot => {
      const content = widest(figures.map((cells) => cells[i]!));
      return {
        widths: column.headers.map((header) => Math.max(content, displayWidth(header))),
        rank: column.rank,
        ...(column.min !== undefined ? { min: Math.min(column.min, content) } : {}),
      };
    }),
  ];
  // Placed as if every row were full: an uncounted campaign's reason then runs across the figures' columns.
  const placed = layOut(slots, width, GAP);
  const header = placed.map(({ index, form }): Cell => {
    if (index === 0) return { text: "campaign" };
    const column = COLUMNS[index - 1]!;
    return { text: column.headers[form]!, align: column.align };
  });
  const line = (label: string, cells: string[], style?: (text: string) => string): string =>
    INDENT +
    drawLine(
      placed,
      placed.map(({ index }): Cell => {
        if (index === 0) return { text: label, style };
        return { text: cells[index - 1]!, align: COLUMNS[index - 1]!.align };
      }),
      GAP,
    );
  const body = rows.map((row, i) => {
    if (row.report) return line(labels[i]!, figures[i]!);
    const campaign = INDENT + padToWidth(labels[i]!, placed[0]!.width);
    const room = Math.max(10, width + INDENT.length - displayWidth(campaign) - GAP);
    const why = cutToWidth(`not counted: ${inlineSafe(row.uncounted ?? "")}`, room);
    return `${campaign}${" ".repeat(GAP)}${palette.status("failure", why)}`;
  });
  return [
    palette.dim(INDENT + drawLine(placed, header, GAP)),
    ...body,
    line(TOTAL, figures[figures.length - 1]!, palette.bold),
  ].join("\n");
}
