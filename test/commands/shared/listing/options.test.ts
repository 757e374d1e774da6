// Tier 1: the command line turned into typed options, and every usage error found there.
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientSettings } from "../../../../src/commands/shared/client-config.js";
import { RunSettings } from "../../../../src/config/settings.js";
import { parseListingOptions } from "../../../../src/commands/shared/listing/options.js";
import type { ListingFlags } from "../../../../src/commands/shared/listing/flags.js";
import type { GlobalOptions } from "../../../../src/commands/shared/global-options.js";
import { UsageError } from "../../../../src/core/errors.js";
import { TimeZone } from "../../../../src/core/time.js";

const UTC = TimeZone.named("UTC")!;

const NOW = Date.parse("2025-05-01T12:00:00.000Z");
const HOUR = 3_600_000;

function usageErrorOf(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

// What commander hands over when no listing flag is given.
type RawListingOptions = Partial<ListingFlags>;
const flags = (raw: RawListingOptions): ListingFlags => ({ formulaGuard: true, headers: true, ...raw });

describe("parseListingOptions", () => {
  it("defaults: 50 messages, table with headers, fitted to the terminal, page size 50, formula guard on", () => {
    expect(parseListingOptions(flags({}), NOW, UTC)).toEqual({
      warnings: [],
      limit: 50,
      defaultLimit: true,
      pageSize: 50,
      after: undefined,
      before: undefined,
      format: "table",
      fields: undefined,
      outputFile: undefined,
      guardFormulas: true,
      bom: false,
      csvTimes: "server",
      wide: false,
      headers: true,
    });
  });

  it.each<[string, RawListingOptions, { limit: number; pageSize: number }]>([
    ["--limit 20 asks for exactly 20", { limit: 20 }, { limit: 20, pageSize: 20 }],
    ["--limit 5000 pages at the API's maximum", { limit: 5000 }, { limit: 5000, pageSize: 1000 }],
    ["--all pages at 1000", { all: true }, { limit: Number.POSITIVE_INFINITY, pageSize: 1000 }],
    ["a client-side filter reads full pages", { limit: 5, status: ["failure"] }, { limit: 5, pageSize: 1000 }],
    ["--page-size wins", { limit: 20, pageSize: 7 }, { limit: 20, pageSize: 7 }],
    ["--page-size 1000 is allowed", { pageSize: 1000 }, { limit: 50, pageSize: 1000 }],
    ["--page-size 1 is allowed", { pageSize: 1 }, { limit: 50, pageSize: 1 }],
  ])("%s", (_name, raw, expected) => {
    expect(parseListingOptions(flags(raw), NOW, UTC)).toMatchObject(expected);
  });

  it.each<[RawListingOptions, string]>([
    [{ format: "json" }, "json"],
    [{ json: true }, "json"],
    [{ jsonl: true }, "jsonl"],
    [{ csv: true }, "csv"],
    [{ format: "csv", csv: true }, "csv"],
  ])("format of %j is %s", (raw, format) => {
    expect(parseListingOptions(flags(raw), NOW, UTC).format).toBe(format);
  });

  it("collects --status from commas and repeats, and warns only on statuses not in the reference", () => {
    const options = parseListingOptions(flags({ status: ["failure,success", " created ", "bounced"] }), NOW, UTC);
    expect([...options.statuses!]).toEqual(["failure", "success", "created", "bounced"]);
    expect(options.warnings).toEqual([
      "--status bounced: not a status the service is known to send (created, success, failure); filtering on it anyway",
    ]);
  });

  it("normalises --search, reads --since/--until, splits --fields, turns the formula guard off", () => {
    const options = parseListingOptions(
      flags({
        search: "+1 (555)",
        since: "24h",
        until: "1h",
        fields: "id, values.name ,,lastErrorCode",
        formulaGuard: false,
        output: "out.csv",
        after: "C1",
      }),
      NOW,
      UTC,
    );
    expect(options).toMatchObject({
      search: "1555",
      since: NOW - 24 * HOUR,
      until: NOW - HOUR,
      fields: ["id", "values.name", "lastErrorCode"],
      guardFormulas: false,
      outputFile: "out.csv",
      after: "C1",
    });
  });

  it.each<[string, RawListingOptions, string]>([
    [
      "--after with --before",
      { after: "a", before: "b" },
      "--after and --before cannot be used together: page forward or back, not both",
    ],
    ["--all with --limit", { all: true, limit: 5 }, "--all and --limit cannot be used together"],
    ["two formats", { json: true, csv: true }, "choose one output format, not json and csv"],
    [
      "--format with another shortcut",
      { format: "table", jsonl: true },
      "choose one output format, not table and jsonl",
    ],
    ["an empty --fields", { fields: " , " }, "--fields needs at least one field name"],
    [
      "a --search of formatting only",
      { search: "+ ( ) -" },
      '--search "+ ( ) -" has nothing left to search for once formatting is dropped',
    ],
    ["an empty --status", { status: [" , "] }, "--status needs at least one status, e.g. --status failure"],
    [
      "a --since that is not a time",
      { since: "tomorrow" },
      '--since "tomorrow" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, "this week", "last month")',
    ],
    [
      "an --until that is not a time",
      { until: "2026-02-30x" },
      '--until "2026-02-30x" is not a time: use an ISO date (2026-11-01), a date-time (2026-11-01T09:30:00+02:00), a duration (90m, 24h, 7d) or a calendar word (today, yesterday, monday, "this week", "last month")',
    ],
    ["--since after --until", { since: "1h", until: "2h" }, "--since is after --until: no message could match"],
  ])("refuses %s", (_name, raw, message) => {
    expect(usageErrorOf(() => parseListingOptions(flags(raw), NOW, UTC)).message).toBe(message);
  });
});

describe("clientSettings", () => {
  // No profile: a config folder that does not exist, so a developer's own profiles never leak in.
  const settingsOf = (raw: Partial<GlobalOptions>, env: Record<string, string> = {}) =>
    clientSettings(
      new RunSettings(raw, { MSGSTAT_CONFIG_DIR: path.join(tmpdir(), "msgstat-no-config-here"), ...env }),
      {
        note: () => undefined,
      },
    );
  const usageErrorFrom = async (settings: Promise<unknown>): Promise<UsageError> => {
    const error = await settings.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (error instanceof UsageError) return error;
    throw error instanceof Error ? error : new Error("expected a usage error");
  };

  it("takes --base-url before MSGSTAT_BASE_URL, keeps the path prefix, and reads the token and headers", async () => {
    const settings = await settingsOf(
      { baseUrl: "https://api.example.com/api/v2/", token: "t1", header: ["X-Api-Key: k 1"], timeout: 2.5, retries: 0 },
      { MSGSTAT_BASE_URL: "https://other.example.com" },
    );
    expect(settings).toMatchObject({ token: "t1", headers: [["X-Api-Key", "k 1"]], timeoutMs: 2500, retries: 0 });
    expect(settings.baseUrl.href).toBe("https://api.example.com/api/v2/");
  });

  it("falls back to the environment; defaults are 30 s and 3 retries", async () => {
    const settings = await settingsOf({}, { MSGSTAT_BASE_URL: "http://127.0.0.1:9/p", MSGSTAT_TOKEN: "env-token" });
    expect(settings).toMatchObject({ token: "env-token", headers: [], timeoutMs: 30_000, retries: 3 });
    expect(settings.baseUrl.pathname).toBe("/p");
  });

  it("an empty MSGSTAT_TOKEN sends no token", async () => {
    expect((await settingsOf({ baseUrl: "http://localhost:1" }, { MSGSTAT_TOKEN: "" })).token).toBeUndefined();
  });

  it("credentials over http:// to another host need --allow-insecure-http", async () => {
    expect((await settingsOf({ baseUrl: "http://api.example.com", token: "t", allowInsecureHttp: true })).token).toBe(
      "t",
    );
    expect((await settingsOf({ baseUrl: "http://[::1]:8080", token: "t" })).token).toBe("t");
  });

  it.each<[string, Partial<GlobalOptions>, Record<string, string>, string]>([
    [
      "no base URL at all",
      {},
      {},
      "no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat config set base-url <url>)",
    ],
    [
      "a blank MSGSTAT_BASE_URL",
      {},
      { MSGSTAT_BASE_URL: " " },
      "no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat config set base-url <url>)",
    ],
    [
      "a base URL without a scheme",
      { baseUrl: "api.example.com" },
      {},
      "--base-url has no scheme (http:// or https://)",
    ],
    [
      "a base URL that is not a URL",
      { baseUrl: "api example" },
      {},
      "--base-url is not a URL (expected e.g. https://api.example.com/v2)",
    ],
    ["an ftp base URL", { baseUrl: "ftp://api.example.com" }, {}, "--base-url must be http:// or https://, not ftp://"],
    [
      "a password in the base URL",
      { baseUrl: "https://me:pw@api.example.com" },
      {},
      "--base-url may not carry a user name or password",
    ],
    [
      "a query in the base URL",
      { baseUrl: "https://api.example.com/?x=1" },
      {},
      "--base-url may not carry a query or fragment",
    ],
    [
      "a fragment in the base URL",
      { baseUrl: "https://api.example.com/#x" },
      {},
      "--base-url may not carry a query or fragment",
    ],
    [
      "an ftp MSGSTAT_BASE_URL",
      {},
      { MSGSTAT_BASE_URL: "ftp://api.example.com" },
      "MSGSTAT_BASE_URL must be http:// or https://, not ftp://",
    ],
    [
      "a token over plain http to a remote host",
      { baseUrl: "http://api.example.com", token: "t" },
      {},
      "refusing to send credentials over plain http:// to api.example.com: anyone on the network path could read them",
    ],
    [
      "a header over plain http to a remote host",
      { baseUrl: "http://api.example.com", header: ["X-Key: v"] },
      {},
      "refusing to send credentials over plain http:// to api.example.com: anyone on the network path could read them",
    ],
    [
      "a header without a name",
      { baseUrl: "https://a.example", header: ["no colon here"] },
      {},
      '-H expects "Name: value"; got a header without a valid name',
    ],
    [
      "a header with a bad name",
      { baseUrl: "https://a.example", header: ["Bad Name: v"] },
      {},
      '-H expects "Name: value"; got a header without a valid name',
    ],
    [
      "a header value with a line break",
      { baseUrl: "https://a.example", header: ["X-Key: a\r\nEvil: 1"] },
      {},
      "-H X-Key: the value may not contain control characters or line breaks",
    ],
    [
      "MSGSTAT_TIMEOUT soon",
      { baseUrl: "https://a.example" },
      { MSGSTAT_TIMEOUT: "soon" },
      'MSGSTAT_TIMEOUT must be a number of seconds above 0 (at most 3600), not "soon"',
    ],
    [
      "MSGSTAT_RETRIES 1.5",
      { baseUrl: "https://a.example" },
      { MSGSTAT_RETRIES: "1.5" },
      'MSGSTAT_RETRIES must be a whole number from 0 to 20, not "1.5"',
    ],
  ])("refuses %s", async (_name, raw, env, message) => {
    expect((await usageErrorFrom(settingsOf(raw, env))).message).toBe(message);
  });

  it("never echoes a header's value back in an error", async () => {
    const error = await usageErrorFrom(
      settingsOf({ baseUrl: "https://a.example", header: ["Bad Name: secret-value"] }),
    );
    expect(error.message + error.hints.join("")).not.toContain("secret-value");
  });
});
