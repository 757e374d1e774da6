// How a run over several campaigns ends: the exit code of the causes, and the last line's count.
import { describe, expect, it } from "vitest";
import { AuthError, NotFoundError, ServiceError } from "../../../src/core/errors.js";
import { PagingError } from "../../../src/service/paging.js";
import {
  completeLine,
  failedCampaignLine,
  incompleteCampaigns,
  incompleteFileLines,
} from "../../../src/commands/shared/campaign-outcomes.js";
import type { CampaignOutcome } from "../../../src/service/fan-out.js";

const complete = (campaignId: string): CampaignOutcome => ({ campaignId, state: "complete" });
const failed = (campaignId: string, error: ServiceError): CampaignOutcome => ({ campaignId, state: "failed", error });

describe("incompleteCampaigns", () => {
  it("is nothing when every campaign completed or was only cut by the consumer", () => {
    expect(incompleteCampaigns([complete("a"), { campaignId: "b", state: "cut" }])).toBeUndefined();
  });

  it("takes the exit code of the cause: 3 not found (also inside a PagingError), 4 not authorised, 1 otherwise", () => {
    const notFound = new PagingError(new NotFoundError("not found: x"), undefined, "forward");
    expect(incompleteCampaigns([complete("a"), failed("b", notFound)])?.exitCode).toBe(3);
    expect(incompleteCampaigns([failed("b", new AuthError("no"))])?.exitCode).toBe(4);
    expect(incompleteCampaigns([failed("b", new ServiceError("broken"))])?.exitCode).toBe(1);
  });

  it("is 1 where causes differ, and names the campaigns after the count", () => {
    const error = incompleteCampaigns([
      failed("a", new NotFoundError("nf")),
      complete("b"),
      failed("c", new AuthError("no")),
    ]);
    expect(error?.exitCode).toBe(1);
    expect(error?.message).toBe("1 of 3 campaigns complete; not read to the end: a, c");
  });
});

describe("lines", () => {
  it("count the complete campaigns and name a failed one with its reason", () => {
    expect(completeLine([complete("a")])).toBe("1 of 1 campaign complete");
    expect(failedCampaignLine(failed("b", new NotFoundError("not found: GET /x")))).toBe(
      "campaign b: not found: GET /x",
    );
  });
});

describe("incompleteFileLines: what became of -o", () => {
  const fate = "x.csv was left as it was";
  const partly = (campaignId: string, delivered: number) => ({
    ...failed(campaignId, new ServiceError("cut")),
    delivered,
  });

  it("is nothing when every campaign was complete", () => {
    expect(incompleteFileLines("x.csv", fate, [complete("a")], false)).toEqual([]);
  });

  it("says the file was left as it was, and why, with or without --partial when nothing came", () => {
    const none = [failed("a", new NotFoundError("nf")), failed("b", new NotFoundError("nf"))];
    expect(incompleteFileLines("x.csv", fate, none, true)).toEqual([`${fate}: no campaign could be read`]);
    expect(incompleteFileLines("x.csv", fate, [complete("a"), partly("b", 2)], false)).toEqual([
      `${fate}: not every campaign was complete (add --partial to keep what came)`,
    ]);
  });

  it("with --partial, names each campaign missing and each held in part", () => {
    const outcomes = [
      complete("a"),
      failed("b", new NotFoundError("nf")),
      failed("c", new AuthError("no")),
      partly("d", 1),
    ];
    expect(incompleteFileLines("x.csv", fate, outcomes, true)).toEqual([
      "x.csv is missing campaigns b, c",
      "x.csv holds only part of d (after 1 message)",
    ]);
    expect(incompleteFileLines("r.html", fate, outcomes.slice(0, 2), true, { saysSo: true })).toEqual([
      "r.html is missing campaign b; it says so",
    ]);
  });
});
