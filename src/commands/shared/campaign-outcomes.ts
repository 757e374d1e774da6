// What a run over several campaigns says about them (listings, find, stats, export): each failed
// campaign named with its reason as it fails; at the end, what became of -o, and when any is
// incomplete, one error whose exit code is its cause's and whose line (the last on stderr) says how
// many campaigns were complete. One wording for every such command.
import { ExitCode, IncompleteCampaignsError, type ServiceError } from "../../core/errors.js";
import type { CampaignOutcome } from "../../service/fan-out.js";
import { count } from "../../core/numbers.js";

/** The stderr line for a campaign that failed: its id and the error's own words. */
export function failedCampaignLine(outcome: CampaignOutcome): string {
  return `campaign ${outcome.campaignId}: ${outcome.error?.message ?? "not read to its end"}`;
}

/**
 * What became of -o when some campaign is incomplete: left as it was (`kept` false: no --partial), or
 * kept with what came, each campaign it lacks named, whole or in part (`delivered`: its messages in
 * the file, where a campaign can be written in part). `saysSo`: the file itself names what it lacks.
 */
export function incompleteFileLines(
  file: string,
  fate: string,
  outcomes: ReadonlyArray<CampaignOutcome & { delivered?: number }>,
  kept: boolean,
  { saysSo = false }: { saysSo?: boolean } = {},
): string[] {
  const failed = outcomes.filter((outcome) => outcome.state === "failed");
  if (failed.length === 0) return [];
  const missing = failed.filter((outcome) => !outcome.delivered).map((outcome) => outcome.campaignId);
  if (missing.length === outcomes.length) return [`${fate}: no campaign could be read`];
  if (!kept) return [`${fate}: not every campaign was complete (add --partial to keep what came)`];
  const partly = failed
    .filter((outcome) => outcome.delivered)
    .map((outcome) => `${outcome.campaignId} (after ${count(outcome.delivered!, "message")})`);
  const lines: string[] = [];
  const campaigns = `campaign${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`;
  if (missing.length > 0) lines.push(`${file} is missing ${campaigns}${saysSo ? "; it says so" : ""}`);
  if (partly.length > 0) lines.push(`${file} holds only part of ${partly.join(", ")}`);
  return lines;
}

/** 3 or 4 for a campaign not found or not authorised (a PagingError carries its cause's code), else 1. */
function exitCodeOf(error: ServiceError | undefined): number {
  const code = error?.exitCode;
  return code === ExitCode.notFound || code === ExitCode.unauthorized ? code : ExitCode.failure;
}

/** "2 of 3 campaigns complete": how the run ended, for the last line. */
export function completeLine(outcomes: readonly CampaignOutcome[]): string {
  const complete = outcomes.filter((outcome) => outcome.state !== "failed").length;
  return `${complete} of ${count(outcomes.length, "campaign")} complete`;
}

/**
 * The error that ends a run where some campaign failed, or undefined when none did (a campaign cut by the
 * consumer, such as the merged --limit, is not a failure). Its exit code: the causes' when they agree, else 1.
 */
export function incompleteCampaigns(
  outcomes: readonly CampaignOutcome[],
  detail = "",
  options: { causes?: boolean } = {},
): IncompleteCampaignsError | undefined {
  const failed = outcomes.filter((outcome) => outcome.state === "failed");
  if (failed.length === 0) return undefined;
  const codes = new Set(failed.map((outcome) => exitCodeOf(outcome.error)));
  const code = codes.size === 1 ? [...codes][0]! : ExitCode.failure;
  const names = options.causes
    ? byCause(failed)
    : `not read to the end: ${failed.map((outcome) => outcome.campaignId).join(", ")}`;
  return new IncompleteCampaignsError(`${completeLine(outcomes)}; ${names}${detail === "" ? "" : `; ${detail}`}`, code);
}

/** "not found: a, b; not read to the end: c": the failed campaigns grouped by what stopped them. */
function byCause(failed: readonly CampaignOutcome[]): string {
  const groups = new Map<string, string[]>();
  for (const outcome of failed) {
    const cause = causeOf(outcome.error);
    groups.set(cause, [...(groups.get(cause) ?? []), outcome.campaignId]);
  }
  return [...groups].map(([cause, ids]) => `${cause}: ${ids.join(", ")}`).join("; ");
}

function causeOf(error: ServiceError | undefined): string {
  const code = exitCodeOf(error);
  if (code === ExitCode.notFound) return "not found";
  if (code === ExitCode.unauthorized) return "not authorised";
  return "not read to the end";
}
