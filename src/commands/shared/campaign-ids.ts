// The campaigns a command is asked about: ids on the command line and, with --campaigns-file, one a
// line from a file or stdin (`-`); blank lines and # comments are skipped, and an id named twice counts once.
import { UsageError } from "../../core/errors.js";
import { inlineSafe } from "../../core/text.js";
import type { Profile } from "../../config/profile.js";
import type { Io } from "../context.js";
import { requireId, textOption } from "./option-values.js";

// A list of campaign ids is small; past this, the file is not one.
const MAX_FILE_BYTES = 1024 * 1024;

/** --campaigns-file, of every command that takes several campaigns. */
export function campaignsFileOption() {
  return textOption(
    "--campaigns-file <path>",
    "more campaign ids, one a line (# comments and blank lines skipped); - reads stdin",
    "a file name",
  );
}

/** The ids of a campaigns file's text: one a line, trimmed; blank lines and lines starting with # left out. */
export function campaignIdsIn(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_FILE_BYTES)
      throw new UsageError("--campaigns-file -: stdin holds more than 1 MB: not a list of ids");
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function fileText(file: string, io: Pick<Io, "stdin">): Promise<string> {
  if (file === "-") {
    const stdin = io.stdin?.();
    if (stdin === undefined || stdin.isTTY === true)
      throw new UsageError("--campaigns-file - reads ids from stdin, but stdin is a terminal").withHint(
        "Pipe the ids in (one a line), or name a file.",
      );
    return readAll(stdin);
  }
  try {
    // node:fs/promises loads only with --campaigns-file (docs/bench.md, "The executable's start-up").
    const text = await process.getBuiltinModule("node:fs/promises").readFile(file);
    if (text.length > MAX_FILE_BYTES) throw new UsageError(`--campaigns-file ${file} is over 1 MB: not a list of ids`);
    return text.toString("utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new UsageError(`--campaigns-file ${inlineSafe(file)} cannot be read (${code})`);
  }
}

/** Every id asked for, in the order first named (command line first), each once; at least one. */
export async function campaignIdsFrom(
  args: readonly string[],
  file: string | undefined,
  io: Pick<Io, "stdin">,
): Promise<string[]> {
  const fromFile = file === undefined ? [] : campaignIdsIn(await fileText(file, io));
  const ids = [...new Set([...args, ...fromFile])];
  if (ids.length === 0)
    throw new UsageError(
      file === undefined ? "name at least one campaign" : `--campaigns-file ${file} names no campaign`,
    ).withHint("Give campaign ids as arguments, or one a line in --campaigns-file.");
  for (const id of ids) requireId("campaignId", id);
  return ids;
}

/**
 * The campaigns named (arguments, then --campaigns-file), else the profile's `campaigns` list; at least one.
 * `need` and `example` word the error when there are none: "find needs the campaigns to look in", and the
 * command that names them ("msgstat find <number> cmp-a cmp-b").
 */
export async function campaignIdsOrProfile(
  named: readonly string[],
  file: string | undefined,
  io: Pick<Io, "stdin">,
  profile: Profile,
  wording: { need: string; example: string },
): Promise<string[]> {
  if (named.length > 0 || file !== undefined) return campaignIdsFrom(named, file, io);
  const saved = profile.values.campaigns;
  if (saved !== undefined) return campaignIdsFrom(String(saved).split(","), undefined, io);
  throw new UsageError(
    `${wording.need}: name them, or save a list in the profile ("${profile.name}" has none)`,
  ).withHint(
    `${wording.example}, or once: msgstat config set${
      profile.name === "default" ? "" : ` --profile ${profile.name}`
    } campaigns cmp-a,cmp-b (the API cannot list campaigns)`,
  );
}
