import { fetchMessage } from "../../service/endpoints.js";
import type { Context } from "../context.js";
import { renderJsonValue } from "../../render/json.js";
import { renderMessage } from "../../render/message-view.js";
import { loadPalette } from "../../render/palette.js";
import { atomicFileSink, streamSink } from "../../render/sink.js";
import { shellWord } from "../../core/text.js";
import { explainNotFound } from "../shared/service-errors.js";
import type { MessageOptions } from "./options.js";

export async function runMessage(options: MessageOptions & { campaignId: string; messageId: string }, ctx: Context): Promise<void> {
  const client = await ctx.client();
  // The file first: a folder that does not exist is a usage error, found before anything is sent.
  const sink = options.outputFile !== undefined ? await atomicFileSink(options.outputFile) : streamSink(ctx.stdout);
  const toTerminal = options.outputFile === undefined && ctx.stdoutIsTTY;
  try {
    const message = await fetchMessage(client, options.campaignId, options.messageId);
    if (options.format === "json") await renderJsonValue(message, sink, toTerminal);
    else await renderMessage(message, sink, { palette: await loadPalette(ctx.color && toTerminal), tty: toTerminal, now: ctx.now(), timeZone: ctx.timeZone, width: toTerminal ? ctx.columns : Number.POSITIVE_INFINITY });
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw explainNotFound(error, options);
  }
  if (options.outputFile !== undefined) ctx.note(`wrote message ${shellWord(options.messageId)} to ${options.outputFile}`);
}
