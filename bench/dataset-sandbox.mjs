// The sandbox of the benchmark's dataset rows (`msgstat export`): `--campaigns N` campaigns of
// `size` messages, in a process of its own as every sandbox of the benchmark, whose listings can be told
// to show 1 % of the messages with their status flipped (success to failure, anything else to success),
// as if they had changed on the service since the last run. The sandbox has no flag for that, so this
// runs its library with `transform`.
//
//   node bench/dataset-sandbox.mjs <size> <campaigns>
//
// Prints its URL, then `campaign <id> <size>` for each of the many campaigns, then `ready`, in one write.
// Then reads commands on stdin, one a line, and answers each on stdout once it applies:
//   none     every message as generated                                       -> `changed none`
//   newest   the newest 1 % of each campaign (messages still being delivered,   -> `changed newest <count>`
//            as a nightly run sees them): its first ceil(size / 100) messages
//   spread   1 % chosen by a hash of the id, so spread over every day           -> `changed spread`
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { startSandbox } from "../dist/sandbox.js";

const [size, campaigns] = process.argv.slice(2).map(Number);
if (!Number.isInteger(size) || size < 1 || !Number.isInteger(campaigns) || campaigns < 1) {
  process.stderr.write("usage: node bench/dataset-sandbox.mjs <size> <campaigns>\n");
  process.exit(2);
}

const RULES = {
  none: () => false,
  newest: (message) => newestIds.has(message.id),
  spread: (message) => createHash("sha1").update(message.id).digest().readUInt32BE(0) % 100 === 0,
};
let changed = RULES.none;
/** The ids of the newest 1 % of each campaign, read from its listing once, before any rule applies. */
const newestIds = new Set();

const sandbox = await startSandbox({
  seed: 1,
  messages: size,
  campaigns,
  // A fixed clock: every run of the benchmark exports the same messages over the same days.
  now: Date.parse("2026-11-22T12:00:00.000Z"),
  transform: (body) => {
    for (const message of body?.data ?? [])
      if (changed(message)) message.latestStatus = message.latestStatus === "success" ? "failure" : "success";
    return body;
  },
});
const many = sandbox.campaigns.filter((campaign) => campaign.id.startsWith("cmp-many-"));

/** The first `count` ids of a campaign's listing (newest first), following the cursor as a client does. */
async function firstIds(campaignId, count) {
  const ids = [];
  let after;
  while (ids.length < count) {
    const query = new URLSearchParams({ limit: String(Math.min(1000, count - ids.length)) });
    if (after) query.set("after", after);
    const response = await fetch(`${sandbox.url}/campaigns/${encodeURIComponent(campaignId)}/messages?${query}`);
    if (!response.ok) throw new Error(`GET ${campaignId}'s listing: HTTP ${response.status}`);
    const page = await response.json();
    ids.push(...page.data.map((message) => message.id));
    if (!page.pageData.hasNextPage) break;
    after = page.pageData.endCursor;
  }
  return ids;
}

for (const campaign of many) for (const id of await firstIds(campaign.id, Math.ceil(size / 100))) newestIds.add(id);

process.stdout.write(
  `${sandbox.url}\n${many.map((campaign) => `campaign ${campaign.id} ${campaign.size}\n`).join("")}ready\n`,
);

const commands = createInterface({ input: process.stdin });
commands.on("line", (line) => {
  const rule = line.trim();
  if (!Object.hasOwn(RULES, rule)) {
    process.stdout.write(`unknown rule ${rule}\n`);
    return;
  }
  changed = RULES[rule];
  process.stdout.write(rule === "newest" ? `changed newest ${newestIds.size}\n` : `changed ${rule}\n`);
});

const stop = () => void sandbox.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// stdin closed: the benchmark has gone (even killed), so nothing will stop this sandbox but itself.
commands.on("close", stop);
