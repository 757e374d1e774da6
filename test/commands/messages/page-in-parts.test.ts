// A page too large to hold parsed (a server ignoring `limit`) is read a part at a time: the listing
// still behaves as for any page (limits, repeats, bad messages, walking back).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListingServer, type ListingServer } from "../../support/listing-server.js";
import { runCli } from "../../support/run-cli.js";

const COUNT = 150_000; // about 12 MB: past the size at which a page is read in parts
const message = (i: number) =>
  `{"id":"m${i}","latestStatus":"${i % 3 === 0 ? "failure" : "success"}","pad":"${"x".repeat(40)}"}`;
const ids = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { id: string }).id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);

let server: ListingServer;
let url: string;
beforeAll(async () => {
  const page = (
    messages: string[],
    pageData = '{"hasNextPage":false,"hasPreviousPage":true,"startCursor":"s","endCursor":"e"}',
  ) => `{"data":[${messages.join(",")}],"pageData":${pageData}}`;
  const plain = Array.from({ length: COUNT }, (_, i) => message(i));
  const bodies: Record<string, string> = {
    plain: page(plain),
    repeats: page(plain.map((text, i) => (i === 120_000 ? message(5) : text))),
    "no-id": page(plain.map((text, i) => (i === 100_000 ? '{"latestStatus":"success"}' : text))),
  };
  server = await startListingServer((target) => bodies[target.pathname.split("/")[1]!], { outsideTest: true });
  url = server.url;
});
afterAll(() => server.close());

describe("a page read in parts", () => {
  it("--all: every message once, in the page's order", async () => {
    const result = await runCli(["--base-url", `${url}/plain`, "messages", "c", "--all", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(range(0, COUNT));
  });

  it("--limit stops inside the page and says more may follow", async () => {
    const result = await runCli(["--base-url", `${url}/plain`, "messages", "c", "-n", "2500", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(range(0, 2500));
    expect(result.stderr).toBe("Showing 2,500 messages; more may follow. Use --all, or a larger --limit, for more.\n");
  });

  it("a filter looks through every part", async () => {
    const result = await runCli([
      "--base-url",
      `${url}/plain`,
      "messages",
      "c",
      "--all",
      "--status",
      "failure",
      "--jsonl",
    ]);
    expect(ids(result.stdout)).toEqual(range(0, COUNT).filter((_, i) => i % 3 === 0));
  });

  it("a message repeated in a later part is printed once, and the warning says so", async () => {
    const result = await runCli(["--base-url", `${url}/repeats`, "messages", "c", "--all", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(range(0, COUNT).filter((_, i) => i !== 120_000));
    expect(result.stderr).toBe(
      "warning: the service sent 1 message again (an id already seen in the last 3 pages); the repeats were left out\n",
    );
  });

  it("a message without an id stops the run with its path; the parts before it were written whole", async () => {
    const result = await runCli(["--base-url", `${url}/no-id`, "messages", "c", "--all", "--jsonl"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "msgstat: the listing response is not the shape msgstat expects: data.100000.id: expected a string, got nothing\n",
    );
    const written = ids(result.stdout);
    expect(written).toEqual(range(0, written.length));
    expect(written.length).toBeLessThanOrEqual(100_000);
  });

  it("walking back takes the messages nearest the cursor: the end of the page", async () => {
    const result = await runCli(["--base-url", `${url}/plain`, "messages", "c", "--before", "x", "-n", "5", "--jsonl"]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(range(COUNT - 5, COUNT));
  });
});
