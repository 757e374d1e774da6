// A server that answers a campaign's listing from memory, for the benchmark's replay rows: it walks
// the listing once on a sandbox (every page of an --all walk, `limit` messages a page, following
// endCursor), keeps each response body's bytes, then serves them as they were captured, so neither
// the sandbox's page building nor its share of the CPU is in what a client is measured at.
//
//   node bench/replay-server.mjs <sandboxUrl> <campaignId[,campaignId...]> [pageSize[,pageSize...]=1000] [latencyMs=0]
//
// Several campaigns and page sizes are each captured (the fan-out rows: 12 campaigns, pages of 1000 and
// 500); `latencyMs` holds every answer that long, as the sandbox's --latency does, without its CPU.
// Prints its URL, then one line `captured <pages> <bytes> <messages>` (messages: of the first page size),
// in one write, once it is ready.
// A request is matched on its path and its query parameters in any order (msgstat's and the floors'
// requests are `?limit=N` and `?limit=N&after=<cursor>`); anything not captured is a 404 with a body
// that says so, so a client asking for something else fails loudly instead of being measured.
// Bodies are always sent as captured, without compression: whatever Accept-Encoding asks for,
// identity is an answer a server may give, and this row measures a client's CPU, not the link.
import { createServer, Agent, get } from "node:http";

const [sandboxUrl, campaignText, pageSizeText = "1000", latencyText = "0"] = process.argv.slice(2);
const campaignIds = (campaignText ?? "").split(",").filter((id) => id !== "");
const pageSizes = pageSizeText.split(",").map(Number);
const latencyMs = Number(latencyText);
if (
  !sandboxUrl ||
  campaignIds.length === 0 ||
  pageSizes.some((size) => !Number.isInteger(size) || size < 1 || size > 1000) ||
  !(latencyMs >= 0)
) {
  process.stderr.write(
    "usage: node bench/replay-server.mjs <sandboxUrl> <campaignId[,...]> [pageSize 1-1000[,...]] [latencyMs]\n",
  );
  process.exit(2);
}

const JSON_TYPE = "application/json; charset=utf-8";
const listingPathOf = (campaignId) => `/campaigns/${encodeURIComponent(campaignId)}/messages`;

/** The same key for the same request, whatever the order of its query parameters or its escaping. */
function keyOf(target) {
  try {
    const url = new URL(target, "http://replay.invalid");
    const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${decodeURIComponent(url.pathname)}?${new URLSearchParams(params)}`;
  } catch {
    return undefined; // a malformed escape: not a request this server captured
  }
}

const agent = new Agent({ keepAlive: true });
/** One page's body as the sandbox sent it, asked for without Accept-Encoding so it is identity. */
function capture(target) {
  return new Promise((resolve, reject) => {
    get(new URL(target, sandboxUrl), { agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${target}: HTTP ${res.statusCode}`));
        else if (res.headers["content-encoding"])
          reject(new Error(`GET ${target}: the sandbox answered ${res.headers["content-encoding"]}, not identity`));
        else resolve(Buffer.concat(chunks));
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

const pages = new Map();
let bytes = 0;
let messages = 0;
for (const [sizeIndex, pageSize] of pageSizes.entries()) {
  for (const campaignId of campaignIds) {
    for (let after; ;) {
      const query = `?limit=${pageSize}${after === undefined ? "" : `&after=${encodeURIComponent(after)}`}`;
      const target = `${listingPathOf(campaignId)}${query}`;
      const body = await capture(target);
      const page = JSON.parse(body.toString("utf8"));
      pages.set(keyOf(target), body);
      bytes += body.length;
      if (sizeIndex === 0) messages += page.data.length;
      if (!page.pageData.hasNextPage) break;
      after = page.pageData.endCursor;
    }
  }
}
agent.destroy();

const MISS_TYPE = { "Content-Type": JSON_TYPE };
const server = createServer((req, res) => {
  const body = req.method === "GET" ? pages.get(keyOf(req.url ?? "/") ?? "") : undefined;
  if (body === undefined) {
    const miss = JSON.stringify({
      error: "not_captured",
      message: `bench/replay-server.mjs captured only ${campaignIds.map(listingPathOf).join(", ")} at ?limit=${pageSizes.join(", ")} and their pages; not ${req.method} ${req.url}`,
    });
    res.writeHead(404, { ...MISS_TYPE, "Content-Length": Buffer.byteLength(miss) });
    res.end(miss);
    return;
  }
  const answer = () => {
    res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": body.length });
    res.end(body);
  };
  if (latencyMs > 0) setTimeout(answer, latencyMs);
  else answer();
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stdout.write(`http://127.0.0.1:${port}\ncaptured ${pages.size} ${bytes} ${messages}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
