// A listing written in the chosen format. Several campaigns merged come as tagged rows: the table
// and CSV name each row's campaign in a first column; JSON and Parquet stay as the server sent them.
import { UsageError } from "../../../core/errors.js";
import { PARSED_MESSAGES, SOURCED_MESSAGES, type MessageReading } from "../../../service/endpoints.js";
import type { Tagged } from "../../../service/fan-out.js";
import { TAGGED_ROWS, type Chunks } from "../../../formats/chunks.js";
import { csvTimeFields, renderCsv } from "../../../formats/csv.js";
import { compileFields, DEFAULT_CSV_FIELDS, taggedFields, type Field } from "../../../formats/fields.js";
import { renderFieldsJson, renderFieldsJsonl, renderJson, renderJsonl } from "../../../formats/json.js";
import type { Sink } from "../../../output/sink.js";
import { loadPalette } from "../../../terminal/palette.js";
import { renderTable, type TableOptions } from "../../../terminal/table.js";
import type { Context } from "../../context.js";
import type { ListingOptions } from "./options.js";

/** The listing's messages as a renderer reads them: of one campaign, or of several merged, each tagged. */
export type Listed =
  | { merged: false; chunksOf: <M>(reading: MessageReading<M>) => Chunks<M> }
  | {
      merged: true;
      campaignIds: readonly string[];
      chunksOf: <M>(reading: MessageReading<M>) => Chunks<Tagged<M>>;
    };

/** Parquet is binary: on a terminal, noise that can upset the terminal itself. Refused before any request. */
export function refuseBinaryOnTerminal(options: ListingOptions, ctx: Context): void {
  if (options.format === "parquet" && options.outputFile === undefined && ctx.stdoutIsTTY)
    throw new UsageError("Parquet is binary, and stdout is a terminal").withHint(
      "Write it to a file: -o messages.parquet (a reader needs the whole file).",
    );
}

/**
 * Renders in the chosen format; JSON of whole messages asks for each with its text, to write it as sent.
 * `fields`: --fields, compiled before anything was sent.
 */
export async function render(
  listed: Listed,
  options: ListingOptions,
  fields: Field[] | undefined,
  batchId: string | undefined,
  sink: Sink,
  ctx: Context,
  toTerminal: boolean,
): Promise<void> {
  switch (options.format) {
    case "json":
      return fields
        ? renderFieldsJson(messagesOf(listed, PARSED_MESSAGES), sink, { fields, pretty: toTerminal })
        : renderJson(messagesOf(listed, SOURCED_MESSAGES), sink, toTerminal);
    case "jsonl":
      return fields
        ? renderFieldsJsonl(messagesOf(listed, PARSED_MESSAGES), sink, fields)
        : renderJsonl(messagesOf(listed, SOURCED_MESSAGES), sink);
    case "csv": {
      const chosen = csvTimeFields(
        fields ?? compileFields(DEFAULT_CSV_FIELDS, { batchId }),
        options.csvTimes,
        ctx.timeZone,
      );
      const csv = { guardFormulas: options.guardFormulas, bom: options.bom };
      return listed.merged
        ? renderCsv(listed.chunksOf(PARSED_MESSAGES), sink, { ...csv, fields: taggedFields(chosen) })
        : renderCsv(listed.chunksOf(PARSED_MESSAGES), sink, { ...csv, fields: chosen });
    }
    case "parquet": {
      // Loaded only now: --help and the other formats never load the Parquet writer.
      const { renderParquet } = await import("../../../formats/parquet.js");
      return renderParquet(messagesOf(listed, PARSED_MESSAGES), sink, { version: ctx.version });
    }
    case "table":
    case "tsv":
      return table(listed, options, fields, batchId, sink, ctx, toTerminal);
  }
}

async function table(
  listed: Listed,
  options: ListingOptions,
  fields: Field[] | undefined,
  batchId: string | undefined,
  sink: Sink,
  ctx: Context,
  toTerminal: boolean,
): Promise<void> {
  // tsv: the table's plain, tab-separated form, even on a terminal.
  const tty = toTerminal && options.format === "table";
  const choices: TableOptions = {
    tty,
    columns: ctx.columns,
    palette: await loadPalette(ctx.color && tty),
    fields,
    batchId,
    timeZone: ctx.timeZone,
    wide: options.wide,
    headers: options.headers,
    oneRecipient: options.recipientTest?.kind === "equals",
    statuses: options.statuses,
    window: options.since !== undefined || options.until !== undefined,
    campaignIds: listed.merged ? listed.campaignIds : undefined,
  };
  const { hidden } = listed.merged
    ? await renderTable(listed.chunksOf(PARSED_MESSAGES), sink, choices, TAGGED_ROWS)
    : await renderTable(listed.chunksOf(PARSED_MESSAGES), sink, choices);
  if (hidden.length > 0) {
    // After the rows it is about, not among them on the screen.
    await sink.flush();
    ctx.note(`Hidden at ${ctx.columns} columns: ${hidden.join(", ")} (--wide shows all)`);
  }
}

/** The messages alone, as the server sent them: a merge's rows without their campaign. */
function messagesOf<M>(listed: Listed, reading: MessageReading<M>): Chunks<M> {
  return listed.merged ? untagged(listed.chunksOf(reading)) : listed.chunksOf(reading);
}

async function* untagged<M>(chunks: Chunks<Tagged<M>>): AsyncGenerator<M[]> {
  for await (const chunk of chunks) yield chunk.map((row) => row.item);
}
