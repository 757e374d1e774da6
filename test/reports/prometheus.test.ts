// The exposition text of a report, written out by hand: family by family, a series set per campaign in the
// order given, labels escaped, series whose labels read the same summed into one.
import { describe, expect, it } from "vitest";
import type { CheckedMessage } from "../../src/core/message.js";
import { TimeZone } from "../../src/core/time.js";
import { StatsAccumulator } from "../../src/stats/accumulator.js";
import { buildReport } from "../../src/stats/report.js";
import { labelValue, renderPrometheus, type PrometheusCampaign } from "../../src/reports/prometheus.js";

const UTC = TimeZone.named("UTC")!;
const NOW = Date.parse("2025-05-01T12:00:00.000Z");

function counted(campaignId: string, messages: Array<Partial<CheckedMessage>>): PrometheusCampaign {
  const tally = new StatsAccumulator({ byBatch: false, timeZone: UTC });
  messages.forEach((fields, i) => tally.add({ id: `m${i}`, createdAt: "2025-05-01T10:00:00.000Z", ...fields }));
  const report = buildReport(tally, { campaignId, generatedAt: NOW, timeZone: UTC });
  return { campaignId, counted: { report, timeToFinal: tally.timeToFinal.buckets() } };
}

const attempt = (status: string, updatedAt: string, errorType?: string | null, errorCode?: string | null) => ({
  status,
  createdAt: "2025-05-01T10:00:01.000Z",
  updatedAt,
  ...(errorType === undefined ? {} : { errorType, errorCode }),
});

describe("renderPrometheus", () => {
  it("each family once, its campaigns in order; one not counted has only _up 0 and the run's time", () => {
    const a = counted("cmp-a", [
      { latestStatus: "success", numAttempts: 1, messageAttempts: [attempt("success", "2025-05-01T10:00:05.000Z")] },
      {
        latestStatus: "failure",
        numAttempts: 2,
        messageAttempts: [attempt("failure", "2025-05-01T10:05:00.000Z", "carrier_error", "E1")],
      },
      // No status and an empty one read the same as a label: one series.
      { numAttempts: 0 },
      { latestStatus: "", numAttempts: 0 },
    ]);
    const text = renderPrometheus([a, { campaignId: "cmp-b" }], NOW + 250);
    const buckets = (le: number | string, n: number) =>
      `msgstat_time_to_final_status_seconds_bucket{campaign="cmp-a",le="${le}"} ${n}`;
    expect(text.split("\n")).toEqual([
      "# HELP msgstat_campaign_up 1 when msgstat's last run read the campaign's messages to the end, 0 when it could not.",
      "# TYPE msgstat_campaign_up gauge",
      'msgstat_campaign_up{campaign="cmp-a"} 1',
      'msgstat_campaign_up{campaign="cmp-b"} 0',
      "# HELP msgstat_last_run_timestamp_seconds When msgstat's last run wrote these metrics, in seconds since the Unix epoch.",
      "# TYPE msgstat_last_run_timestamp_seconds gauge",
      'msgstat_last_run_timestamp_seconds{campaign="cmp-a"} 1746100800.25',
      'msgstat_last_run_timestamp_seconds{campaign="cmp-b"} 1746100800.25',
      "# HELP msgstat_messages Messages by latest status.",
      "# TYPE msgstat_messages gauge",
      'msgstat_messages{campaign="cmp-a",status=""} 2',
      'msgstat_messages{campaign="cmp-a",status="failure"} 1',
      'msgstat_messages{campaign="cmp-a",status="success"} 1',
      "# HELP msgstat_attempts Send attempts of the messages.",
      "# TYPE msgstat_attempts gauge",
      'msgstat_attempts{campaign="cmp-a"} 3',
      '# HELP msgstat_failed_messages Failed messages by the error of their latest failed attempt; past the 15 most frequent, "other".',
      "# TYPE msgstat_failed_messages gauge",
      'msgstat_failed_messages{campaign="cmp-a",error_type="carrier_error",error_code="E1"} 1',
      "# HELP msgstat_delivery_ratio Messages delivered (success) over the messages in a final state (success or failure).",
      "# TYPE msgstat_delivery_ratio gauge",
      'msgstat_delivery_ratio{campaign="cmp-a"} 0.5',
      "# HELP msgstat_failure_ratio Messages failed over the messages in a final state (success or failure).",
      "# TYPE msgstat_failure_ratio gauge",
      'msgstat_failure_ratio{campaign="cmp-a"} 0.5',
      "# HELP msgstat_time_to_final_status_seconds Time from a message's creation to the last update of its attempts, of messages in a final state.",
      "# TYPE msgstat_time_to_final_status_seconds histogram",
      buckets(1, 0),
      buckets(5, 1),
      ...[10, 30, 60, 120].map((le) => buckets(le, 1)),
      ...[300, 600, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 604800, "+Inf"].map((le) => buckets(le, 2)),
      'msgstat_time_to_final_status_seconds_sum{campaign="cmp-a"} 305',
      'msgstat_time_to_final_status_seconds_count{campaign="cmp-a"} 2',
      "",
    ]);
  });

  it("past the 15 most frequent errors, one other series; a real (other, other) error is added to it", () => {
    const failures = Array.from({ length: 20 }, (_, k) => ({
      latestStatus: "failure",
      messageAttempts: [attempt("failure", "2025-05-01T10:00:05.000Z", "t", `E${String(k).padStart(2, "0")}`)],
    }));
    // A server's own ("other", "other"), the most frequent: the rest is added to it, one series, not two.
    for (let i = 0; i < 3; i++)
      failures.push({
        latestStatus: "failure",
        messageAttempts: [attempt("failure", "2025-05-01T10:00:05.000Z", "other", "other")],
      });
    const lines = renderPrometheus([counted("c", failures)], NOW)
      .split("\n")
      .filter((line) => line.startsWith("msgstat_failed_messages{"));
    expect(lines).toEqual([
      'msgstat_failed_messages{campaign="c",error_type="other",error_code="other"} 9',
      ...Array.from(
        { length: 14 },
        (_, k) => `msgstat_failed_messages{campaign="c",error_type="t",error_code="E${String(k).padStart(2, "0")}"} 1`,
      ),
    ]);
  });

  it("a batch: its label after the campaign's", () => {
    const text = renderPrometheus([{ campaignId: "c", batchId: "b" }], NOW);
    expect(text).toContain('msgstat_campaign_up{campaign="c",batch="b"} 0\n');
  });
});

describe("labelValue", () => {
  it.each([
    ["plain", "plain"],
    ['say "hi"', 'say \\"hi\\"'],
    ["C:\\path", "C:\\\\path"],
    ["two\nlines", "two\\nlines"],
    ["\u001b[31mred", "\\\\x1b[31mred"],
    ["cr\r", "cr\\\\r"],
    ["rtl\u202e", "rtl\\\\u202e"],
    ["日本語 🎉", "日本語 🎉"],
  ])("%j is written %s", (text, written) => {
    expect(labelValue(text)).toBe(written);
  });
});
