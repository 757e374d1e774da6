// The floors msgstat is measured against: the same pages, fetched (all but `fetch`) with the same HTTP
// client and agent settings as msgstat (node:http, one keep-alive agent), in the least work each needs.
//   raw             fetch every page and discard the body; the cursor comes from the body's tail
//   parse           fetch, decode and JSON.parse each page in a plain sequential loop, nothing else
//   parse-prefetch  as parse, but the next request leaves as soon as the cursor is read from the
//                   tail, before the current page is parsed: the most overlap a client can get
//   fetch           the ten-line loop anyone would write: Node's built-in fetch (which asks for
//                   gzip and deflate and decodes them by itself), response.text(), JSON.parse
// Usage: node bench/floor.mjs <mode> <baseUrl> <campaignId> [maxPages]
// Prints one JSON line: {"messages":…, "pages":…, "bytes":…, "tailCursorMisses":…, "firstPageMs":…}
// (fetch adds "wireBytes", the Content-Length as sent, and "encoding"). firstPageMs is the first
// page alone: from its request to its body read (and parsed, except raw), without the process's start.
import https from "node:https";

// As msgstat does (src/http/transport.ts): an ES module import of node:http loads Node's own undici on Node 22+.
const http = process.getBuiltinModule("node:http");

const MODES = ["raw", "parse", "parse-prefetch", "fetch"];
const [mode, baseUrl, campaignId, maxPagesText] = process.argv.slice(2);
if (!MODES.includes(mode) || !baseUrl || !campaignId) {
  process.stderr.write(`usage: node bench/floor.mjs ${MODES.join("|")} <baseUrl> <campaignId> [maxPages]\n`);
  process.exit(2);
}
const maxPages = maxPagesText ? Number(maxPagesText) : Number.POSITIVE_INFINITY;
const client = baseUrl.startsWith("https:") ? https : http;
const agent = new client.Agent({ keepAlive: true, maxSockets: 4, timeout: 4_000 });
const listing = `${baseUrl.replace(/\/+$/, "")}/campaigns/${encodeURIComponent(campaignId)}/messages?limit=1000`;

async function fetchBody(after) {
  const url = after === undefined ? listing : `${listing}&after=${encodeURIComponent(after)}`;
  const body = await new Promise((resolve, reject) => client.get(url, { agent }, resolve).on("error", reject));
  const { statusCode } = body;
  const chunks = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
  }
  if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

let tailCursorMisses = 0;
/**
 * hasNextPage and endCursor from the last 4 KB of the body, without parsing the page: the service
 * writes `pageData` after `data`, and cursors are plain base64url text. If the tail does not hold
 * a whole `"pageData":{…}` object, the page is parsed instead and the miss is counted.
 */
function pageDataFromTail(raw) {
  const tail = raw.subarray(Math.max(0, raw.length - 4096)).toString("latin1");
  const at = tail.lastIndexOf('"pageData":{');
  const end = at < 0 ? -1 : tail.indexOf("}", at);
  if (end >= 0) {
    const pageData = tail.slice(at, end + 1);
    const more = /"hasNextPage":(true|false)/.exec(pageData);
    const cursor = /"endCursor":"([^"\\]*)"/.exec(pageData);
    if (more && (more[1] === "false" || cursor)) return { hasNextPage: more[1] === "true", endCursor: cursor?.[1] };
  }
  tailCursorMisses++;
  return JSON.parse(raw.toString("utf8")).pageData;
}

let messages = 0;
let pages = 0;
let bytes = 0;
let wireBytes = 0;
const encodings = new Set();
const started = performance.now();
let firstPageMs;
/** Called once a page is read (and parsed): the first call fixes firstPageMs. */
const pageDone = () => {
  firstPageMs ??= Math.round((performance.now() - started) * 100) / 100;
};
if (mode === "raw") {
  for (let after; ;) {
    const raw = await fetchBody(after);
    pageDone();
    pages++;
    bytes += raw.length;
    const pageData = pageDataFromTail(raw);
    if (!pageData.hasNextPage || pages >= maxPages) break;
    after = pageData.endCursor;
  }
  messages = -1; // not counted: counting would need a parse
} else if (mode === "parse") {
  for (let after; ;) {
    const raw = await fetchBody(after);
    const page = JSON.parse(raw.toString("utf8"));
    pageDone();
    pages++;
    bytes += raw.length;
    messages += page.data.length;
    if (!page.pageData.hasNextPage || pages >= maxPages) break;
    after = page.pageData.endCursor;
  }
} else if (mode === "fetch") {
  for (let after; ;) {
    const response = await fetch(after === undefined ? listing : `${listing}&after=${encodeURIComponent(after)}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    const page = JSON.parse(text);
    pageDone();
    pages++;
    bytes += Buffer.byteLength(text);
    wireBytes += Number(response.headers.get("content-length") ?? Number.NaN);
    encodings.add(response.headers.get("content-encoding") ?? "identity");
    messages += page.data.length;
    if (!page.pageData.hasNextPage || pages >= maxPages) break;
    after = page.pageData.endCursor;
  }
} else {
  let pending = fetchBody(undefined);
  while (pending !== undefined) {
    const raw = await pending;
    pages++;
    bytes += raw.length;
    const pageData = pageDataFromTail(raw);
    pending = pageData.hasNextPage && pages < maxPages ? fetchBody(pageData.endCursor) : undefined;
    messages += JSON.parse(raw.toString("utf8")).data.length;
    pageDone();
  }
}
agent.destroy();
const fetched =
  mode === "fetch"
    ? { wireBytes: Number.isFinite(wireBytes) ? wireBytes : null, encoding: [...encodings].join(",") }
    : {};
process.stdout.write(JSON.stringify({ messages, pages, bytes, tailCursorMisses, firstPageMs, ...fetched }) + "\n");
