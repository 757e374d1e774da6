// `messages a b c`: several campaigns as one listing, over real HTTP. Against the sandbox's generated
// campaigns (their times interleave) for order, formats and --limit; against a small server of the
// test's own for a campaign that is missing, out of order, or fails part way, and to count requests in flight.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { instantOf } from "../../../src/core/time.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { NOW, sandboxForTest } from "../../support/cli-helpers.js";
import { campaignMessage, campaignPages, startListingServer } from "../../support/listing-server.js";
import { runCli } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const MANY = ["cmp-many-01", "cmp-many-02", "cmp-many-03"];

function manySandbox(): Promise<Sandbox> {
  return sandboxForTest({ messages: 120, campaigns: 3 });
}

const lines = (text: string) => text.split("\n").filter((line) => line !== "");
const parsed = (text: string) => lines(text).map((line) => JSON.parse(line) as { id: string; createdAt: string });

/** Each campaign alone, as JSONL lines (the server's text of each message). */
async function singleListings(sandbox: Sandbox, ids: readonly string[]): Promise<string[][]> {
  const listings: string[][] = [];
  for (const id of ids) {
    const result = await runCli(["--base-url", sandbox.url, "messages", id, "--all", "--jsonl"], { now: NOW });
    expect(result.code).toBe(0);
    listings.push(lines(result.stdout));
  }
  return listings;
}

/** What the merge must give: all messages, newest createdAt first, equal times in the order named (stable sort). */
function expectedMerge(listings: string[][]): string[] {
  const at = (line: string) => instantOf((JSON.parse(line) as { createdAt: string }).createdAt)!;
  return listings.flat().sort((a, b) => at(b) - at(a));
}

describe("messages with several campaigns (sandbox)", () => {
  it("merges campaigns whose times interleave, newest first across them, each message once and as sent", async () => {
    const sandbox = await manySandbox();
    const listings = await singleListings(sandbox, MANY);
    const result = await runCli(
      ["--base-url", sandbox.url, "messages", ...MANY, "--all", "--jsonl", "--page-size", "25"],
      { now: NOW },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const merged = lines(result.stdout);
    expect(merged).toEqual(expectedMerge(listings));
    expect(merged).toHaveLength(360);
    expect(new Set(parsed(result.stdout).map((m) => m.id)).size).toBe(360);
    // The times do interleave: the first ten come from more than one campaign.
    expect(
      new Set(
        parsed(result.stdout)
          .slice(0, 10)
          .map((m) => m.id.slice(0, 14)),
      ).size,
    ).toBeGreaterThan(1);
  });

  it("cuts the merged stream at --limit, and offers no cursor for several campaigns", async () => {
    const sandbox = await manySandbox();
    const all = expectedMerge(await singleListings(sandbox, MANY));
    const result = await runCli(["--base-url", sandbox.url, "messages", ...MANY, "-n", "7", "--jsonl"], { now: NOW });
    expect(result).toEqual({
      code: 0,
      stdout: all.slice(0, 7).join("\n") + "\n",
      stderr:
        "Showing 7 messages; more may follow. One --after cursor cannot continue several campaigns: use --all, " +
        "or a larger --limit, for more.\n",
    });
  });

  it("puts the campaign first in CSV and the table, and keeps the filters", async () => {
    const sandbox = await manySandbox();
    const csv = await runCli(
      [
        "--base-url",
        sandbox.url,
        "messages",
        "cmp-many-02",
        "cmp-many-01",
        "--status",
        "failure",
        "--all",
        "--csv",
        "--fields",
        "id,latestStatus",
      ],
      { now: NOW },
    );
    expect(csv.code).toBe(0);
    const rows = csv.stdout.split("\r\n").filter((row) => row !== "");
    expect(rows[0]).toBe("campaignId,id,latestStatus");
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows.slice(1)) {
      const [campaign, id, status] = row.split(",");
      expect(id!.startsWith(`msg-many${campaign!.slice(-2)}-`)).toBe(true);
      expect(status).toBe("failure");
    }
    const table = await runCli(["--base-url", sandbox.url, "messages", "cmp-many-01", "cmp-many-02", "-n", "2"], {
      now: NOW,
    });
    expect(lines(table.stdout)[0]!.split("\t").slice(0, 3)).toEqual(["CAMPAIGN", "ID", "RECIPIENT"]);
    expect(lines(table.stdout)[1]!.split("\t")[0]).toMatch(/^cmp-many-0[12]$/);
  });

  it("CSV keeps each campaign's offset unless --csv-times utc, whose text sorts in the rows' order", async () => {
    const sandbox = await manySandbox();
    const run = (...args: string[]) =>
      runCli(["--base-url", sandbox.url, "messages", ...MANY, "--all", ...args], { now: NOW });
    const sent = parsed((await run("--jsonl")).stdout) as Array<{ id: string; createdAt: string; campaignId: string }>;
    const rowsOf = (text: string) =>
      text
        .split("\r\n")
        .filter((row) => row !== "")
        .map((row) => row.split(","));
    const server = await run("--csv", "--fields", "id,createdAt");
    expect({ code: server.code, stderr: server.stderr }).toEqual({ code: 0, stderr: "" });
    expect(rowsOf(server.stdout)).toEqual([
      ["campaignId", "id", "createdAt"],
      ...sent.map((m) => [m.campaignId, m.id, m.createdAt]),
    ]);
    // Each campaign's own offset (+00:00, +05:30, -04:00): sorted as text, the rows would be out of time order.
    const serverTimes = sent.map((m) => m.createdAt);
    expect(new Set(serverTimes.map((text) => text.slice(-6)))).toEqual(new Set(["+00:00", "+05:30", "-04:00"]));
    expect([...serverTimes].sort().reverse()).not.toEqual(serverTimes);

    const utc = await run("--csv", "--fields", "id,createdAt", "--csv-times", "utc", "--tz", "Asia/Tokyo");
    expect({ code: utc.code, stderr: utc.stderr }).toEqual({ code: 0, stderr: "" });
    const utcTimes = sent.map((m) => new Date(instantOf(m.createdAt)!).toISOString());
    expect(rowsOf(utc.stdout)).toEqual([
      ["campaignId", "id", "createdAt"],
      ...sent.map((m, i) => [m.campaignId, m.id, utcTimes[i]]),
    ]);
    expect(utcTimes.every((text) => text.endsWith("Z"))).toBe(true);
    expect([...utcTimes].sort().reverse()).toEqual(utcTimes);
  });

  it("says on a terminal how far the merge got: campaigns done, pages, messages seen and kept", async () => {
    const sandbox = await manySandbox();
    const listings = await singleListings(sandbox, MANY);
    const failures = listings
      .flat()
      .filter((line) => (JSON.parse(line) as { latestStatus?: string }).latestStatus === "failure").length;
    const file = path.join(scratchFolder("many-progress"), "failures.csv");
    const result = await runCli(
      ["--base-url", sandbox.url, "messages", ...MANY, "--status", "failure", "--page-size", "20", "--all", "-o", file],
      { now: NOW, stderrTty: true },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Loading messages… 0 of 3 campaigns done, 1 page, 20 seen, \d+ kept/);
    expect(result.stderr).toContain(`Loading messages… 3 of 3 campaigns done, 18 pages, 360 seen, ${failures} kept`);
    expect(result.stderr.endsWith(`wrote ${failures} messages of 3 campaigns to ${file}\n`)).toBe(true);
  });

  it("reads ids from --campaigns-file - (stdin) besides the arguments, each once", async () => {
    const sandbox = await manySandbox();
    const fromArgs = await runCli(["--base-url", sandbox.url, "messages", ...MANY, "--all", "--jsonl"], { now: NOW });
    const fromStdin = await runCli(
      ["--base-url", sandbox.url, "messages", "cmp-many-01", "--campaigns-file", "-", "--all", "--jsonl"],
      { now: NOW, stdin: "# tonight's export\ncmp-many-02\n\ncmp-many-01\ncmp-many-03\n" },
    );
    expect(fromStdin).toEqual({ code: 0, stdout: fromArgs.stdout, stderr: "" });
  });

  it("refuses a cursor or --follow with several campaigns, before sending anything", async () => {
    const sandbox = await manySandbox();
    const before = sandbox.requests.length;
    const cursor = await runCli(["--base-url", sandbox.url, "messages", ...MANY, "--after", "x"], { now: NOW });
    expect(cursor).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: --after takes a cursor of one campaign, and several are named\n" +
        "  Give one campaign with a cursor, or leave the cursor out.\n",
    });
    const follow = await runCli(["--base-url", sandbox.url, "messages", ...MANY, "--follow"], { now: NOW });
    expect(follow.stderr).toBe("msgstat: --follow reads one campaign, and several are named\n");
    expect(sandbox.requests.length).toBe(before);
  });
});

/** Campaign `id` with messages at these minutes (larger is newer), served in the order given. */
const campaign = (id: string, minutes: number[]) =>
  minutes.map((minute, i) => campaignMessage(id, `${id}-${i}`, minute));

describe("messages with several campaigns (a server of the test's own)", () => {
  it("names a campaign that is not found, reads the other two to the end, and exits 3", async () => {
    const server = await startListingServer(
      campaignPages({ a: campaign("a", [5, 3, 1]), c: campaign("c", [4, 2, 0]) }),
    );
    const result = await runCli(
      ["--base-url", server.url, "messages", "a", "gone", "c", "--all", "--jsonl", "--fields", "id"],
      { now: NOW },
    );
    expect(result.code).toBe(3);
    expect(parsed(result.stdout).map((m) => m.id)).toEqual(["a-0", "c-0", "a-1", "c-1", "a-2", "c-2"]);
    expect(result.stderr).toBe(
      `warning: campaign gone: not found: GET ${server.url}/campaigns/gone/messages?limit=1000 answered HTTP 404: ` +
        "campaign not found\n" +
        "msgstat: 2 of 3 campaigns complete; not read to the end: gone\n",
    );
  });

  it("writes nothing, not even a header, when no campaign can be read", async () => {
    const server = await startListingServer(campaignPages({}));
    const result = await runCli(["--base-url", server.url, "messages", "x", "y", "--csv"], { now: NOW });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").slice(-2)).toEqual([
      "msgstat: 0 of 2 campaigns complete; not read to the end: x, y",
      "",
    ]);
  });

  it("says a campaign is not newest first and still loses nothing", async () => {
    const server = await startListingServer(
      campaignPages({ a: campaign("a", [1, 2, 3]), b: campaign("b", [6, 4, 0]) }),
    );
    const result = await runCli(
      ["--base-url", server.url, "messages", "a", "b", "--all", "--jsonl", "--fields", "id", "--page-size", "1"],
      { now: NOW },
    );
    expect(result.code).toBe(0);
    expect(parsed(result.stdout).map((m) => m.id)).toEqual(["b-0", "b-1", "a-0", "a-1", "a-2", "b-2"]);
    expect(result.stderr).toBe(
      "warning: campaign a: its messages do not come newest first; they are listed in the order it sent them, " +
        "so the merged output is out of order around them (none is left out)\n",
    );
  });

  const failingMidway = () =>
    startListingServer(
      campaignPages({ a: campaign("a", [9, 7, 5, 3, 1]), b: campaign("b", [8, 6, 4, 2, 0]) }, (id, page) =>
        id === "b" && page === 1 ? 500 : undefined,
      ),
    );
  const exportArgs = (url: string, file: string) => [
    "--base-url",
    url,
    "--retries",
    "0",
    "messages",
    "a",
    "b",
    "--all",
    "--page-size",
    "2",
    "--fields",
    "id",
    "-o",
    file,
  ];

  it("leaves -o untouched when a campaign fails part way", async () => {
    const server = await failingMidway();
    const file = path.join(scratchFolder("msgstat-many-"), "out.jsonl");
    writeFileSync(file, "yesterday's export\n");
    const result = await runCli(exportArgs(server.url, file), { now: NOW });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(readFileSync(file, "utf8")).toBe("yesterday's export\n");
    expect(result.stderr).toBe(
      `warning: campaign b: GET ${server.url}/campaigns/b/messages?limit=2&after=p1 failed after 1 attempt: ` +
        "HTTP 500: broken\n" +
        `${file} was left as it was: not every campaign was complete (add --partial to keep what came)\n` +
        "msgstat: 1 of 2 campaigns complete; not read to the end: b\n",
    );
  });

  it("with --partial, writes what came and says which campaign is cut short", async () => {
    const server = await failingMidway();
    const file = path.join(scratchFolder("msgstat-many-"), "out.jsonl");
    writeFileSync(file, "yesterday's export\n");
    const result = await runCli([...exportArgs(server.url, file), "--partial"], { now: NOW });
    expect(result.code).toBe(1);
    expect(parsed(readFileSync(file, "utf8")).map((m) => m.id)).toEqual([
      "a-0",
      "b-0",
      "a-1",
      "b-1",
      "a-2",
      "a-3",
      "a-4",
    ]);
    expect(result.stderr).toBe(
      `warning: campaign b: GET ${server.url}/campaigns/b/messages?limit=2&after=p1 failed after 1 attempt: ` +
        "HTTP 500: broken\n" +
        `wrote 7 messages of 2 campaigns to ${file}\n` +
        `${file} holds only part of b (after 2 messages)\n` +
        "msgstat: 1 of 2 campaigns complete; not read to the end: b\n",
    );
  });

  it("to stdout, offers one command per campaign cut short, which continues it without a gap or a repeat", async () => {
    const server = await failingMidway();
    const args = exportArgs(server.url, "").slice(0, -2);
    const result = await runCli([...args, "--jsonl"], { now: NOW });
    expect(result.code).toBe(1);
    const command = `msgstat --base-url ${server.url} --retries 0 messages b --all --page-size 2 --fields id --jsonl --after p1`;
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "A cursor continues one campaign. For the rest of each campaign cut short, run:",
      command,
      "msgstat: 1 of 2 campaigns complete; not read to the end: b",
      "",
    ]);
    const rest = await runCli(command.split(" ").slice(1), { now: NOW });
    expect(rest.code).toBe(0);
    const ofB = [...parsed(result.stdout), ...parsed(rest.stdout)].map((m) => m.id).filter((id) => id.startsWith("b"));
    expect(ofB).toEqual(["b-0", "b-1", "b-2", "b-3", "b-4"]);
  });

  it.each([
    [["--concurrency", "3"], 3],
    [[], 4],
  ])("has at most --concurrency requests in flight (%j: %i), and uses them", async (flag, most) => {
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const server = await startListingServer(
      campaignPages(Object.fromEntries(ids.map((id, k) => [id, campaign(id, [90 - k, 60 - k, 30 - k])]))),
      { holdUntil: most, holdMs: 20 },
    );
    const result = await runCli(
      ["--base-url", server.url, "messages", ...ids, ...flag, "--all", "--page-size", "1", "--jsonl"],
      { now: NOW },
    );
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(24);
    expect(server.maxInFlight).toBe(most);
  });
});
