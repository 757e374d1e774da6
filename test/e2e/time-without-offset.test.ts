// Issue 25, a suspected item decided: a timestamp the service sends without an offset (the reference promises
// one) is read as UTC, not in the zone of the machine msgstat runs on, and shown in --tz as any other. The
// built bin runs under TZ=America/New_York, which Date.parse would have used.
import { describe, expect, it } from "vitest";
import { startListingServer } from "../support/listing-server.js";
import { runBin } from "../support/run-cli.js";

describe("a timestamp without an offset", () => {
  it("is read as UTC whatever the machine's zone, and shown in --tz", async () => {
    const server = await startListingServer(() => ({
      id: "m1",
      createdAt: "2026-11-20T10:00:00.000",
      updatedAt: "2026-11-20T10:05:00",
      recipient: "4915112345678",
      latestStatus: "success",
      campaignId: "cmp-1",
      batches: [],
      attempts: [],
    }));
    const result = await runBin(["--base-url", server.url, "message", "cmp-1", "m1", "--tz", "Asia/Tokyo"], {
      env: { TZ: "America/New_York" },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  Created    2026-11-20 19:00:00 Asia/Tokyo\n");
    expect(result.stdout).toContain("  Updated    2026-11-20 19:05:00 Asia/Tokyo\n");
  });
});
