// How a run over several campaigns ends: the exit code of the causes, and the last line's count.
import { describe, expect, it } from "vitest";
import { AuthError, NotFoundError, ServiceError } from "../../../src/core/errors.js";
import { PagingError } from "../../../src/service/paging.js";
import {
  completeLine,
  failedCampaignLine,
  incompleteCampaigns,
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
