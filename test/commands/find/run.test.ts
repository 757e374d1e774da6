// `msgstat find <recipient> [campaignId...]` over real HTTP, against a small server whose campaigns hold
// one customer's number beside numbers that contain it, end with it, or share its national digits in
// another country; `search` is answered as the reference says (a substring of the recipient), so what
// the server sends back is more than that customer's messages and find must keep exactly theirs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import { startSandbox } from "../../../src/sandbox/index.js";
import { FIXED_NOW } from "../../sandbox/http-helpers.js";
import { fetchSelected } from "../stats/expected.js";
import { startListingServer, Status, type ListingServer } from "../../support/listing-server.js";
import { configFolder } from "../../support/profiles.js";
import { runCli, type CliOptions } from "../../support/run-cli.js";

const NOW = Date.UTC(2026, 10, 25, 12, 0);
const DAY = 86_400_000;
const CUSTOMER = "447700900123";

/** A message of a campaign, `daysAgo` old, to `recipient`. */
function message(campaignId: string, id: string, daysAgo: number, recipient: string, latestStatus = "success") {
  return {
    id,
    campaignId,
    createdAt: new Date(NOW - daysAgo * DAY).toISOString().replace("Z", "+00:00"),
    recipient,
    latestStatus,
    numAttempts: 1,
    messageAttempts: [],
  };
}

const CAMPAIGNS: Record<string, ReturnType<typeof message>[]> = {
  "cmp-a": [
    message("cmp-a", "a-1", 1, CUSTOMER),
    message("cmp-a", "a-2", 1.5, "4477009001234"), // contains the number
    message("cmp-a", "a-3", 2, "1447700900123"), // ends with it
    message("cmp-a", "a-4", 3, "15550100"),
    message("cmp-a", "a-5", 20, CUSTOMER, "failure"),
  ],
  "cmp-b": [
    message("cmp-b", "b-1", 0.5, "15550101"),
    message("cmp-b", "b-2", 2.5, CUSTOMER, "failure"),
    message("cmp-b", "b-3", 4, "337700900123"), // the same national digits in France
  ],
  "cmp-c": [message("cmp-c", "c-1", 1, "15550102")],
};

let url: string;
const searches: string[] = [];
let server: ListingServer;

beforeAll(async () => {
  server = await startListingServer(
    (target) => {
      const [, , campaignId] = target.pathname.split("/").map(decodeURIComponent);
      const messages = CAMPAIGNS[campaignId!];
      if (messages === undefined) return new Status(404, { message: `Campaign "${campaignId}" does not exist.` });
      const search = target.searchParams.get("search");
      if (search !== null) searches.push(`${campaignId}:${search}`);
      const data = messages.filter((m) => search === null || m.recipient.includes(search));
      return { data, pageData: { hasNextPage: false, hasPreviousPage: false } };
    },
    { outsideTest: true },
  );
  url = server.url;
});
afterAll(() => server.close());

const find = (args: string[], options: CliOptions = {}) =>
  runCli(["--base-url", url, "find", ...args], { now: NOW, ...options });

/** The ids of a piped table's rows, after its header line. */
const idsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t")[1]);

describe("a full international number: that number's messages and no other's", () => {
  it.each(["+44 7700 900123", "0044 7700 900123", "447700900123", "+44 (0)7700 900-123"])(
    "%j, across the campaigns named, newest first",
    async (typed) => {
      searches.length = 0;
      const result = await find([typed, "cmp-a", "cmp-b", "cmp-c"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      // Not a-2 (contains the digits), a-3 (ends with them) nor b-3 (same national digits elsewhere).
      expect(idsOf(result.stdout)).toEqual(["a-1", "b-2", "a-5"]);
      expect(result.stdout.split("\n")[0]!.split("\t").slice(0, 3)).toEqual(["CAMPAIGN", "ID", "RECIPIENT"]);
      expect(result.stdout.split("\n")[1]!.split("\t").slice(0, 3)).toEqual(["cmp-a", "a-1", CUSTOMER]);
      // The server was asked for the digits: its substring match narrows, the exact match is msgstat's.
      expect(searches.sort()).toEqual([`cmp-a:${CUSTOMER}`, `cmp-b:${CUSTOMER}`, `cmp-c:${CUSTOMER}`]);
    },
  );

  it("the dashes a word processor writes (– — ‐ ‑ −) are read as -, as no-break and thin spaces are spaces", async () => {
    for (const typed of [
      "+44\u20137700\u2013900123",
      "+44\u20147700\u2014900123",
      "+44\u20107700\u2011900123",
      "+44 7700\u2212900123",
      "+44\u00a07700\u2009900123",
    ]) {
      const result = await find([typed, "cmp-a", "cmp-b"]);
      expect({ typed, stderr: result.stderr, code: result.code }).toEqual({ typed, stderr: "", code: 0 });
      expect(idsOf(result.stdout)).toEqual(["a-1", "b-2", "a-5"]);
    }
  });

  it("the support question in one command: which of this customer's messages failed this week?", async () => {
    const result = await find(["+44 7700 900123", "cmp-a", "cmp-b", "cmp-c", "--status", "failure", "--since", "7d"]);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(["b-2"]);
  });

  it("--json: the messages as the server sent them, newest first", async () => {
    const result = await find([CUSTOMER, "cmp-b", "cmp-a", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([CAMPAIGNS["cmp-a"]![0], CAMPAIGNS["cmp-b"]![1], CAMPAIGNS["cmp-a"]![4]]);
  });

  it("--csv has the campaign column first; -n caps the merged listing", async () => {
    const result = await find([CUSTOMER, "cmp-a", "cmp-b", "--csv", "-n", "2", "--fields", "id,latestStatus"]);
    expect(result.stdout).toBe("campaignId,id,latestStatus\r\ncmp-a,a-1,success\r\ncmp-b,b-2,failure\r\n");
    expect(result.code).toBe(0);
  });

  it("--csv-times utc or tz: the CSV's times converted, as for messages a b", async () => {
    const args = [CUSTOMER, "cmp-a", "cmp-b", "--csv", "--fields", "id,createdAt"];
    expect(await find([...args, "--csv-times", "utc"])).toEqual({
      code: 0,
      stdout:
        "campaignId,id,createdAt\r\ncmp-a,a-1,2026-11-24T12:00:00.000Z\r\ncmp-b,b-2,2026-11-23T00:00:00.000Z\r\n" +
        "cmp-a,a-5,2026-11-05T12:00:00.000Z\r\n",
      stderr: "",
    });
    expect((await find([...args, "--csv-times", "tz", "--tz", "Europe/Paris"])).stdout).toBe(
      "campaignId,id,createdAt\r\ncmp-a,a-1,2026-11-24T13:00:00.000+01:00\r\ncmp-b,b-2,2026-11-23T01:00:00.000+01:00\r\n" +
        "cmp-a,a-5,2026-11-05T13:00:00.000+01:00\r\n",
    );
  });

  it("no message to that number: an empty result, exit 0, and stderr says what was looked for", async () => {
    const result = await find(["+44 7700 900999", "cmp-a", "cmp-b", "--json"]);
    expect(result).toEqual({
      code: 0,
      stdout: "[]\n",
      stderr: "No messages to +447700900999 in 2 campaigns, at any time.\n",
    });
  });

  it("an empty find names the statuses and the window asked for, then the statuses of the number's messages", async () => {
    const result = await find([CUSTOMER, "cmp-a", "cmp-b", "cmp-c", "--status", "created", "--since", "7d"]);
    expect(result).toEqual({
      code: 0,
      stdout: "CAMPAIGN\tID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE\n",
      stderr:
        "No messages to +447700900123 in 3 campaigns with status created,\n" +
        "created since 2026-11-18 12:00 UTC.\n" +
        "Statuses of the messages read: failure 2, success 1.\n",
    });
    const until = await find(["*9999", "cmp-a", "--until", "2026-11-01", "--tz", "Europe/London"]);
    expect(until.stderr).toBe(
      "No messages to numbers ending in 9999 in 1 campaign,\ncreated until 2026-11-01 23:59 Europe/London.\n",
    );
  });

  it("an empty find with a campaign that could not be read says how many were", async () => {
    const result = await find(["+44 7700 900999", "cmp-a", "cmp-gone"]);
    expect(result.code).toBe(3);
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "No messages to +447700900999 in 1 of 2 campaigns, at any time.",
      "msgstat: 1 of 2 campaigns complete; not read to the end: cmp-gone",
      "",
    ]);
  });
});

describe("on a terminal", () => {
  const SCREENS: Record<number, string[]> = {
    // The time in its short form: what is left once the error has its room.
    80: [
      // The room to spare goes to the error, for a longer code to come.
      "CAMPAIGN         ID                  STATUS   ERROR                  CREATED",
      "                                                                     UTC",
      "cmp-spring-sale  msg-spring-0000071  failure  server_unknown_error   05-01 00:40",
    ],
    160: [
      "CAMPAIGN         ID                  STATUS   TRIES  ERROR                 CREATED (UTC)     MESSAGE",
      "cmp-spring-sale  msg-spring-0000071  failure  2      server_unknown_error  2025-05-01 00:40  " +
        "¡Hola Ana! Rebajas de primavera: 10% de descuento hasta el 2 May. …",
    ],
  };
  // What did not fit is named, once, on stderr.
  const HIDDEN: Record<number, string> = { 80: "Hidden at 80 columns: TRIES, MESSAGE (--wide shows all)\n", 160: "" };
  const ENDING_SCREENS: Record<number, string[]> = {
    80: [
      "CAMPAIGN         ID                  RECIPIENT     STATUS   ERROR",
      "cmp-spring-sale  msg-spring-0000071  448002935115  failure  server_unknown_error",
      // The id runs a cell past its column, never cut; the recipient's spare cell takes it back. The longer
      // error code is never cut either: where no cell is left to spare (80 columns), it runs past the edge.
      "cmp-loyalty-es   msg-loyalty-0000348  17295035115  failure  recipient_unavailable",
    ],
    160: [
      "CAMPAIGN         ID                  RECIPIENT     STATUS   TRIES  ERROR                 CREATED (UTC)     MESSAGE",
      "cmp-spring-sale  msg-spring-0000071  448002935115  failure  2      server_unknown_error  2025-05-01 00:40  " +
        "¡Hola Ana! Rebajas de primavera: 10% de descuento ha…",
      // The longer code runs a cell past its column; the message text gives the cell back.
      "cmp-loyalty-es   msg-loyalty-0000348  17295035115  failure  1      recipient_unavailable  2025-04-24 14:10  " +
        "Fatima, tienes 4687 puntos. Tu código: 214166. Canj…",
    ],
  };
  const ENDING_NOTES: Record<number, string> = {
    80: "Hidden at 80 columns: TRIES, CREATED, BATCH, FILE, MESSAGE (--wide shows all)\n",
    160: "Hidden at 160 columns: BATCH, FILE (--wide shows all)\n",
  };
  const campaigns = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts"];
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW });
  });
  afterAll(() => sandbox.close());
  const findIn = (typed: string, { extra = [], ...options }: CliOptions & { extra?: string[] }) =>
    runCli(["--base-url", sandbox.url, "find", typed, ...campaigns, ...extra], { now: FIXED_NOW, ...options });

  it.each([80, 160])(
    "at %i columns: one number, so no RECIPIENT column; the campaign, id, status, error and time show",
    async (columns) => {
      const result = await findIn("+44 800 293 5115", { tty: true, columns, env: { NO_COLOR: "1" } });
      expect(result).toEqual({ code: 0, stdout: SCREENS[columns]!.join("\n") + "\n", stderr: HIDDEN[columns] });
    },
  );

  // Its first page holds one message, of cmp-spring-sale; the next comes from cmp-loyalty-es, whose ids are
  // a cell longer, and fails with a longer code: the table keeps its one header and its columns.
  it.each([80, 160])(
    "*5115 at %i columns: one table under one header, though later rows are wider; no error code cut",
    async (columns) => {
      const result = await findIn("*5115", { tty: true, columns, env: { NO_COLOR: "1" } });
      expect(result).toEqual({
        code: 0,
        stdout: ENDING_SCREENS[columns]!.join("\n") + "\n",
        stderr: ENDING_NOTES[columns],
      });
    },
  );

  it("--since: the time is what was asked about, so it shows before the error at 80 columns", async () => {
    const result = await findIn("*5115", { tty: true, columns: 80, env: { NO_COLOR: "1" }, extra: ["--since", "30d"] });
    expect(result).toEqual({
      code: 0,
      stdout:
        "CAMPAIGN         ID                  RECIPIENT     STATUS   CREATED (UTC)\n" +
        "cmp-spring-sale  msg-spring-0000071  448002935115  failure  2025-05-01 00:40\n" +
        "cmp-loyalty-es   msg-loyalty-0000348  17295035115  failure  2025-04-24 14:10\n",
      stderr: "Hidden at 80 columns: TRIES, ERROR, BATCH, FILE, MESSAGE (--wide shows all)\n",
    });
  });

  it("in one campaign: no CAMPAIGN column on a terminal, where it would repeat itself; piped, it stays", async () => {
    const one = (options: CliOptions) =>
      runCli(["--base-url", sandbox.url, "find", "+44 800 293 5115", "cmp-spring-sale"], {
        now: FIXED_NOW,
        ...options,
      });
    expect(await one({ tty: true, columns: 80, env: { NO_COLOR: "1" } })).toEqual({
      code: 0,
      stdout:
        "ID                  STATUS   TRIES  ERROR                   CREATED (UTC)\n" +
        "msg-spring-0000071  failure  2      server_unknown_error    2025-05-01 00:40\n",
      stderr: "Hidden at 80 columns: MESSAGE (--wide shows all)\n",
    });
    expect((await one({ columns: 80 })).stdout.split("\n")[0]).toBe(
      "CAMPAIGN\tID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE",
    );
  });

  it("--since with a full number at 80 columns: the time in its short form, so that the error code is whole", async () => {
    const result = await findIn("+44 800 293 5115", {
      tty: true,
      columns: 80,
      env: { NO_COLOR: "1" },
      extra: ["--since", "30d"],
    });
    expect(result).toEqual({
      code: 0,
      stdout:
        "CAMPAIGN         ID                  STATUS   ERROR                  CREATED\n" +
        "                                                                     UTC\n" +
        "cmp-spring-sale  msg-spring-0000071  failure  server_unknown_error   05-01 00:40\n",
      stderr: "Hidden at 80 columns: TRIES, MESSAGE (--wide shows all)\n",
    });
  });

  it("piped, or for an ending that matches many numbers, the RECIPIENT column stays", async () => {
    const piped = await findIn("+44 800 293 5115", { columns: 80 });
    expect(piped.stdout.split("\n")[0]).toBe(
      "CAMPAIGN\tID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE",
    );
    const ending = await findIn("*5115", { tty: true, columns: 80, env: { NO_COLOR: "1" } });
    expect(ending.stdout.split("\n")[0]).toMatch(/^CAMPAIGN +ID +RECIPIENT +STATUS/);
  });
});

describe("a national number", () => {
  it("without a country calling code: the numbers ending in its digits, in any country, and stderr says so", async () => {
    const result = await find(["07700 900123", "cmp-a", "cmp-b"]);
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(["a-1", "a-3", "b-2", "b-3", "a-5"]);
    // Two lines, each within 80 columns (a note on stderr is not wrapped).
    expect(result.stderr).toBe(
      "07700900123: no country code set; listing numbers ending in 7700900123\n" +
        "For one country: --country-code 44 (UK), or msgstat config set country-code 44\n",
    );
    for (const line of result.stderr.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("with --country-code: that full number exactly", async () => {
    const result = await find(["07700 900123", "cmp-a", "cmp-b", "--country-code", "44"]);
    expect(result.stderr).toBe("");
    expect(idsOf(result.stdout)).toEqual(["a-1", "b-2", "a-5"]);
  });

  it("with the profile's country-code, or MSGSTAT_COUNTRY_CODE", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": url, "country-code": "44" } });
    const fromProfile = await config.run(["find", "07700900123", "cmp-a", "cmp-b"], { now: NOW });
    expect(fromProfile.stderr).toBe("");
    expect(idsOf(fromProfile.stdout)).toEqual(["a-1", "b-2", "a-5"]);
    // The environment wins over the profile, the flag over both: France's +33 7700900123 is b-3.
    const fromEnv = await config.run(["find", "07700900123", "cmp-b"], {
      now: NOW,
      env: { MSGSTAT_COUNTRY_CODE: "33" },
    });
    expect(idsOf(fromEnv.stdout)).toEqual(["b-3"]);
  });
});

describe("a national number written without a trunk 0 or +, as in the US", () => {
  const campaigns = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts"];
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox({ now: FIXED_NOW });
  });
  afterAll(() => sandbox.close());
  const findIn = (args: string[], options: CliOptions = {}) =>
    runCli(["--base-url", sandbox.url, "find", ...args, ...campaigns, "--fields", "id,recipient"], {
      now: FIXED_NOW,
      ...options,
    });

  it.each([
    ["(720) 970-3582", "1", "msg-spring-0000018\t17209703582"],
    ["720.970.3582", "1", "msg-spring-0000018\t17209703582"],
    ["7773 185432", "44", "msg-spring-0001150\t447773185432"],
  ])("%j with --country-code %s: that country's number, found", async (typed, code, row) => {
    const result = await findIn([typed, "--country-code", code]);
    expect(result).toEqual({ code: 0, stdout: `campaignId\tid\trecipient\ncmp-spring-sale\t${row}\n`, stderr: "" });
  });

  it("with the country code from MSGSTAT_COUNTRY_CODE or the profile too", async () => {
    const expected = {
      code: 0,
      stdout: "campaignId\tid\trecipient\ncmp-spring-sale\tmsg-spring-0000018\t17209703582\n",
      stderr: "",
    };
    expect(await findIn(["(720) 970-3582"], { env: { MSGSTAT_COUNTRY_CODE: "1" } })).toEqual(expected);
    const config = configFolder();
    config.write({ default: { "base-url": sandbox.url, "country-code": "+1" } });
    const fromProfile = await config.run(["find", "(720) 970-3582", ...campaigns, "--fields", "id,recipient"], {
      now: FIXED_NOW,
    });
    expect(fromProfile).toEqual(expected);
  });

  it("without a country code: read as the international number, and stderr says so, and what was searched", async () => {
    const result = await findIn(["(720) 970-3582"]);
    expect(result).toEqual({
      code: 0,
      stdout: "campaignId\tid\trecipient\n",
      stderr:
        "(720) 970-3582: no + or 00 and no country code, so read as +7209703582\n" +
        "A national number? --country-code 1 (US), or msgstat config set country-code 1\n" +
        "No messages to +7209703582 in 3 campaigns, at any time.\n",
    });
  });

  it("one that starts with the country code could be either: exit 2, both spellings offered", async () => {
    const result = await findIn(["1 (720) 970-3582", "--country-code", "1"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: "1 (720) 970-3582" could be +17209703582 (typed without its +) or the national number ' +
        "17209703582 of country code 1 (+117209703582)\n" +
        "  Say which: msgstat find '+17209703582', or with the trunk 0: msgstat find 017209703582\n",
    });
  });
});

describe("*digits: the numbers ending in them", () => {
  it("lists every number that ends so", async () => {
    const result = await find(["*900123", "cmp-a"]);
    expect(idsOf(result.stdout)).toEqual(["a-1", "a-3", "a-5"]);
  });
});

describe("the campaigns", () => {
  it("from the profile's campaigns list when none are named", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": url } });
    expect(await config.run(["config", "set", "campaigns", "cmp-a,cmp-b,cmp-c"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    const result = await config.run(["find", "+44 7700 900123"], { now: NOW });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout)).toEqual(["a-1", "b-2", "a-5"]);
    // Campaigns named on the command line take the place of the list.
    expect(idsOf((await config.run(["find", CUSTOMER, "cmp-b"], { now: NOW })).stdout)).toEqual(["b-2"]);
  });

  it("with none named and no list in the profile: exit 2 with advice, nothing sent", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": url }, support: { "base-url": url } });
    searches.length = 0;
    expect(await config.run(["find", CUSTOMER])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: find needs the campaigns to look in: name them, or save a list in the profile ("default" has none)\n' +
        "  msgstat find <number> cmp-a cmp-b, or once: msgstat config set campaigns cmp-a,cmp-b (the API cannot " +
        "list campaigns)\n",
    });
    expect((await config.run(["find", CUSTOMER, "--profile", "support"])).stderr).toContain(
      "msgstat config set --profile support campaigns cmp-a,cmp-b",
    );
    expect(searches).toEqual([]);
  });

  it("a campaign that cannot be read is named; the others are listed; exit 3", async () => {
    const result = await find([CUSTOMER, "cmp-a", "cmp-gone", "cmp-b"]);
    expect(result.code).toBe(3);
    expect(idsOf(result.stdout)).toEqual(["a-1", "b-2", "a-5"]);
    expect(result.stderr).toBe(
      `warning: campaign cmp-gone: not found: GET ${url}/campaigns/cmp-gone/messages?limit=1000&search=${CUSTOMER} ` +
        `answered HTTP 404: Campaign "cmp-gone" does not exist.\n` +
        "msgstat: 2 of 3 campaigns complete; not read to the end: cmp-gone\n",
    );
  });
});

describe("what cannot be one person's number", () => {
  it.each([
    ["abc", 'msgstat: "abc" is not a phone number'],
    ["0779", 'msgstat: "0779" is too short for a national number (a trunk 0 and at least 8 digits)'],
    ["12345", 'msgstat: "12345" has 5 digits: a full international number has 7 to 15, country code included'],
  ])("%j: exit 2, nothing sent", async (typed, first) => {
    searches.length = 0;
    const result = await find([typed, "cmp-a"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]!.startsWith(first)).toBe(true);
    expect(searches).toEqual([]);
  });

  it("--country-code that is not one: exit 2", async () => {
    const result = await find(["07700900123", "cmp-a", "--country-code", "4x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'msgstat: --country-code must be a country calling code of 1 to 3 digits (44, +44), not "4x"\n',
    );
  });
});

describe("--search reads the same forms (messages)", () => {
  const messages = (args: string[]) => runCli(["--base-url", url, "messages", ...args], { now: NOW });

  it("00 is the international prefix: contains, as the API matches", async () => {
    searches.length = 0;
    const result = await messages(["cmp-a", "--search", "0044 7700 900123", "--fields", "id"]);
    expect(searches).toEqual([`cmp-a:${CUSTOMER}`]);
    expect(result.stdout).toBe("id\na-1\na-2\na-3\na-5\n");
  });

  it("a national form keeps the numbers ending in its national digits", async () => {
    searches.length = 0;
    const result = await messages(["cmp-a", "cmp-b", "--search", "07700 900123", "--fields", "id"]);
    expect(searches.sort()).toEqual(["cmp-a:7700900123", "cmp-b:7700900123"]);
    expect(result.stdout).toBe("campaignId\tid\ncmp-a\ta-1\ncmp-a\ta-3\ncmp-b\tb-2\ncmp-b\tb-3\ncmp-a\ta-5\n");
  });

  it("*digits: ends with", async () => {
    const result = await messages(["cmp-a", "--search", "*0123", "--fields", "id"]);
    expect(result.stdout).toBe("id\na-1\na-3\na-5\n");
  });

  it("stats --search *digits: counted as an ending, and said so in --json and the report", async () => {
    const stats = (args: string[]) => runCli(["--base-url", url, "stats", "cmp-a", "--search", "*0123", ...args]);
    const json = JSON.parse((await stats(["--json"])).stdout) as {
      filters: { search: string };
      totals: { messages: number };
    };
    expect(json.filters.search).toBe("*0123");
    expect(json.totals.messages).toBe(3);
    expect((await stats([])).stdout.split("\n")[1]).toBe("Filtered by recipient ending in 0123");
  });
});

describe("against the sandbox", () => {
  it("each number's messages and only theirs, as an independent filter over every message finds them", async () => {
    const sandbox = await startSandbox({ seed: 7, messages: 3000, now: FIXED_NOW });
    try {
      const campaigns = ["cmp-spring-sale", "cmp-loyalty-es", "cmp-otp-alerts"];
      const all: Message[] = [];
      for (const campaignId of campaigns) all.push(...(await fetchSelected(sandbox.url, { campaignId })));
      // A number from each campaign, typed with + and spaces, or with 00.
      const numbers = [...new Set([all[0]!, all[3100]!, all[3650]!].map((m) => m.recipient))];
      for (const [i, digits] of numbers.entries()) {
        const typed = i % 2 === 0 ? `+${digits.slice(0, 2)} ${digits.slice(2, 6)} ${digits.slice(6)}` : `00${digits}`;
        const result = await runCli(["--base-url", sandbox.url, "find", typed, ...campaigns, "--jsonl"], {
          now: FIXED_NOW,
        });
        expect(result.code).toBe(0);
        const found = result.stdout
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as Message).id);
        const expected = all
          .filter((m) => m.recipient === digits)
          .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
          .map((m) => m.id);
        expect(expected.length).toBeGreaterThan(0);
        expect(found).toEqual(expected);
      }
    } finally {
      await sandbox.close();
    }
  });
});
