import { z } from "zod";
import { UsageError } from "../../core/errors.js";
import { parseBandwidth, parseFaultSpec, type SandboxOptions } from "../../sandbox/index.js";

export interface RawSandboxOptions {
  host: string;
  port: string;
  seed: string;
  messages: string;
  token?: string;
  latency?: string;
  failRate?: string;
  rateLimit?: string;
  fault?: string[];
  live?: boolean;
  liveRate?: string;
  bandwidth?: string;
  compression?: boolean;
}

function number(flag: string, schema: z.ZodNumber, text: string | undefined, rule: string): number | undefined {
  if (text === undefined) return undefined;
  const parsed = z.coerce.number().pipe(schema).safeParse(text.trim() === "" ? Number.NaN : text);
  if (!parsed.success) throw new UsageError(`--${flag} must be ${rule}, not "${text}"`);
  return parsed.data;
}

export function parseSandboxOptions(raw: RawSandboxOptions): SandboxOptions {
  let faults: SandboxOptions["faults"];
  try {
    faults = raw.fault?.flatMap((spec) => parseFaultSpec(spec));
  } catch (error) {
    throw new UsageError(`--fault: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    host: raw.host,
    port: number("port", z.number().int().min(0).max(65535), raw.port, "a port number from 0 to 65535"),
    seed: number("seed", z.number().int(), raw.seed, "a whole number"),
    messages: number("messages", z.number().int().min(0).max(100_000_000), raw.messages, "a whole number from 0 to 100000000"),
    token: raw.token,
    latencyMs: number("latency", z.number().min(0).max(600_000), raw.latency, "milliseconds from 0 to 600000"),
    failRate: number("fail-rate", z.number().min(0).max(1), raw.failRate, "a share from 0 to 1"),
    rateLimit: number("rate-limit", z.number().positive(), raw.rateLimit, "requests per second above 0"),
    faults,
    live: liveOption(raw),
    bandwidth: bandwidthOption(raw.bandwidth),
    compression: raw.compression !== false,
  };
}

function liveOption(raw: RawSandboxOptions): SandboxOptions["live"] {
  const ratePerSecond = number("live-rate", z.number().positive().max(1000), raw.liveRate, "messages per second above 0 (at most 1000)");
  if (ratePerSecond !== undefined && !raw.live) throw new UsageError("--live-rate sets the pace of the live campaign: add --live");
  return raw.live ? { ratePerSecond } : undefined;
}

function bandwidthOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const rate = parseBandwidth(text);
  if (rate === undefined) throw new UsageError(`--bandwidth must be a rate such as 50mbit, 512kbit or 2MB/s, not "${text}"`);
  return rate;
}
