// The three endpoints as the reference names them, against the sandbox: each id sent as exactly one
// path segment, the query's parameters in one order with none left empty, `limit` sent as asked (the
// service's own bounds, 1 and 1000, both served), and a page read whole or in parts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/http/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import {
  decodePage,
  fetchMessage,
  fetchPage,
  fetchPageBody,
  PARSED_MESSAGES,
  SMALL_PARTS,
  SOURCED_MESSAGES,
} from "../../src/service/endpoints.js";
import { FIXED_NOW } from "../sandbox/http-helpers.js";
import { caught, testClient } from "../support/client.js";

let sandbox: Sandbox;
let client: ApiClient;
beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW });
  client = testClient(sandbox.url);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const lastTarget = () => sandbox.requests.at(-1)!.url;
const big = () => sandbox.campaigns.find((campaign) => campaign.size > 1000 && campaign.batches.length > 0)!;

describe("paths", () => {
  it("sends a campaign id holding / ? # % and dots as one segment, never another endpoint", async () => {
    const error = await caught(fetchPage(client, { campaignId: "../a/b?c#d%e." }, { limit: 5 }, PARSED_MESSAGES));
    expect(error.message).toMatch(/answered HTTP 404/);
    expect(lastTarget()).toBe("/campaigns/%2E%2E%2Fa%2Fb%3Fc%23d%25e%2E/messages?limit=5");
  });

  it("lists a batch under its campaign, and a message by both ids", async () => {
    const campaign = big();
    const batch = campaign.batches[0]!;
    const page = await fetchPage(client, { campaignId: campaign.id, batchId: batch.id }, { limit: 3 }, PARSED_MESSAGES);
    expect(lastTarget()).toBe(`/campaigns/${campaign.id}/batch/${batch.id}/messages?limit=3`);
    const [messages] = [...page.parts()].map((part) => part.data);
    expect(messages).toHaveLength(3);
    const one = await fetchMessage(client, campaign.id, messages![0]!.id);
    expect(lastTarget()).toBe(`/campaigns/${campaign.id}/messages/${messages![0]!.id}`);
    expect(one.message.id).toBe(messages![0]!.id);
  });
});

describe("query", () => {
  it("sends limit, after, before and search in that order, and leaves out those not given", async () => {
    const campaign = big();
    const first = await fetchPage(client, { campaignId: campaign.id }, { limit: 2 }, PARSED_MESSAGES);
    const cursor = first.pageData.endCursor as string;
    await fetchPageBody(client, { campaignId: campaign.id }, { limit: 2, search: "+4 4", after: cursor });
    expect(lastTarget()).toBe(`/campaigns/${campaign.id}/messages?limit=2&after=${cursor}&search=%2B4+4`);
    await fetchPageBody(client, { campaignId: campaign.id }, { limit: 2, before: cursor });
    expect(lastTarget()).toBe(`/campaigns/${campaign.id}/messages?limit=2&before=${cursor}`);
  });

  it.each([1, 1000])("sends limit %i as asked, and gets that many", async (limit) => {
    const page = await fetchPage(client, { campaignId: big().id }, { limit }, PARSED_MESSAGES);
    expect(lastTarget()).toMatch(new RegExp(`\\?limit=${limit}$`));
    expect(page.size).toBe(limit);
    expect(page.pageData.hasNextPage).toBe(true);
  });
});

describe("a page's messages", () => {
  it("read with their source: each message's text exactly as the service sent it", async () => {
    const campaign = big();
    const response = await fetch(`${sandbox.url}/campaigns/${campaign.id}/messages?limit=3`);
    const sent = (await response.text()).slice('{"data":['.length);
    const page = await fetchPage(client, { campaignId: campaign.id }, { limit: 3 }, SOURCED_MESSAGES);
    const texts = [...page.parts()].flatMap((part) => part.data.map((message) => message.source.text()));
    expect(sent.startsWith(texts.join(","))).toBe(true);
    expect(texts).toHaveLength(3);
  });

  it("in parts of 20: every message once, in order; the page's cursors only on the parts they are true of", async () => {
    const campaign = big();
    const whole = await fetchPage(client, { campaignId: campaign.id }, { limit: 50 }, PARSED_MESSAGES);
    const ids = [...whole.parts()].flatMap((part) => part.data.map((message) => message.id));
    const body = await fetchPageBody(client, { campaignId: campaign.id }, { limit: 50 });
    const inParts = decodePage(body, PARSED_MESSAGES, SMALL_PARTS);
    expect(inParts.inParts).toBe(true);
    const parts = [...inParts.parts()];
    expect(parts.map((part) => part.data.length)).toEqual([20, 20, 10]);
    expect(parts.flatMap((part) => part.data.map((message) => message.id))).toEqual(ids);
    expect(parts.map((part) => [part.pageData.startCursor, part.pageData.endCursor])).toEqual([
      [whole.pageData.startCursor, undefined],
      [undefined, undefined],
      [undefined, whole.pageData.endCursor],
    ]);
    expect(parts.map((part) => part.pageData.hasNextPage)).toEqual([true, true, whole.pageData.hasNextPage]);
    // The last part read frees the page's bytes: read from the end, a page is fetched again.
    const again = decodePage(
      await fetchPageBody(client, { campaignId: campaign.id }, { limit: 50 }),
      PARSED_MESSAGES,
      SMALL_PARTS,
    );
    expect([...again.parts(true)].map((part) => part.data[0]!.id)).toEqual([ids[40], ids[20], ids[0]]);
  });

  it("a body that is not a listing is said to be one, naming what is wrong", async () => {
    const { id } = big();
    const body = await fetchPageBody(client, { campaignId: id }, { limit: 1 });
    const message = (await fetch(`${sandbox.url}/campaigns/${id}/messages?limit=1`).then((r) => r.json())) as {
      data: { id: string }[];
    };
    const single = await client.get(["campaigns", id, "messages", message.data[0]!.id]);
    expect(() => decodePage(single, PARSED_MESSAGES)).toThrow(
      /^the listing response is not the shape msgstat expects: /,
    );
    expect(decodePage(body, PARSED_MESSAGES).size).toBe(1);
  });
});
