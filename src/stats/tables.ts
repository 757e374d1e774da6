// The report's tables for `--csv --by ...`: one table per choice, with the same names as the JSON keys
// so a spreadsheet and a jq script read the same vocabulary.
import type { StatsReport } from "./report.js";

export const TABLE_CHOICES = ["summary", "status", "error", "batch", "attempts", "time"] as const;
export type TableChoice = (typeof TABLE_CHOICES)[number];

export interface Table {
  header: string[];
  rows: unknown[][];
}

/** The "other" rows (values past a cap) are named so in CSV, where there is no flag column. */
const OTHER = "(other)";
/** The messages in no batch: no id to give (and none to paste into --batch), so the name says what the row is. */
export const NO_BATCH = "(no batch)";
/** What `--csv` writes without `--by`: the headline figures, one row, so a daily cron run can append it. */
export const DEFAULT_TABLE: TableChoice = "summary";

/**
 * Shares and rates as fractions to 4 decimal places (0.8428 is 84.28 %) in every table, written with all
 * four so a column reads alike; the JSON keeps the full precision. Rounded before toFixed, which would
 * round the binary value (0.00005 is a hair below one half of 0.0001).
 */
export function fractionCell(value: number | null): string | null {
  return value === null ? null : (Math.round(value * 10_000) / 10_000).toFixed(4);
}

export function reportTable(report: StatsReport, by: TableChoice): Table {
  switch (by) {
    case "summary": {
      const { campaignId, batchId, filters, totals, delivery } = report;
      return {
        header: [
          "campaignId",
          "batchId",
          "since",
          "until",
          "messages",
          "attempts",
          "final",
          "success",
          "failure",
          "notFinal",
          "deliveryRate",
          "failureRate",
          "firstCreatedAt",
          "lastCreatedAt",
        ],
        rows: [
          [
            campaignId,
            batchId,
            filters.since,
            filters.until,
            totals.messages,
            totals.attempts,
            delivery.final,
            delivery.success,
            delivery.failure,
            delivery.notFinal,
            fractionCell(delivery.deliveryRate),
            fractionCell(delivery.failureRate),
            totals.firstCreatedAt,
            totals.lastCreatedAt,
          ],
        ],
      };
    }
    case "status":
      return {
        header: ["status", "count", "share", "final"],
        rows: report.byStatus.map((row) => [
          row.other ? OTHER : row.status,
          row.count,
          fractionCell(row.share),
          row.final,
        ]),
      };
    case "error":
      return {
        header: ["errorType", "errorCode", "count", "share"],
        rows: report.failures.map((row) => [
          row.other ? OTHER : row.errorType,
          row.other ? OTHER : row.errorCode,
          row.count,
          fractionCell(row.share),
        ]),
      };
    case "batch":
      return {
        header: ["batchId", "fileName", "totalMessages", "messages", "success", "failure", "deliveryRate"],
        rows: (report.batches ?? []).map((row) => [
          row.other ? OTHER : row.batchId,
          row.other || row.batchId !== null ? row.fileName : NO_BATCH,
          row.totalMessages,
          row.messages,
          row.success,
          row.failure,
          fractionCell(row.deliveryRate),
        ]),
      };
    case "attempts":
      return {
        header: ["attempts", "count", "share", "success", "failure"],
        rows: report.attempts.buckets.map((row) => [
          row.attempts,
          row.count,
          fractionCell(row.share),
          row.success,
          row.failure,
        ]),
      };
    case "time":
      return {
        header: ["start", "interval", "messages", "failures", "partial"],
        rows: report.overTime.buckets.map((row) => [
          row.start,
          report.overTime.interval,
          row.messages,
          row.failures,
          row.partial === true,
        ]),
      };
  }
}
