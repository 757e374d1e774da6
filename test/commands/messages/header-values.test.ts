// A token or -H value an HTTP header cannot carry is a usage error found before any connection:
// exit 2, naming the option, never the value (issue 11, item 9).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startListingServer, type ListingServer } from "../../support/listing-server.js";
import { runCli } from "../../support/run-cli.js";

let server: ListingServer;
let url: string;
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  server = await startListingServer(
    (_target, request) => {
      seen.push(request.headers.authorization ?? request.headers["x-api-key"]?.toString());
      return { data: [{ id: "m1" }], pageData: { hasNextPage: false } };
    },
    { outsideTest: true },
  );
  url = server.url;
});
afterAll(() => server.close());

const LATIN1_ONLY =
  "may hold only Latin-1 (ISO-8859-1) characters, which is all an HTTP header can carry; it has one beyond them";

describe("headers that frame the request or steer its connection", () => {
  // A Content-Length on a GET would make the server read the next request on the connection as
  // this one's body; msgstat's HTTP client sets these itself.
  it.each([
    "Content-Length: 5",
    "transfer-encoding: chunked",
    "Connection: close",
    "Expect: 100-continue",
    "Upgrade: h2c",
    "TE: trailers",
  ])("-H %s: exit 2, no connection", async (header) => {
    const before = server.connections;
    const result = await runCli(["--base-url", url, "-H", header, "messages", "c"]);
    const name = header.slice(0, header.indexOf(":"));
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `msgstat: -H ${name}: frames the request or steers its connection, which msgstat does itself; it cannot be given\n`,
    });
    expect(server.connections).toBe(before);
  });
});

describe("values beyond Latin-1", () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ["--token", ["--token", "SECRET-€"], {}, `msgstat: the token ${LATIN1_ONLY} (check --token)\n`],
    ["MSGSTAT_TOKEN", [], { MSGSTAT_TOKEN: "SECRET-€" }, `msgstat: the token ${LATIN1_ONLY} (check MSGSTAT_TOKEN)\n`],
    ["-H", ["-H", "X-Api-Key: SECRET-ключ"], {}, `msgstat: -H X-Api-Key: the value ${LATIN1_ONLY}\n`],
    ["-H with an emoji", ["-H", "X-Api-Key: SECRET-🔑"], {}, `msgstat: -H X-Api-Key: the value ${LATIN1_ONLY}\n`],
  ])("in %s: exit 2, no connection, the option named and the value never", async (_name, args, env, stderr) => {
    const before = server.connections;
    const result = await runCli(["--base-url", url, ...args, "messages", "c"], { env });
    expect(result).toEqual({ code: 2, stdout: "", stderr });
    expect(result.stderr).not.toContain("SECRET");
    expect(server.connections).toBe(before);
  });

  it("Latin-1 itself is sent as it is (é is one byte, 0xE9)", async () => {
    const result = await runCli(["--base-url", url, "--token", "café", "messages", "c", "--jsonl"]);
    expect(result).toEqual({ code: 0, stdout: '{"id":"m1"}\n', stderr: "" });
    expect(seen.at(-1)).toBe("Bearer café");
  });
});
