import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Batch, Message, MessageAttempt } from "../../src/core/message.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FIXED_NOW, TIMESTAMP, getJson, pageForward, renderBody, type Page } from "./http-helpers.js";

const MESSAGE_KEYS = [
  "id",
  "createdAt",
  "updatedAt",
  "recipient",
  "values",
  "fullMessage",
  "latestStatus",
  "templateBodyId",
  "campaignId",
  "templateBody",
  "language",
  "creatorEmail",
];
const ERROR_PAIRS = new Set([
  "server_error/server_unknown_error",
  "delivery_error/delivery_unknown_error",
  "delivery_error/recipient_unavailable",
]);

let sandbox: Sandbox;
let spring: Message[];
let loyalty: Message[];
let otp: Message[];

beforeAll(async () => {
  sandbox = await startSandbox({ now: FIXED_NOW });
  spring = (await pageForward(sandbox.url, "/campaigns/cmp-spring-sale/messages", 1000)).messages;
  loyalty = (await pageForward(sandbox.url, "/campaigns/cmp-loyalty-es/messages", 1000)).messages;
  otp = (await pageForward(sandbox.url, "/campaigns/cmp-otp-alerts/messages", 1000)).messages;
});
afterAll(() => sandbox.close());

function timestampsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => timestampsIn(item, found));
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (["createdAt", "updatedAt", "sentAt"].includes(key)) found.push(inner as string);
      else timestampsIn(inner, found);
    }
  }
  return found;
}

function expectBaseMessage(message: Message, campaignId: string): void {
  for (const key of MESSAGE_KEYS) expect(message, key).toHaveProperty(key);
  expect(message.campaignId).toBe(campaignId);
  expect(message.templateBodyId).toBe(message.templateBody.id);
  expect(message.language).toBe(message.templateBody.language);
  expect(typeof message.id).toBe("string");
}

describe("campaign listing", () => {
  it("serves the advertised campaigns and sizes", () => {
    expect(sandbox.campaigns.map((c) => [c.id, c.size])).toEqual([
      ["cmp-spring-sale", 5000],
      ["cmp-loyalty-es", 1000],
      ["cmp-otp-alerts", 100],
      ["cmp-empty", 0],
    ]);
    expect(spring).toHaveLength(5000);
    expect(loyalty).toHaveLength(1000);
    expect(otp).toHaveLength(100);
  });

  it("answers JSON with the charset", async () => {
    const response = await fetch(`${sandbox.url}/campaigns/cmp-otp-alerts/messages?limit=1`);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("gives each message batches, messageAttempts, numAttempts, batchId only for members, never attempts", () => {
    for (const message of [...spring, ...loyalty, ...otp]) {
      expectBaseMessage(message, message.campaignId);
      expect(Array.isArray(message.batches)).toBe(true);
      expect(Array.isArray(message.messageAttempts)).toBe(true);
      expect(message.numAttempts).toBe(message.messageAttempts?.length);
      expect(message).not.toHaveProperty("attempts");
      if (message.batches?.length) {
        expect(message.batches).toHaveLength(1);
        expect(message.batchId).toBe(message.batches[0]?.id);
      } else {
        expect(message).not.toHaveProperty("batchId");
      }
    }
    expect(spring.some((m) => m.batchId !== undefined)).toBe(true);
    expect(spring.some((m) => m.batchId === undefined)).toBe(true);
    expect(otp.every((m) => m.batches?.length === 0)).toBe(true);
  });

  it("writes every timestamp with milliseconds and a numeric offset, a different offset per campaign", () => {
    const offsets = new Set<string>();
    for (const message of [...spring, ...loyalty, ...otp]) {
      for (const stamp of timestampsIn(message)) {
        expect(stamp).toMatch(TIMESTAMP);
        offsets.add(stamp.slice(-6));
      }
      for (const attempt of message.messageAttempts ?? []) expect(attempt.deliveredAt).toBeNull();
    }
    expect([...offsets].sort()).toEqual(["+00:00", "+05:30", "-04:00"]);
  });

  it("links batch members with a BatchMessage record and consistent batch fields", () => {
    const sizes = new Map(sandbox.campaigns.flatMap((c) => c.batches.map((b) => [b.id, b.size] as const)));
    for (const message of spring.filter((m) => m.batches?.length)) {
      const batch = message.batches?.[0] as Batch;
      expect(Object.keys(batch.BatchMessage).sort()).toEqual(["batchId", "createdAt", "id", "messageId", "updatedAt"]);
      expect(batch.BatchMessage.batchId).toBe(batch.id);
      expect(batch.BatchMessage.messageId).toBe(message.id);
      expect(batch.status).toBe("messages_enqueued");
      expect(batch.campaignId).toBe("cmp-spring-sale");
      expect(batch.totalMessages).toBe(sizes.get(batch.id));
      expect(batch.originalFileName).toMatch(/^spring-sale-wave-\d\.csv$/);
      expect(typeof batch.creatorId).toBe("string");
    }
  });
});

describe("message content", () => {
  it("renders fullMessage from the template body and fills every placeholder", () => {
    for (const message of [...spring, ...loyalty, ...otp]) {
      const placeholders = [...message.templateBody.body.matchAll(/\{\{([A-Za-z0-9_]+)\}\}/g)].map((match) => match[1]);
      expect(Object.keys(message.values).sort()).toEqual([...new Set(placeholders)].sort());
      expect(message.fullMessage).toBe(renderBody(message.templateBody.body, message.values));
    }
  });

  it("uses several templates and languages", () => {
    expect(new Set(spring.map((m) => m.templateBodyId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(spring.map((m) => m.language))).toEqual(new Set(["english", "spanish"]));
    expect(new Set(otp.map((m) => m.language)).size).toBe(2);
  });

  it("has digit-only recipients of 11 to 13 digits with varied country codes", () => {
    for (const message of spring) expect(message.recipient).toMatch(/^[1-9]\d{10,12}$/);
    const prefixes = ["1", "44", "91", "234", "34", "52", "971", "33"].filter((code) =>
      spring.some((m) => m.recipient.startsWith(code)),
    );
    expect(prefixes.length).toBeGreaterThanOrEqual(6);
    const with11 = spring.filter((m) => m.recipient.includes("11")).length;
    expect(with11).toBeGreaterThan(0);
    expect(with11).toBeLessThan(spring.length);
  });

  it("agrees latestStatus, attempts, errors and numAttempts", () => {
    for (const message of [...spring, ...loyalty, ...otp]) {
      const attempts = message.messageAttempts as MessageAttempt[];
      const last = attempts[attempts.length - 1] as MessageAttempt;
      expect(["created", "success", "failure"]).toContain(message.latestStatus);
      if (message.latestStatus === "created") {
        expect(attempts.map((a) => a.status)).toEqual(["sent"]);
      } else {
        expect(last.status).toBe(message.latestStatus);
        for (const earlier of attempts.slice(0, -1)) expect(earlier.status).toBe("failure");
      }
      for (const attempt of attempts) {
        expect(attempt.messageId).toBe(message.id);
        expect(attempt.creator).toEqual({ email: message.creatorEmail });
        expect(typeof attempt.metadata).toBe("object");
        if (attempt.status === "failure") {
          expect(ERROR_PAIRS.has(`${attempt.errorType}/${attempt.errorCode}`)).toBe(true);
        } else {
          expect(attempt.errorType).toBeNull();
          expect(attempt.errorCode).toBeNull();
        }
        if (attempt.status === "sent" || attempt.errorType === "server_error")
          expect(attempt.externalAttemptId).toBe("");
        if (attempt.status === "success") expect(attempt.externalAttemptId).not.toBe("");
      }
      // messageAttempts are oldest first, all after the message was created.
      const times = attempts.map((a) => Date.parse(a.createdAt));
      expect(times).toEqual([...times].sort((x, y) => x - y));
      expect(times[0]).toBeGreaterThanOrEqual(Date.parse(message.createdAt));
      expect(Date.parse(message.updatedAt)).toBeLessThanOrEqual(FIXED_NOW);
    }
  });

  it("mixes statuses: mostly success, 10-15% failure, recent ones more often created, some retries", () => {
    const share = (list: Message[], status: string) =>
      list.filter((m) => m.latestStatus === status).length / list.length;
    expect(share(spring, "success")).toBeGreaterThan(0.7);
    expect(share(spring, "failure")).toBeGreaterThan(0.08);
    expect(share(spring, "failure")).toBeLessThan(0.17);
    expect(share(spring.slice(0, 50), "created")).toBeGreaterThan(share(spring.slice(2500), "created") + 0.1);
    expect(spring.some((m) => m.latestStatus === "success" && (m.numAttempts ?? 0) >= 2)).toBe(true);
    expect(Math.max(...spring.map((m) => m.numAttempts ?? 0))).toBe(4);
    const codes = new Set(spring.flatMap((m) => m.messageAttempts?.map((a) => `${a.errorType}/${a.errorCode}`) ?? []));
    for (const pair of ERROR_PAIRS) expect(codes.has(pair)).toBe(true);
  });

  it("spreads createdAt over about three weeks before now, with some equal-millisecond ties", () => {
    const ages = spring.map((m) => FIXED_NOW - Date.parse(m.createdAt));
    const day = 86_400_000;
    expect(Math.min(...ages)).toBeLessThan(5 * 60_000);
    expect(Math.min(...ages)).toBeGreaterThan(0);
    expect(Math.max(...ages)).toBeGreaterThan(18 * day);
    expect(Math.max(...ages)).toBeLessThan(22 * day);
    expect(ages.filter((age) => age < day).length).toBeGreaterThan(0);
    expect(ages.filter((age) => age < 7 * day).length).toBeLessThan(spring.length / 2);
    const ties = spring.filter((m, i) => i > 0 && m.createdAt === spring[i - 1]?.createdAt).length;
    expect(ties).toBeGreaterThan(10);
  });

  it("puts hostile-but-legal text in about 5% of the messages' values and fullMessage", () => {
    const hostile = spring.filter((m) =>
      Object.values(m.values).some(
        (v) => /[,"\n\r\t\u0000\u001b\u009b\u202e\u0590-\u06ff]|^[=+\-@]/.test(v) || v.includes("\u200d"),
      ),
    );
    expect(hostile.length / spring.length).toBeGreaterThan(0.02);
    expect(hostile.length / spring.length).toBeLessThan(0.1);
    const values = hostile.flatMap((m) => Object.values(m.values));
    const expectations: [string, (v: string) => boolean][] = [
      ["comma and quote", (v) => v.includes(",") && v.includes('"')],
      ["newline", (v) => /[^\r]\n/.test(v)],
      ["CRLF", (v) => v.includes("\r\n")],
      ["tab", (v) => v.includes("\t")],
      ["ZWJ emoji", (v) => v.includes("\u200d")],
      ["Arabic", (v) => /[\u0600-\u06ff]/.test(v)],
      ["Hebrew", (v) => /[\u0590-\u05ff]/.test(v)],
      ["U+202E", (v) => v.includes("\u202e")],
      ["formula =", (v) => v.startsWith("=")],
      ["formula +", (v) => v.startsWith("+")],
      ["formula -", (v) => v.startsWith("-")],
      ["formula @", (v) => v.startsWith("@")],
      ["ANSI colour", (v) => v.includes("\u001b[31m")],
      ["ANSI clear", (v) => v.includes("\u001b[2J")],
      ["OSC 52", (v) => v.includes("\u001b]52;")],
      ["C1 CSI", (v) => v.includes("\u009b")],
      ["NUL", (v) => v.includes("\u0000")],
    ];
    for (const [name, test] of expectations) expect(values.some(test), name).toBe(true);
    for (const message of hostile)
      expect(message.fullMessage).toBe(renderBody(message.templateBody.body, message.values));
  });
});

describe("batch listing", () => {
  it("lists exactly the campaign messages whose batchId is that batch, without batches or batchId", async () => {
    for (const campaign of sandbox.campaigns.filter((c) => c.batches.length > 0)) {
      const all = campaign.id === "cmp-spring-sale" ? spring : loyalty;
      for (const batch of campaign.batches) {
        const members = (await pageForward(sandbox.url, `/campaigns/${campaign.id}/batch/${batch.id}/messages`, 1000))
          .messages;
        const expected = all.filter((m) => m.batchId === batch.id);
        expect(members.map((m) => m.id)).toEqual(expected.map((m) => m.id));
        expect(members.length).toBe(batch.size);
        expect(expected[0]?.batches?.[0]?.totalMessages).toBe(members.length);
        for (const member of members) {
          expectBaseMessage(member, campaign.id);
          expect(member).not.toHaveProperty("batches");
          expect(member).not.toHaveProperty("batchId");
          expect(member).not.toHaveProperty("attempts");
          expect(member.numAttempts).toBe(member.messageAttempts?.length);
        }
        const twin = expected[0] as Message;
        const { batches: _b, batchId: _id, ...twinRest } = twin;
        expect(members[0]).toEqual(twinRest);
      }
    }
  });
});

describe("single message", () => {
  it("returns the message itself with batches and newest-first attempts, no messageAttempts or numAttempts", async () => {
    const sample = [
      spring[0],
      spring.find((m) => m.batchId),
      spring.find((m) => (m.numAttempts ?? 0) >= 3),
      spring.find((m) => m.latestStatus === "failure"),
      otp[5],
    ] as Message[];
    for (const listed of sample) {
      const { status, body, headers } = await getJson<Message>(
        `${sandbox.url}/campaigns/${listed.campaignId}/messages/${listed.id}`,
      );
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(body).not.toHaveProperty("data");
      expect(body).not.toHaveProperty("messageAttempts");
      expect(body).not.toHaveProperty("numAttempts");
      expect(body).not.toHaveProperty("batchId");
      const { messageAttempts, numAttempts: _n, batchId: _b, ...rest } = listed;
      const { attempts, ...bodyRest } = body;
      expect(bodyRest).toEqual(rest);
      const expected = (messageAttempts ?? [])
        .map((a) =>
          a.errorType && a.errorCode
            ? { status: a.status, createdAt: a.createdAt, error: { type: a.errorType, code: a.errorCode } }
            : { status: a.status, createdAt: a.createdAt },
        )
        .reverse();
      expect(attempts).toEqual(expected);
      for (const stamp of timestampsIn(body)) expect(stamp).toMatch(TIMESTAMP);
    }
  });
});

describe("empty campaign", () => {
  it("answers an empty listing with 200", async () => {
    const { status, body } = await getJson<Page>(`${sandbox.url}/campaigns/cmp-empty/messages?limit=10`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], pageData: { hasNextPage: false, hasPreviousPage: false } });
  });
});
