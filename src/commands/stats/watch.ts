// `msgstat stats <campaignId> --watch`: the report again and again, until Ctrl-C. Each round reads the
// listing through the same counting as `stats` and is shown with what changed since watching began:
// on a terminal, redrawn in place in the alternate screen (terminal/live-screen.ts); piped, to a file or
// with --json, one JSON object per line per round, the `stats --json` structure plus a `watch` part.
// A failing service is waited out, rounds go on when it recovers; --max-failure-rate ends the watch
// with exit 5 on the first round above it.
import { countText } from "../../core/numbers.js";
import { durationText } from "../../core/duration.js";
import { formatWallTime } from "../../core/time.js";
import { LiveScreen } from "../../terminal/live-screen.js";
import { loadPalette } from "../../terminal/palette.js";
import { openOutput, type Sink } from "../../output/sink.js";
import type { ListingRef } from "../../service/endpoints.js";
import { throughOutages, type OutageEvent } from "../../service/outages.js";
import { changesSince, type ReportChanges } from "../../stats/changes.js";
import type { StatsReport } from "../../stats/report.js";
import type { Context } from "../context.js";
import { explainNotFound } from "../shared/service-errors.js";
import { isGzipFile } from "../shared/output-file.js";
import type { StatsOptions } from "./options.js";
import { alertOnThreshold, countReport } from "./run.js";

const silentProgress = {
  update: () => undefined,
  pause: () => undefined,
  resume: () => undefined,
  stop: () => undefined,
};
const MAX_BACKOFF_MS = 5 * 60_000;

export async function runWatch(listing: ListingRef, options: StatsOptions, ctx: Context): Promise<void> {
  for (const warning of options.warnings) ctx.warn(warning);
  const onScreen = options.format.kind === "report" && options.outputFile === undefined && ctx.stdoutIsTTY;
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile), live: true });
  const screen = onScreen ? new LiveScreen(ctx.stdout, true) : undefined;
  const everyMs = options.watch!.everyMs;
  let first: StatsReport | undefined;
  const outages = {
    everyMs,
    maxBackoffMs: MAX_BACKOFF_MS,
    timer: ctx.timer,
    signal: ctx.signal,
    onEvent: (event: OutageEvent) => {
      if (event.kind === "failing")
        ctx.warn(`${event.error.message}; still watching, trying again in ${durationText(event.retryInMs)}`);
      else ctx.note(`the service answers again after ${durationText(event.downMs)}; watching on`);
    },
  };
  try {
    for (let round = 1; ; round++) {
      let started = 0;
      const report = await throughOutages(() => {
        started = ctx.timer.now();
        return countReport(listing, options, ctx, silentProgress);
      }, outages);
      first ??= report;
      const changes = changesSince(first, report);
      if (screen) {
        const whole = await frame(report, changes, { round, everyMs, first }, ctx);
        screen.draw(fitRows(whole, ctx.rows), whole);
      } else await writeRound(sink, report, changes, round, first);
      alertOnThreshold(report);
      // A slow read sets a slower pace: the service is never asked more often than it can answer.
      await ctx.timer.sleep(Math.max(everyMs, ctx.timer.now() - started), ctx.signal);
    }
  } catch (error) {
    await sink.discard();
    throw explainNotFound(error, listing);
  } finally {
    screen?.close();
  }
}

/** One round as a JSON line: the report, and where the watch stands. */
async function writeRound(
  sink: Sink,
  report: StatsReport,
  changes: ReportChanges,
  round: number,
  first: StatsReport,
): Promise<void> {
  await sink.write(JSON.stringify({ ...report, watch: { round, startedAt: first.generatedAt, changes } }) + "\n");
  await sink.flush();
}

/** What the terminal shows for a round: where the watch stands, what changed, then the report. */
async function frame(
  report: StatsReport,
  changes: ReportChanges,
  round: { round: number; everyMs: number; first: StatsReport },
  ctx: Context,
): Promise<string> {
  const palette = await loadPalette(ctx.color);
  // Loaded here, not up front: they measure text with string-width, which --json never needs. The
  // lines are cut to the terminal's width (fit): a frame must not wrap, or it would scroll the alternate screen.
  const [{ renderStatsReport }, { cutToWidth: fit }] = await Promise.all([
    import("../../reports/terminal.js"),
    import("../../terminal/width.js"),
  ]);
  const at = (iso: string) => formatWallTime(Date.parse(iso), ctx.timeZone, "second").slice(11);
  const heading =
    `Watching ${report.batchId ?? report.campaignId}: round ${round.round}, updated ` +
    `${at(report.generatedAt)} ${ctx.timeZone.name}, every ${durationText(round.everyMs, { exact: true })}. ` +
    `Ctrl-C to stop.`;
  const moved = changes.byStatus.map(
    ({ status, change }) => `${change > 0 ? "+" : "−"}${countText(Math.abs(change))} ${status ?? "no status"}`,
  );
  const pace =
    changes.messagesPerMinute === null ? "" : ` (${countText(Math.round(changes.messagesPerMinute))} new a minute)`;
  const since =
    round.round === 1
      ? "First round: changes show from the next one."
      : `Since ${at(round.first.generatedAt)}: ${moved.length > 0 ? moved.join(", ") : "no change"} in ` +
        `${durationText(changes.elapsedMs)}${pace}.`;
  const report_ = renderStatsReport(report, { columns: ctx.columns, palette, timeZone: ctx.timeZone });
  return `${palette.bold(fit(heading, ctx.columns))}\n${fit(since, ctx.columns)}\n\n${report_}`;
}

/** The frame cut to the terminal's height, so the alternate screen never scrolls its first lines away. */
function fitRows(text: string, rows: number | undefined): string {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  if (rows === undefined || lines.length < rows) return text;
  const kept = lines.slice(0, Math.max(1, rows - 2));
  return `${kept.join("\n")}\n… ${lines.length - kept.length} more lines: a taller terminal shows the whole report\n`;
}
