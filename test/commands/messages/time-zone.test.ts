// One time zone for people: the same message reads the same time, with the zone named, in the table,
// the message view and the stats report, at 80 and 160 columns; the zone is TZ from the environment
// msgstat is given, or --tz over it; --since/--until without an offset are read in it; the data
// formats keep the server's text. Expected wall-clock times come from Intl directly, not from msgstat.
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { displayWidth } from "../../../src/terminal/width.js";
import { cli, serverMessage, useTestSandbox } from "../../support/cli-helpers.js";

const CAMPAIGN = "cmp-spring-sale";
const MESSAGE = "msg-spring-0000030";
const MINUTE = 60_000;

let sandbox: Sandbox;
let createdAt: string;
let recipient: string;

useTestSandbox(async (started) => {
  sandbox = started;
  const sent = await serverMessage(sandbox, CAMPAIGN, MESSAGE);
  createdAt = sent.createdAt as string;
  recipient = sent.recipient as string;
});

/** `2025-04-28 20:00:18` in the zone, by Intl alone (Swedish dates are ISO-like). */
function wallClock(at: number, zone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(at);
}

const weekday = (at: number, zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short" }).format(at);

const CASES = [
  {
    how: "TZ=Europe/Paris in the environment",
    env: { TZ: "Europe/Paris" },
    args: [] as string[],
    zone: "Europe/Paris",
  },
  {
    how: "--tz America/New_York over TZ=Europe/Paris",
    env: { TZ: "Europe/Paris" },
    args: ["--tz", "America/New_York"],
    zone: "America/New_York",
  },
];

describe.each(CASES)("$how", ({ env, args, zone }) => {
  const run = (command: string[], columns: number) =>
    cli(sandbox, [...args, ...command, "--no-color"], { tty: true, columns, env });
  const expectFits = (stdout: string, columns: number) => {
    for (const line of stdout.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
  };

  it.each([80, 160])(
    "at %i columns: the table, the message view and stats show the same time, and name the zone",
    async (columns) => {
      const at = Date.parse(createdAt);
      const wall = wallClock(at, zone);
      const minute = wall.slice(0, 16);

      const table = await run(["messages", CAMPAIGN, "--search", recipient], columns);
      expect(table.code).toBe(0);
      expectFits(table.stdout, columns);
      const lines = table.stdout.trimEnd().split("\n");
      const row = lines.find((line) => line.startsWith(`${MESSAGE} `))!;
      expect(row).toContain(` ${recipient} `);
      // The whole date when there is room; at 80 columns, next to a long error code, the year may go.
      expect(row.includes(` ${minute}`) || row.includes(` ${minute.slice(5)}`)).toBe(true);
      const header = lines.slice(0, lines.indexOf(row)).join("\n");
      // Beside CREATED, or under it when the column is narrow (as its last part, New_York, when narrower still).
      expect(header).toMatch(new RegExp(`CREATED \\(${zone}\\)|CREATED\\n +(${zone}|${zone.split("/").pop()})$`));

      const view = await run(["message", CAMPAIGN, MESSAGE], columns);
      expect(view.code).toBe(0);
      expectFits(view.stdout, columns);
      expect(view.stdout).toContain(`  Created    ${wall} ${zone} (`);

      const stats = await run(["stats", CAMPAIGN, "--search", recipient], columns);
      expect(stats.code).toBe(0);
      expectFits(stats.stdout, columns);
      expect(stats.stdout.replace(/\n {2}/g, " ")).toContain(
        `Delivery report: campaign ${CAMPAIGN}, times in ${zone}\n`,
      );
      expect(stats.stdout).toContain(`\n1 message, created ${minute} → ${minute} (0 s)\n`);
      expect(stats.stdout).toContain(`Messages per hour (${zone})`);
      expect(stats.stdout).toContain(`  ${wall.slice(0, 10)} ${weekday(at, zone)} ${wall.slice(11, 13)}:00 `);
    },
  );

  it("--since and --until without an offset are read in the zone", async () => {
    const at = Date.parse(createdAt);
    const from = wallClock(at - MINUTE, zone)
      .slice(0, 16)
      .replace(" ", "T");
    const to = wallClock(at + MINUTE, zone)
      .slice(0, 16)
      .replace(" ", "T");
    const found = await cli(
      sandbox,
      [...args, "messages", CAMPAIGN, "--since", from, "--until", to, "--fields", "id", "--jsonl"],
      { env },
    );
    expect(found.stdout.split("\n")).toContain(JSON.stringify({ id: MESSAGE }));
    // The same wall-clock window read in UTC is hours away: the message is not in it.
    const elsewhere = await cli(
      sandbox,
      ["--tz", "UTC", "messages", CAMPAIGN, "--since", from, "--until", to, "--fields", "id", "--jsonl"],
      { env },
    );
    expect(elsewhere.stdout).not.toContain(MESSAGE);
  });

  it("JSON, JSONL and CSV keep the server's text", async () => {
    const json = await cli(
      sandbox,
      [...args, "messages", CAMPAIGN, "--search", recipient, "--fields", "createdAt", "--jsonl"],
      { env },
    );
    expect(json.stdout).toContain(JSON.stringify({ createdAt }));
    const csv = await cli(
      sandbox,
      [...args, "messages", CAMPAIGN, "--search", recipient, "--fields", "createdAt", "--csv"],
      { env },
    );
    expect(csv.stdout).toContain(`\r\n${createdAt}\r\n`);
  });
});

it("the two zones read the same instant as different wall-clock times", () => {
  const [paris, newYork] = CASES.map(({ zone }) => wallClock(Date.parse(createdAt), zone));
  expect(paris).not.toBe(newYork);
});

describe("--tz", () => {
  it("a date alone is a whole day in the zone, and --verbose says how the window was read", async () => {
    const result = await cli(sandbox, [
      "-v",
      "--tz",
      "Europe/Paris",
      "stats",
      CAMPAIGN,
      "--since",
      "2025-04-28",
      "--until",
      "2025-04-28",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      "createdAt from 2025-04-28 00:00:00 (2025-04-27T22:00:00.000Z) until 2025-04-28 23:59:59 (2025-04-28T21:59:59.999Z), read in Europe/Paris",
    );
    const report = JSON.parse(result.stdout) as {
      filters: unknown;
      overTime: { timeZone: string; buckets: Array<{ start: string }> };
    };
    expect(report.filters).toMatchObject({ since: "2025-04-27T22:00:00.000Z", until: "2025-04-28T21:59:59.999Z" });
    expect(report.overTime.timeZone).toBe("Europe/Paris");
    for (const bucket of report.overTime.buckets) expect(bucket.start).toMatch(/^2025-04-28T\d\d:00:00\.000\+02:00$/);
  });

  it("an unknown zone is a usage error, before anything is sent", async () => {
    const before = sandbox.requests.length;
    const result = await cli(sandbox, ["--tz", "Mars/Olympus", "messages", CAMPAIGN]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: --tz "Mars/Olympus" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"\n',
    });
    expect(sandbox.requests.length).toBe(before);
  });

  // Written out by hand: Intl on Node 20 knows no offset zones, and msgstat answers the same on every line.
  it.each([
    ["--tz +01:00", ["--tz", "+01:00"], {}, 60, "+01:00"],
    ["--tz -03", ["--tz", "-03"], {}, -180, "-03:00"],
    ["MSGSTAT_TZ=-0530", [], { MSGSTAT_TZ: "-0530" }, -330, "-05:30"],
  ])("a fixed offset, from %s, on every Node line", async (_name, args, env, minutes, zone) => {
    const result = await cli(sandbox, ["message", CAMPAIGN, MESSAGE, ...args], { env: { TZ: "Asia/Kolkata", ...env } });
    expect(result.code).toBe(0);
    const wall = new Date(Date.parse(createdAt) + minutes * MINUTE).toISOString().slice(0, 19).replace("T", " ");
    expect(result.stdout).toContain(`  Created    ${wall} ${zone}\n`);
  });

  it("an offset msgstat cannot read is a usage error that shows how to write one", async () => {
    const result = await cli(sandbox, ["--tz", "+1", "messages", CAMPAIGN]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'msgstat: --tz "+1" is not a time zone: use an IANA name such as Europe/Paris or America/New_York, an offset such as +01:00, "local" or "UTC"\n',
    });
  });

  it.each([
    ["local, from TZ", ["--tz", "local"], { TZ: "Asia/Kolkata" }, "Asia/Kolkata"],
    ["local by default, TZ with a leading colon", [], { TZ: ":Asia/Tokyo" }, "Asia/Tokyo"],
    ["UTC in any case, after the command name", ["--tz", "utc"], { TZ: "Asia/Kolkata" }, "UTC"],
  ])("%s", async (_name, args, env, zone) => {
    const result = await cli(sandbox, ["message", CAMPAIGN, MESSAGE, ...args], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  Created    ${wallClock(Date.parse(createdAt), zone)} ${zone}\n`);
  });
});
