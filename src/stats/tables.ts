// The report's tables for `--csv --by ...`: one table per choice, with the same names as the JSON keys
// so a spreadsheet and a jq script read the same vocabulary.
import type { StatsReport } from "./report.js";

export const TABLE_CHOICES = ["status", "error", "batch", "attempts", "time"] as const;
export type TableChoice = (typeof TABLE_CHOICES)[number];

export interface Table {
  header: string[];
  rows: unknown[][];
}

/** The "other" rows (values past a cap) are named so in CSV, where there is no flag column. */
const OTHER = "(other)";

export function reportTable(report: StatsReport, by: TableChoice): Table {
  switch (by) {
    case "status":
      return {
        header: ["status", "count", "share", "final"],
        rows: report.byStatus.map((row) => [row.other ? OTHER : row.status, row.count, row.share, row.final]),
      };
    case "error":
      return {
        header: ["errorType", "errorCode", "count", "share"],
        rows: report.failures.map((row) => [
          row.other ? OTHER : row.errorType,
          row.other ? OTHER : row.errorCode,
          row.count,
          row.share,
        ]),
      };
    case "batch":
      return {
        header: ["batchId", "fileName", "totalMessages", "messages", "success", "failure", "deliveryRate"],
        rows: (report.batches ?? []).map((row) => [
          row.other ? OTHER : row.batchId,
          row.fileName,
          row.totalMessages,
          row.messages,
          row.success,
          row.failure,
          row.deliveryRate,
        ]),
      };
    case "attempts":
      return {
        header: ["attempts", "count", "share", "success", "failure"],
        rows: report.attempts.buckets.map((row) => [row.attempts, row.count, row.share, row.success, row.failure]),
      };
    case "time":
      return {
        header: ["start", "interval", "messages", "failures"],
        rows: report.overTime.buckets.map((row) => [row.start, report.overTime.interval, row.messages, row.failures]),
      };
  }
}
