// The report as Prometheus metrics, in the text exposition format (0.0.4) node_exporter's textfile
// collector reads: one series set per campaign, no total (Prometheus sums), every label bounded. The
// metric names and what each means are documented for users in docs/monitoring.md: change both together.
import { blockSafe } from "../core/text.js";
import type { StatsReport } from "../stats/report.js";
import type { TimeToFinalBuckets } from "../stats/time-to-final.js";
import { LISTED_ROWS } from "./sections.js";

export interface PrometheusCampaign {
  campaignId: string;
  /** --batch: the series then carry a `batch` label too. */
  batchId?: string;
  /** Undefined for a campaign that could not be read to its end: only its `_up 0` and run time are written. */
  counted?: { report: StatsReport; timeToFinal: TimeToFinalBuckets };
}

type Labels = ReadonlyArray<readonly [string, string]>;
type Sample = { suffix?: string; labels: Labels; value: number };

interface Family {
  name: string;
  type: "gauge" | "histogram";
  help: string;
  samples: (campaign: PrometheusCampaign, base: Labels, at: number) => Sample[];
}

const seconds = (ms: number): number => ms / 1000;

const FAMILIES: readonly Family[] = [
  {
    name: "msgstat_campaign_up",
    type: "gauge",
    help: "1 when msgstat's last run read the campaign's messages to the end, 0 when it could not.",
    samples: (campaign, base) => [{ labels: base, value: campaign.counted ? 1 : 0 }],
  },
  {
    name: "msgstat_last_run_timestamp_seconds",
    type: "gauge",
    help: "When msgstat's last run wrote these metrics, in seconds since the Unix epoch.",
    samples: (_campaign, base, at) => [{ labels: base, value: seconds(at) }],
  },
  {
    name: "msgstat_messages",
    type: "gauge",
    help: "Messages by latest status.",
    samples: ({ counted }, base) =>
      summed(
        counted?.report.byStatus.map((row) => ({
          labels: [...base, ["status", row.other ? "other" : (row.status ?? "")]] as const,
          value: row.count,
        })) ?? [],
      ),
  },
  {
    name: "msgstat_attempts",
    type: "gauge",
    help: "Send attempts of the messages.",
    samples: ({ counted }, base) => (counted ? [{ labels: base, value: counted.report.totals.attempts }] : []),
  },
  {
    name: "msgstat_failed_messages",
    type: "gauge",
    help:
      "Failed messages by the error of their latest failed attempt; " +
      `past the ${LISTED_ROWS} most frequent, "other".`,
    samples: ({ counted }, base) => (counted ? failedSamples(counted.report, base) : []),
  },
  {
    name: "msgstat_delivery_ratio",
    type: "gauge",
    help: "Messages delivered (success) over the messages in a final state (success or failure).",
    samples: ({ counted }, base) => ratioSample(counted?.report.delivery.deliveryRate, base),
  },
  {
    name: "msgstat_failure_ratio",
    type: "gauge",
    help: "Messages failed over the messages in a final state (success or failure).",
    samples: ({ counted }, base) => ratioSample(counted?.report.delivery.failureRate, base),
  },
  {
    name: "msgstat_time_to_final_status_seconds",
    type: "histogram",
    help: "Time from a message's creation to the last update of its attempts, of messages in a final state.",
    samples: ({ counted }, base) => {
      if (!counted) return [];
      const { buckets, count, sumMs } = counted.timeToFinal;
      return [
        ...buckets.map(({ leMs, count: atMost }) => ({
          suffix: "_bucket",
          labels: [...base, ["le", String(seconds(leMs))]] as const,
          value: atMost,
        })),
        { suffix: "_bucket", labels: [...base, ["le", "+Inf"]], value: count },
        { suffix: "_sum", labels: base, value: seconds(sumMs) },
        { suffix: "_count", labels: base, value: count },
      ];
    },
  },
];

/** The metrics of these campaigns, in the order given, as of `at` (ms since the epoch). */
export function renderPrometheus(campaigns: readonly PrometheusCampaign[], at: number): string {
  let text = "";
  for (const family of FAMILIES) {
    const lines: string[] = [];
    for (const campaign of campaigns) {
      const base: Labels = [
        ["campaign", campaign.campaignId],
        ...(campaign.batchId === undefined ? [] : [["batch", campaign.batchId] as const]),
      ];
      for (const sample of family.samples(campaign, base, at))
        lines.push(`${family.name}${sample.suffix ?? ""}${labelText(sample.labels)} ${sample.value}\n`);
    }
    if (lines.length === 0) continue;
    text += `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n${lines.join("")}`;
  }
  return text;
}

/**
 * A label value as the format requires (backslash, double quote and newline escaped); server text's other
 * controls and bidi marks are first made visible (`\x1b`), so the file is safe to show on a terminal.
 */
export function labelValue(text: string): string {
  return blockSafe(text).replace(/[\\"\n]/g, (ch) => (ch === "\n" ? "\\n" : `\\${ch}`));
}

function labelText(labels: Labels): string {
  return `{${labels.map(([name, value]) => `${name}="${labelValue(value)}"`).join(",")}}`;
}

/** The most frequent errors, each a series; the rest summed under error_type and error_code "other". */
function failedSamples(report: StatsReport, base: Labels): Sample[] {
  const named = report.failures.filter((row) => !row.other);
  const kept = named.slice(0, LISTED_ROWS);
  const rest = report.failures.reduce((sum, row) => sum + row.count, 0) - kept.reduce((sum, row) => sum + row.count, 0);
  return summed([
    ...kept.map((row) => ({
      labels: [...base, ["error_type", row.errorType ?? ""], ["error_code", row.errorCode ?? ""]] as const,
      value: row.count,
    })),
    ...(rest > 0
      ? [{ labels: [...base, ["error_type", "other"], ["error_code", "other"]] as const, value: rest }]
      : []),
  ]);
}

/** No ratio without a final message: the series is left out, as Prometheus has no "none" but NaN. */
function ratioSample(ratio: number | null | undefined, base: Labels): Sample[] {
  return ratio === null || ratio === undefined ? [] : [{ labels: base, value: ratio }];
}

/**
 * Samples whose labels read the same (no status and an empty one; a real "other" beside the rest) are one
 * series, their values added: node_exporter serves one of a series given twice, logging an error.
 */
function summed(samples: Sample[]): Sample[] {
  const byLabels = new Map<string, Sample>();
  for (const sample of samples) {
    const key = labelText(sample.labels);
    const seen = byLabels.get(key);
    if (seen) seen.value += sample.value;
    else byLabels.set(key, { ...sample });
  }
  return [...byLabels.values()];
}
