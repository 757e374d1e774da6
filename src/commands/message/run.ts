import { fetchMessage } from "../../service/endpoints.js";
import type { Context } from "../context.js";
import { renderJsonValue } from "../../render/json.js";
import { renderMessage } from "../../render/message-view.js";
import { loadPalette } from "../../render/palette.js";
import { atomicFileSink, streamSink } from "../../render/sink.js";

export interface MessageOptions {
  campaignId: string;
  messageId: string;
  json: boolean;
  output?: string;
}

export async function runMessage(options: MessageOptions, ctx: Context): Promise<void> {
  const client = await ctx.client();
  // The file first: a folder that does not exist is a usage error, found before anything is sent.
  const sink = options.output !== undefined ? await atomicFileSink(options.output) : streamSink(ctx.stdout);
  const toTerminal = options.output === undefined && ctx.stdoutIsTTY;
  try {
    const message = await fetchMessage(client, options.campaignId, options.messageId);
    if (options.json) await renderJsonValue(message, sink, toTerminal);
    else await renderMessage(message, sink, { palette: await loadPalette(ctx.color && toTerminal), tty: toTerminal, now: ctx.now(), timeZone: ctx.timeZone, width: toTerminal ? ctx.columns : Number.POSITIVE_INFINITY });
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw error;
  }
}
