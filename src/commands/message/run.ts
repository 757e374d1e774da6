// `msgstat message <campaignId> <messageId>`: fetch one message and show it, or, with --wait, poll it
// until it is final and then show it the same way.
import { MessageFailedError, NotFinalInTimeError, type MsgstatError } from "../../core/errors.js";
import { durationText } from "../../core/duration.js";
import type { SourcedMessage } from "../../core/json-source.js";
import { MESSAGE, read, type CheckedMessage } from "../../core/message.js";
import { newestFailedAttempt } from "../../core/attempts.js";
import { shellWord } from "../../core/text.js";
import { fetchMessage } from "../../service/endpoints.js";
import { waitForFinal, type WaitEvent } from "../../service/wait-for-message.js";
import { renderJsonValue } from "../../formats/json.js";
import { loadPalette } from "../../terminal/palette.js";
import { openOutput } from "../../output/sink.js";
import { startProgress, type Progress } from "../../terminal/spinner.js";
import type { Context } from "../context.js";
import { explainNotFound } from "../shared/service-errors.js";
import { isGzipFile } from "../shared/output-file.js";
import type { MessageOptions } from "./options.js";

type MessageRun = MessageOptions & { campaignId: string; messageId: string };

export async function runMessage(options: MessageRun, ctx: Context): Promise<void> {
  const client = await ctx.client();
  // The file first: a folder that does not exist is a usage error, found before anything is sent.
  const sink = await openOutput(options.outputFile, ctx, { gzip: isGzipFile(options.outputFile) });
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  let final = true;
  let message: SourcedMessage;
  try {
    if (options.wait) {
      const outcome = await waitWithProgress(options, ctx);
      // No answer at all in the time allowed: nothing to print, and the wait is not over yet (exit 7).
      if (outcome.message === undefined) throw noAnswerInTime(options, outcome.lastError);
      message = outcome.message;
      final = outcome.final;
    } else {
      message = await fetchMessage(client, options.campaignId, options.messageId);
    }
    if (options.format === "json") await renderJsonValue(message, sink, toTerminal);
    else {
      // Loaded here, not up front: it measures text with string-width, which --json never needs.
      const { renderMessage } = await import("../../terminal/message-view.js");
      await renderMessage(message.message, sink, {
        palette: await loadPalette(ctx.color && toTerminal),
        tty: toTerminal,
        now: ctx.now(),
        timeZone: ctx.timeZone,
        width: toTerminal ? ctx.columns : Number.POSITIVE_INFINITY,
      });
    }
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw explainNotFound(error, options);
  }
  if (options.outputFile !== undefined)
    ctx.note(`wrote message ${shellWord(options.messageId)} to ${options.outputFile}`);
  if (options.wait) endOfWait(options, message.message, final);
}

/** Polls until final; on a terminal, stderr shows the status and the time waited, updated in place. */
async function waitWithProgress(options: MessageRun, ctx: Context) {
  const client = await ctx.client();
  const progress = await startProgress(ctx, `Waiting for ${options.messageId}…`);
  let failing = false;
  try {
    return await waitForFinal(
      client,
      {
        campaignId: options.campaignId,
        messageId: options.messageId,
        ...options.wait!,
      },
      ctx.timer,
      ctx.signal,
      (event) => {
        failing = report(event, options, progress, ctx, failing);
      },
    );
  } finally {
    progress.stop();
  }
}

/** Shows one event of the wait; returns whether the service is failing now (a warning once per outage). */
function report(event: WaitEvent, options: MessageRun, progress: Progress, ctx: Context, failing: boolean): boolean {
  const waited = `${durationText(event.waitedMs)} waited`;
  if (event.kind === "polled") {
    const status = read(MESSAGE, event.message.message, "latestStatus") ?? "no status";
    progress.update(`Waiting for ${options.messageId}: ${status}, ${waited}`);
    if (failing) ctx.note("the service answers again; still waiting");
    return false;
  }
  progress.update(
    `Waiting for ${options.messageId}: the service is failing, trying again in ` +
      `${durationText(event.retryInMs)} (${waited})`,
  );
  if (!failing) ctx.warn(`${event.error.message}; still waiting, trying again in ${durationText(event.retryInMs)}`);
  return true;
}

/** How the wait ended, as an exit code: the message was printed either way. */
function endOfWait(options: MessageRun, message: CheckedMessage, final: boolean): void {
  const status = read(MESSAGE, message, "latestStatus") ?? "no status";
  if (!final) {
    throw new NotFinalInTimeError(
      `${options.messageId} is still ${status} after ${askedTimeout(options)} (--wait-timeout)`,
    );
  }
  if (status === "failure") {
    const error = newestFailedAttempt(message);
    const why = [error?.errorType, error?.errorCode].filter(Boolean).join(" / ");
    throw new MessageFailedError(`${options.messageId} ended in failure${why ? ` (${why})` : ""}`);
  }
}

function noAnswerInTime(options: MessageRun, lastError: MsgstatError | undefined): NotFinalInTimeError {
  return new NotFinalInTimeError(
    `no answer about ${options.messageId} within ${askedTimeout(options)} (--wait-timeout)` +
      (lastError ? `; the last try: ${lastError.message}` : ""),
  );
}

/** --wait-timeout as the user gave it: 1.5s is 1.5 s, not rounded to 2 s as a time waited is. */
const askedTimeout = (options: MessageRun): string => durationText(options.wait!.timeoutMs, { exact: true });
