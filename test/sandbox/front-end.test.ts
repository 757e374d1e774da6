// The sandbox as a real front end: compression negotiated like nginx, and a link of limited bandwidth.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseCoding, parseBandwidth } from "../../src/sandbox/front-end.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";

describe("chooseCoding", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["gzip, deflate", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["*", "br"],
    ["*;q=0.1, gzip;q=0", "br"],
    ["deflate", "deflate"],
    ["GZIP", "gzip"],
    ["compress, x-unknown", undefined],
  ])("%j -> %j", (header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });
});

describe("parseBandwidth", () => {
  it.each([
    ["50mbit", 6_250_000],
    ["512kbit", 64_000],
    ["2MB/s", 2_000_000],
    ["1.5MiB/s", 1.5 * 1024 * 1024],
    ["100 kbps", 12_500],
  ])("%s is %d bytes per second", (text, bytes) => {
    expect(parseBandwidth(text)).toBe(bytes);
  });

  it.each(["", "fast", "50", "-1mbit", "0mbit", "50 furlongs"])("refuses %j", (text) => {
    expect(parseBandwidth(text)).toBeUndefined();
  });
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("compression", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ messages: 500, now: Date.parse("2025-05-01T12:00:00Z") });
  });
  afterAll(() => sandbox.close());
  const path = "/campaigns/cmp-spring-sale/messages?limit=200";

  it("sends identity when nothing is asked for", async () => {
    const plain = await get(sandbox.url + path);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect((JSON.parse(plain.body.toString("utf8")) as { data: unknown[] }).data).toHaveLength(200);
  });

  it.each([
    ["gzip", gunzipSync],
    ["br", brotliDecompressSync],
    ["deflate", inflateSync],
  ] as const)("answers %s with the same JSON, smaller", async (coding, decode) => {
    const plain = await get(sandbox.url + path);
    const packed = await get(sandbox.url + path, { "accept-encoding": coding });
    expect(packed.headers["content-encoding"]).toBe(coding);
    expect(Number(packed.headers["content-length"])).toBe(packed.body.length);
    expect(packed.body.length * 4).toBeLessThan(plain.body.length);
    expect(decode(packed.body).toString("utf8")).toBe(plain.body.toString("utf8"));
  });

  it("compresses error bodies too", async () => {
    const missing = await get(`${sandbox.url}/campaigns/nope/messages?limit=1`, { "accept-encoding": "gzip" });
    expect(missing.status).toBe(404);
    expect(JSON.parse(gunzipSync(missing.body).toString("utf8"))).toMatchObject({ error: "campaign_not_found" });
  });

  it("can be turned off", async () => {
    const off = await startSandbox({ messages: 10, compression: false });
    try {
      const response = await get(`${off.url}/campaigns/cmp-spring-sale/messages?limit=5`, {
        "accept-encoding": "gzip, br",
      });
      expect(response.headers["content-encoding"]).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe("bandwidth", () => {
  it("paces a body to the link: never faster than the rate allows", async () => {
    // 200 messages are about 280 KB; at 1 MB/s that is at least a quarter of a second. A busy machine
    // can only make it slower, so the lower bound holds however loaded the machine is.
    const sandbox = await startSandbox({ messages: 500, bandwidth: 1_000_000 });
    try {
      const started = performance.now();
      const response = await get(`${sandbox.url}/campaigns/cmp-spring-sale/messages?limit=200`);
      const elapsed = performance.now() - started;
      expect(response.body.length).toBeGreaterThan(250_000);
      expect(elapsed).toBeGreaterThanOrEqual(((response.body.length - 16 * 1024) / 1_000_000) * 1000);
      expect((JSON.parse(response.body.toString("utf8")) as { data: unknown[] }).data).toHaveLength(200);
    } finally {
      await sandbox.close();
    }
  });
});
