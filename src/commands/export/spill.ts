// Messages spilled to disk as they arrive, one file per partition (a campaign's UTC day) in the run's
// staging folder, so memory stays flat however large a campaign is: a partition is encoded from its
// spill once the campaign is read to its end. A line is the message's id as a JSON string, a tab, then
// the message as the server sent it, on one line (JSON escapes every tab inside a string, so the first
// tab ends the id).
import { createReadStream, promises as fs } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { SourcedMessage } from "../../core/json-source.js";
import { appendToFile } from "../../output/append.js";
import { oneLineJson } from "../../formats/json-layout.js";

// A partition's lines are appended once this many bytes are waiting, and all of them past the total:
// a few appends per page, whatever the number of partitions.
const APPEND_AT = 256 * 1024;
const HELD_AT = 8 * 1024 * 1024;

export class CampaignSpill {
  private readonly waiting = new Map<string, string[]>();
  private readonly waitingBytes = new Map<string, number>();
  private held = 0;
  /** Every partition (date) spilled so far, with how many lines it got. */
  readonly lines = new Map<string, number>();

  constructor(readonly folder: string) {}

  static async create(folder: string): Promise<CampaignSpill> {
    await fs.mkdir(folder, { recursive: true });
    return new CampaignSpill(folder);
  }

  fileOf(date: string): string {
    return path.join(this.folder, `${date}.spill`);
  }

  /** Adds a message to its day's spill; appends when enough waits. */
  async add(date: string, item: SourcedMessage): Promise<void> {
    const { source } = item;
    const body = source.oneLine ? source.bytes.toString("utf8", source.start, source.end) : oneLineJson(source.text());
    const line = `${JSON.stringify(item.message.id)}\t${body}\n`;
    let lines = this.waiting.get(date);
    if (lines === undefined) this.waiting.set(date, (lines = []));
    lines.push(line);
    const bytes = (this.waitingBytes.get(date) ?? 0) + line.length;
    this.waitingBytes.set(date, bytes);
    this.held += line.length;
    this.lines.set(date, (this.lines.get(date) ?? 0) + 1);
    if (bytes >= APPEND_AT) await this.append(date);
    if (this.held >= HELD_AT) await this.flush();
  }

  /** Everything waiting, appended to the files. */
  async flush(): Promise<void> {
    for (const date of [...this.waiting.keys()]) await this.append(date);
  }

  private async append(date: string): Promise<void> {
    const lines = this.waiting.get(date);
    if (lines === undefined || lines.length === 0) return;
    this.waiting.delete(date);
    this.held -= this.waitingBytes.get(date) ?? 0;
    this.waitingBytes.delete(date);
    await appendToFile(this.fileOf(date), lines.join(""));
  }

  async remove(): Promise<void> {
    this.waiting.clear();
    await fs.rm(this.folder, { recursive: true, force: true });
  }
}

/** One message of a spill: its id (as JSON) and its text as sent. */
export interface SpilledMessage {
  idJson: string;
  body: string;
}

/**
 * The messages of a spill in the order they came, each id once (the first copy: a server that sends a
 * message twice in one run does not double it). The ids of one partition are held, not its messages.
 */
export async function* uniqueMessages(file: string, repeats: { count: number }): AsyncGenerator<SpilledMessage> {
  const seen = new Set<string>();
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    const tab = line.indexOf("\t");
    const idJson = line.slice(0, tab);
    if (seen.has(idJson)) {
      repeats.count++;
      continue;
    }
    seen.add(idJson);
    yield { idJson, body: line.slice(tab + 1) };
  }
}
