// `stats --watch`: what changed between the first report of a watch and the latest one.
import type { StatsReport } from "./report.js";

export interface StatusChange {
  /** The status, or null for messages without one. */
  status: string | null;
  /** Messages with this status now, less at the start (negative when messages moved on from it). */
  change: number;
}

export interface ReportChanges {
  /** Since the first round. */
  elapsedMs: number;
  /** Messages counted now, less at the start. */
  messages: number;
  /** Status by status, largest change first; statuses that did not move are left out. */
  byStatus: StatusChange[];
  /** New messages per minute over the whole watch; null before a minute's worth of time has a meaning (first round). */
  messagesPerMinute: number | null;
}

export function changesSince(first: StatsReport, latest: StatsReport): ReportChanges {
  const elapsedMs = Date.parse(latest.generatedAt) - Date.parse(first.generatedAt);
  const before = new Map(first.byStatus.map((row) => [row.status, row.count]));
  const after = new Map(latest.byStatus.map((row) => [row.status, row.count]));
  const byStatus: StatusChange[] = [];
  for (const status of new Set([...before.keys(), ...after.keys()])) {
    const change = (after.get(status) ?? 0) - (before.get(status) ?? 0);
    if (change !== 0) byStatus.push({ status, change });
  }
  byStatus.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || String(a.status).localeCompare(String(b.status)));
  const messages = latest.totals.messages - first.totals.messages;
  return { elapsedMs, messages, byStatus, messagesPerMinute: elapsedMs > 0 ? (messages * 60_000) / elapsedMs : null };
}
