// The floors msgstat is measured against: the same pages, fetched with the same HTTP client and
// agent settings as msgstat (undici request, one keep-alive agent), in the least work each needs.
//   raw             fetch every page and discard the body; the cursor comes from the body's tail
//   parse           fetch, decode and JSON.parse each page in a plain sequential loop, nothing else
//   parse-prefetch  as parse, but the next request leaves as soon as the cursor is read from the
//                   tail, before the current page is parsed: the most overlap a client can get
// Usage: node bench/floor.mjs <mode> <baseUrl> <campaignId> [maxPages]
// Prints one JSON line: {"messages":…, "pages":…, "bytes":…, "tailCursorMisses":…}
import { Agent, request } from "undici";

const [mode, baseUrl, campaignId, maxPagesText] = process.argv.slice(2);
if (!["raw", "parse", "parse-prefetch"].includes(mode) || !baseUrl || !campaignId) {
  process.stderr.write("usage: node bench/floor.mjs raw|parse|parse-prefetch <baseUrl> <campaignId> [maxPages]\n");
  process.exit(2);
}
const maxPages = maxPagesText ? Number(maxPagesText) : Number.POSITIVE_INFINITY;
const agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
const listing = `${baseUrl.replace(/\/+$/, "")}/campaigns/${encodeURIComponent(campaignId)}/messages?limit=1000`;

async function fetchBody(after) {
  const { statusCode, body } = await request(after === undefined ? listing : `${listing}&after=${encodeURIComponent(after)}`, { dispatcher: agent });
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
if (mode === "raw") {
  for (let after; ; ) {
    const raw = await fetchBody(after);
    pages++;
    bytes += raw.length;
    const pageData = pageDataFromTail(raw);
    if (!pageData.hasNextPage || pages >= maxPages) break;
    after = pageData.endCursor;
  }
  messages = -1; // not counted: counting would need a parse
} else if (mode === "parse") {
  for (let after; ; ) {
    const raw = await fetchBody(after);
    const page = JSON.parse(raw.toString("utf8"));
    pages++;
    bytes += raw.length;
    messages += page.data.length;
    if (!page.pageData.hasNextPage || pages >= maxPages) break;
    after = page.pageData.endCursor;
  }
} else {
  let pending = fetchBody(undefined);
  while (pending) {
    const raw = await pending;
    pages++;
    bytes += raw.length;
    const pageData = pageDataFromTail(raw);
    pending = pageData.hasNextPage && pages < maxPages ? fetchBody(pageData.endCursor) : undefined;
    messages += JSON.parse(raw.toString("utf8")).data.length;
  }
}
await agent.close();
process.stdout.write(JSON.stringify({ messages, pages, bytes, tailCursorMisses }) + "\n");
