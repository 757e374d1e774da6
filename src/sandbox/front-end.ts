// What a real front end (nginx, a load balancer) does to the sandbox's responses on their way out:
// compression when the client asks for it, and, for tests and the benchmark, a link of limited
// bandwidth. Both are simulated without root: no traffic shaping, just paced writes.
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

export type ContentCoding = "gzip" | "br" | "deflate";

/** The server's preference among the codings a client accepts equally: brotli is smallest for JSON. */
const PREFERENCE: readonly ContentCoding[] = ["br", "gzip", "deflate"];

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): the highest q-value
 * wins, the server's preference breaks ties, `q=0` refuses, `*` stands for any coding not named.
 * Undefined means identity: no header, nothing acceptable, or only `identity` asked for.
 */
export function chooseCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding.trim() === "") return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name !== "" && Number.isFinite(weight)) weights.set(name.trim(), weight);
  }
  let best: ContentCoding | undefined;
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    const weight = weights.get(coding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * The body in that coding, at the levels a front end uses by default (nginx's gzip_comp_level is 1;
 * ngx_brotli's is 6, which costs the sandbox too much CPU per page, so 4).
 */
export function encodeBody(body: Buffer, coding: ContentCoding): Buffer {
  switch (coding) {
    case "gzip":
      return gzipSync(body, { level: 1 });
    case "deflate":
      return deflateSync(body, { level: 1 });
    case "br":
      return brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
  }
}

const UNITS: Record<string, number> = {
  bit: 1 / 8,
  kbit: 1000 / 8,
  mbit: 1e6 / 8,
  gbit: 1e9 / 8,
  bps: 1 / 8,
  kbps: 1000 / 8,
  mbps: 1e6 / 8,
  gbps: 1e9 / 8,
  "b/s": 1,
  "kb/s": 1000,
  "mb/s": 1e6,
  "gb/s": 1e9,
  "kib/s": 1024,
  "mib/s": 1024 ** 2,
  "gib/s": 1024 ** 3,
};

/**
 * Bytes per second from a rate such as `50mbit`, `2MB/s`, `512kbit`, `1.5MiB/s` (bits for `bit`/`bps`
 * units, bytes for `B/s`); undefined when the text is not a rate.
 */
export function parseBandwidth(text: string): number | undefined {
  const match = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z/]+)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = match[2]!.toLowerCase();
  const factor = UNITS[unit] ?? UNITS[`${unit}/s`];
  const rate = Number(match[1]) * (factor ?? Number.NaN);
  return Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/** Bytes written per paced step: small enough that the pace is smooth, large enough to stay cheap. */
export const PACE_CHUNK = 16 * 1024;
