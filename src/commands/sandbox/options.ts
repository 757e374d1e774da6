// Options of `msgstat sandbox`: the flags, each already checked as it was read, and the fault scripts.
import { UsageError } from "../../core/errors.js";
import { parseBandwidth, parseFaultSpec, type SandboxOptions } from "../../sandbox/index.js";
import type { SandboxFlags } from "./flags.js";

export function parseSandboxOptions(raw: SandboxFlags): SandboxOptions {
  let faults: SandboxOptions["faults"];
  try {
    faults = raw.fault?.flatMap((spec) => parseFaultSpec(spec));
  } catch (error) {
    throw new UsageError(`--fault: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    host: raw.host,
    port: raw.port,
    seed: raw.seed,
    messages: raw.messages,
    campaigns: raw.campaigns,
    token: raw.token,
    latencyMs: raw.latency,
    failRate: raw.failRate,
    rateLimit: raw.rateLimit,
    faults,
    live: liveOption(raw),
    bandwidth: bandwidthOption(raw.bandwidth),
    compression: raw.compression,
    cachePages: raw.cachePages,
  };
}

function liveOption(raw: SandboxFlags): SandboxOptions["live"] {
  if (raw.liveRate !== undefined && !raw.live)
    throw new UsageError("--live-rate sets the pace of the live campaign: add --live");
  return raw.live ? { ratePerSecond: raw.liveRate } : undefined;
}

// The rate's syntax belongs to the sandbox, which is loaded only when it runs.
function bandwidthOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const rate = parseBandwidth(text);
  if (rate === undefined)
    throw new UsageError(`--bandwidth must be a rate such as 50mbit, 512kbit or 2MB/s, not "${text}"`);
  return rate;
}
