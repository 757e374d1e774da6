// The help topics: each is docs/<name>.md, shipped in the package (package.json `files`), shown by
// `msgstat help <name>` and made a section of the man page (scripts/man-page.mjs reads this list
// from the built program, so the two never differ). In the order `msgstat help` lists them.
export interface Topic {
  name: string;
  summary: string;
}

export const TOPICS: readonly Topic[] = [
  { name: "config", summary: "profiles, settings, which source wins; time zones; completion" },
  { name: "auth", summary: "credentials: the five token sources, the keyring, msgstat auth" },
  { name: "proxy", summary: "proxies (HTTPS_PROXY, NO_PROXY) and TLS trust (--ca-file)" },
  { name: "formats", summary: "table, tsv, json, jsonl, csv and -o; paging, --limit and --all" },
  { name: "fields", summary: "--fields: the message fields, dotted paths and derived fields" },
  { name: "parquet", summary: "--format parquet: its columns, types, nulls, and reading it" },
  { name: "exit-codes", summary: "what each exit code means, for scripts and cron jobs" },
  { name: "environment", summary: "the environment variables msgstat reads" },
  { name: "options", summary: "the global options: --base-url, --token, --profile, --tz, ..." },
  { name: "statuses", summary: "what message statuses and error codes mean" },
  { name: "dates", summary: "--since and --until: dates, times, durations, windows, --tz" },
  { name: "stats", summary: "the delivery report: its figures, --json structure, CSV tables" },
  { name: "report", summary: "the report to share: one HTML page, or Markdown for a ticket" },
  { name: "monitoring", summary: "metrics for Prometheus, alerts on failures and lateness" },
  { name: "live-modes", summary: "message --wait, messages --follow, stats --watch" },
  { name: "many-campaigns", summary: "several campaigns in one command" },
  { name: "export", summary: "msgstat export: the partitioned dataset, its updates, DuckDB" },
  { name: "sandbox", summary: "the local service: its campaigns, paging, faults, errors" },
  { name: "security", summary: "reliability and security: retries, files, terminals, tokens" },
];

export function topicNamed(name: string): Topic | undefined {
  return TOPICS.find((topic) => topic.name === name);
}
