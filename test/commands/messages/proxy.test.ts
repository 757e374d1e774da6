// Behind a proxy: HTTP_PROXY/HTTPS_PROXY (lower-case first, as curl), NO_PROXY, --proxy and
// MSGSTAT_PROXY over them, the profile's proxy under them; http:// targets forwarded, https:// ones
// through CONNECT, which never carries the token or -H headers; the proxy named in --verbose and in
// errors, never with its credentials. A small proxy of the test's own on 127.0.0.1 records it all.
import { createServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/core/errors.js";
import { waitFor } from "../../support/wait-for.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { configFolder } from "../../support/profiles.js";
import { runBin, runCli, type CliOptions } from "../../support/run-cli.js";
import { startTestProxy, type TestProxy } from "../../support/test-proxy.js";
import {
  makeCertificates,
  ONE_PAGE,
  startTlsPageServer,
  type TestCertificates,
  type TlsPageServer,
} from "../../support/tls.js";
import { NOW, startTestSandbox } from "../../support/cli-helpers.js";

const TOKEN = "tok-proxy-test";
let sandbox: Sandbox;
let certs: TestCertificates;
let tls: TlsPageServer;
let proxyA: TestProxy;
let proxyB: TestProxy;
let guarded: TestProxy;
/** A port on 127.0.0.1 where nothing listens. */
let closedPort: number;

beforeAll(async () => {
  certs = makeCertificates();
  [sandbox, tls, proxyA, proxyB, guarded, closedPort] = await Promise.all([
    startTestSandbox({ messages: 20, token: TOKEN }),
    startTlsPageServer(certs.leaf),
    startTestProxy(),
    startTestProxy(),
    startTestProxy({ credentials: "proxyuser:pr0xy-pa55" }),
    freePort(),
  ]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), tls.close(), proxyA.close(), proxyB.close(), guarded.close()]);
  certs.remove();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const LISTING = ["messages", "cmp-spring-sale", "--jsonl", "--page-size", "5", "-n", "5"];
const listing = (env: Record<string, string>, extra: string[] = [], options: CliOptions = {}) =>
  runCli(["--base-url", sandbox.url, ...extra, ...LISTING], {
    now: NOW,
    ...options,
    env: { MSGSTAT_TOKEN: TOKEN, ...env, ...options.env },
  });
const data = ({ code, stdout }: { code: number; stdout: string }) => ({ code, stdout });
const tlsListing = (env: Record<string, string>, extra: string[] = []) =>
  runCli(["--base-url", tls.url, "--ca-file", certs.ca.certFile, ...extra, "messages", "cmp-tls", "--jsonl"], {
    now: NOW,
    env: { MSGSTAT_TOKEN: TOKEN, ...env },
  });

/** What each proxy received during `run`, as "METHOD target" lines. */
async function seenBy<T>(
  proxies: readonly TestProxy[],
  run: () => Promise<T>,
): Promise<{ result: T; seen: string[][] }> {
  const before = proxies.map((proxy) => proxy.received.length);
  const result = await run();
  return {
    result,
    seen: proxies.map((proxy, index) =>
      proxy.received.slice(before[index]).map(({ method, target }) => `${method} ${target}`),
    ),
  };
}

/** What msgstat printed without a proxy: the same data must arrive through one (the "more" hint repeats the flags). */
let direct: { code: number; stdout: string };
const TLS_PAGE = `${JSON.stringify(ONE_PAGE.data[0])}\n`;
const sandboxPath = "/campaigns/cmp-spring-sale/messages?limit=5";
beforeAll(async () => {
  const { code, stdout } = await listing({});
  direct = { code, stdout };
  expect(code).toBe(0);
});

describe("the environment's proxies, as curl reads them", () => {
  it("HTTP_PROXY carries an http:// listing whole (a forwarded GET), and the output is the same as direct", async () => {
    const { result, seen } = await seenBy([proxyA], () => listing({ HTTP_PROXY: proxyA.url }));
    expect(data(result)).toEqual(direct);
    expect(seen).toEqual([[`GET ${sandbox.url}${sandboxPath}`]]);
    // Plain http:// hides nothing from the proxy, the token included, as with curl: msgstat sends
    // credentials this way only to a proxy on this machine, or with --allow-insecure-http (below).
    expect(proxyA.received.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("HTTPS_PROXY carries an https:// listing through CONNECT, which carries neither the token nor -H headers", async () => {
    const before = tls.requests.length;
    const { result, seen } = await seenBy([proxyA], () =>
      tlsListing({ HTTPS_PROXY: proxyA.url }, ["-H", "X-Api-Key: k-123"]),
    );
    expect(result).toEqual({ code: 0, stdout: TLS_PAGE, stderr: "" });
    expect(seen).toEqual([[`CONNECT 127.0.0.1:${tls.port}`]]);
    const connect = proxyA.received.at(-1)!.headers;
    expect(Object.keys(connect).sort()).toEqual(["connection", "host", "proxy-connection"]);
    expect(JSON.stringify(connect)).not.toContain(TOKEN);
    // The service itself got them, through the tunnel.
    expect(tls.requests.slice(before).map((headers) => [headers.authorization, headers["x-api-key"]])).toEqual([
      [`Bearer ${TOKEN}`, "k-123"],
    ]);
  });

  it("each scheme has its own variable: HTTP_PROXY does not carry https://, HTTPS_PROXY not http://", async () => {
    const { result, seen } = await seenBy([proxyA, proxyB], async () => [
      await tlsListing({ HTTP_PROXY: proxyA.url }),
      await listing({ HTTPS_PROXY: proxyB.url }),
    ]);
    expect(result.map((run) => run.code)).toEqual([0, 0]);
    expect(seen).toEqual([[], []]);
  });

  it("the lower-case names win over the upper-case ones", async () => {
    const { seen } = await seenBy([proxyA, proxyB], async () => [
      await listing({ http_proxy: proxyA.url, HTTP_PROXY: proxyB.url }),
      await tlsListing({ https_proxy: proxyA.url, HTTPS_PROXY: proxyB.url }),
    ]);
    expect(seen).toEqual([[`GET ${sandbox.url}${sandboxPath}`, `CONNECT 127.0.0.1:${tls.port}`], []]);
  });

  it("an https:// proxy, trusted through --ca-file as the service is", async () => {
    const secure = await startTestProxy({ tls: certs.leaf });
    try {
      const { result, seen } = await seenBy([secure], async () => [
        await tlsListing({ HTTPS_PROXY: secure.url }),
        await listing({ HTTP_PROXY: secure.url }, ["--ca-file", certs.ca.certFile]),
      ]);
      expect(result.map(data)).toEqual([{ code: 0, stdout: TLS_PAGE }, direct]);
      // http:// targets are forwarded only through an http:// proxy; through an https:// one they tunnel too.
      expect(seen).toEqual([[`CONNECT 127.0.0.1:${tls.port}`, `CONNECT 127.0.0.1:${new URL(sandbox.url).port}`]]);
      const untrusted = await tlsListing({ HTTPS_PROXY: secure.url.replace("127.0.0.1", "localhost") }, [
        "--ca-file",
        certs.selfSigned.certFile,
      ]);
      const name = `localhost:${secure.name.split(":")[1]}`;
      expect(untrusted.stderr.split("\n")[0] + "\n").toContain(
        `the certificate of the server or of the proxy ${name} was issued by an authority not trusted here (UNABLE_TO_VERIFY_LEAF_SIGNATURE)\n`,
      );
    } finally {
      await secure.close();
    }
  });

  it("a proxy given without a scheme is http://, as curl takes it", async () => {
    const { result, seen } = await seenBy([proxyA], () => listing({ HTTP_PROXY: proxyA.name }));
    expect(data(result)).toEqual(direct);
    expect(seen).toEqual([[`GET ${sandbox.url}${sandboxPath}`]]);
  });

  it("a proxy URL msgstat cannot use is a usage error naming the variable", async () => {
    expect(await listing({ HTTP_PROXY: "socks5://127.0.0.1:1080" })).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: HTTP_PROXY must be an http:// or https:// proxy URL, not socks5://\n",
    });
  });
});

describe("NO_PROXY", () => {
  const port = () => new URL(sandbox.url).port;
  it.each<[string, () => string]>([
    ["the exact host", () => "127.0.0.1"],
    ["host and port", () => `127.0.0.1:${port()}`],
    ["one of a list, with blanks", () => `internal.example, 127.0.0.1`],
    ["*", () => "*"],
  ])("%s: the request goes direct, the proxy sees nothing", async (_name, noProxy) => {
    for (const name of ["NO_PROXY", "no_proxy"]) {
      const { result, seen } = await seenBy([proxyA], () => listing({ HTTP_PROXY: proxyA.url, [name]: noProxy() }));
      expect(data(result)).toEqual(direct);
      expect(seen).toEqual([[]]);
    }
  });

  it("another port of the same host, or another host, still goes through the proxy", async () => {
    for (const noProxy of ["127.0.0.1:1", "localhost", "0.0.1", ".0.0.1"]) {
      const { seen } = await seenBy([proxyA], () => listing({ HTTP_PROXY: proxyA.url, NO_PROXY: noProxy }));
      expect(seen).toEqual([[`GET ${sandbox.url}${sandboxPath}`]]);
    }
  });
});

describe("--proxy, MSGSTAT_PROXY and the profile's proxy", () => {
  it("--proxy wins over the environment, for both schemes", async () => {
    const { seen } = await seenBy([proxyA, proxyB], async () => [
      await listing({ HTTP_PROXY: proxyA.url }, ["--proxy", proxyB.url]),
      await tlsListing({ HTTPS_PROXY: proxyA.url }, ["--proxy", proxyB.url]),
    ]);
    expect(seen).toEqual([[], [`GET ${sandbox.url}${sandboxPath}`, `CONNECT 127.0.0.1:${tls.port}`]]);
  });

  it('MSGSTAT_PROXY wins over HTTP_PROXY; --proxy "" means no proxy at all', async () => {
    const { seen } = await seenBy([proxyA, proxyB], async () => [
      await listing({ HTTP_PROXY: proxyA.url, MSGSTAT_PROXY: proxyB.url }),
      await listing({ HTTP_PROXY: proxyA.url, MSGSTAT_PROXY: proxyB.url }, ["--proxy", ""]),
    ]);
    expect(seen).toEqual([[], [`GET ${sandbox.url}${sandboxPath}`]]);
  });

  it("NO_PROXY applies to --proxy too, as in curl", async () => {
    const { result, seen } = await seenBy([proxyB], () => listing({ NO_PROXY: "127.0.0.1" }, ["--proxy", proxyB.url]));
    expect(data(result)).toEqual(direct);
    expect(seen).toEqual([[]]);
  });

  it("a profile's proxy is used when the environment names none, and gives way to it", async () => {
    const config = configFolder();
    config.write({ default: { "base-url": sandbox.url, proxy: proxyB.url } });
    const run = (env: Record<string, string>) =>
      config.run(LISTING, { now: NOW, env: { MSGSTAT_TOKEN: TOKEN, ...env } });
    const { result, seen } = await seenBy([proxyA, proxyB], async () => [
      await run({}),
      await run({ HTTP_PROXY: proxyA.url }),
      await run({ NO_PROXY: "127.0.0.1" }),
    ]);
    expect(result.map(data)).toEqual([direct, direct, direct]);
    expect(seen).toEqual([[`GET ${sandbox.url}${sandboxPath}`], [`GET ${sandbox.url}${sandboxPath}`]]);
  });
});

describe("what is said about the proxy, never with its credentials", () => {
  const VERBOSE_LINE = (url: string, proxy: string) =>
    new RegExp(`^GET ${url.replace(/[.?]/g, "\\$&")} via proxy ${proxy} -> 200(, [^(]+)? \\(\\d+ ms\\)$`, "m");

  it("--verbose says via proxy host:port for each request; the password appears nowhere", async () => {
    const { result, seen } = await seenBy([guarded], () => tlsListing({ HTTPS_PROXY: guarded.url }, ["-v"]));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(VERBOSE_LINE(`${tls.url}/campaigns/cmp-tls/messages?limit=1000`, guarded.name));
    expect(result.stderr).not.toMatch(/pr0xy-pa55|proxyuser/);
    expect(seen).toEqual([[`CONNECT 127.0.0.1:${tls.port}`]]);
    const plain = await listing({ HTTP_PROXY: guarded.url }, ["-v"]);
    expect(plain.stderr).toMatch(VERBOSE_LINE(`${sandbox.url}${sandboxPath}`, guarded.name));
    expect(plain.stderr).not.toMatch(/pr0xy-pa55|proxyuser/);
  });

  it("the next-command hint keeps --proxy but never its user name and password, and says they were left out", async () => {
    const result = await runCli(["--base-url", sandbox.url, "--proxy", guarded.url, ...LISTING], {
      now: NOW,
      env: { MSGSTAT_TOKEN: TOKEN },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/pr0xy-pa55|proxyuser/);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[1]).toMatch(
      new RegExp(
        `^msgstat --base-url ${sandbox.url.replace(/\./g, "\\.")} --proxy http://${guarded.name.replace(/\./g, "\\.")} messages cmp-spring-sale --jsonl --page-size 5 -n 5 --after \\S+$`,
      ),
    );
    expect(result.stderr).toContain(
      "(the proxy's user name and password are left out of --proxy above: add them again, or give them in HTTPS_PROXY)\n",
    );
  });

  it("a proxy that wants credentials (407) is one line naming it, not retried, with what to give", async () => {
    const hint =
      "  The proxy wants a user name and password: give them in its URL, http://user:password@host:port (HTTPS_PROXY, HTTP_PROXY or --proxy).\n";
    // Issue 25, item 15: credentials that were sent and refused are not asked for again.
    const sentHint =
      "  The proxy refused the user name and password in its URL (they were sent): check them, and that characters such as @ : / are percent-encoded (@ as %40).\n";
    const wrong = guarded.url.replace("pr0xy-pa55", "not-it");
    const { result, seen } = await seenBy([guarded], async () => [
      await tlsListing({ HTTPS_PROXY: `http://${guarded.name}` }, ["--retries", "3"]),
      await listing({ HTTP_PROXY: wrong }, ["--retries", "3"]),
      await tlsListing({ HTTPS_PROXY: wrong }, ["--retries", "3"]),
    ]);
    expect(result).toEqual([
      {
        code: 1,
        stdout: "",
        stderr: `msgstat: GET ${tls.url}/campaigns/cmp-tls/messages?limit=1000 failed after 1 attempt: the proxy ${guarded.name} refused the request: HTTP 407 Proxy Authentication Required\n${hint}`,
      },
      {
        code: 1,
        stdout: "",
        stderr: `msgstat: GET ${sandbox.url}${sandboxPath} failed after 1 attempt: the proxy ${guarded.name} refused the request: HTTP 407 Proxy Authentication Required\n${sentHint}`,
      },
      {
        code: 1,
        stdout: "",
        stderr: `msgstat: GET ${tls.url}/campaigns/cmp-tls/messages?limit=1000 failed after 1 attempt: the proxy ${guarded.name} refused the request: HTTP 407 Proxy Authentication Required\n${sentHint}`,
      },
    ]);
    expect(seen[0]!.length).toBe(3);
    expect(guarded.received.at(-1)!.headers["proxy-authorization"]).toBe(
      `Basic ${Buffer.from("proxyuser:not-it").toString("base64")}`,
    );
  });

  it("a proxy that cannot be reached is named, without its credentials", async () => {
    const result = await tlsListing({ HTTPS_PROXY: `http://someone:s3cr3t@127.0.0.1:${closedPort}` }, [
      "--retries",
      "0",
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `msgstat: GET ${tls.url}/campaigns/cmp-tls/messages?limit=1000 failed after 1 attempt: could not reach the proxy 127.0.0.1:${closedPort}: connection refused (ECONNREFUSED)\n  Check the proxy's address (--proxy, MSGSTAT_PROXY, HTTPS_PROXY, HTTP_PROXY or the profile's proxy), or list the host in NO_PROXY to connect directly.\n  Nothing was written. Run the same command again once the proxy 127.0.0.1:${closedPort} can be reached.\n`,
    });
  });
});

describe("credentials and the proxy", () => {
  it("this machine's addresses go direct when the proxy is on another machine, which could not reach them", async () => {
    const result = await listing({ HTTP_PROXY: "http://proxy.example:3128" }, ["-v"]);
    expect(data(result)).toEqual(direct);
    expect(result.stderr).toMatch(
      new RegExp(`^GET ${sandbox.url}/campaigns/cmp-spring-sale/messages\\?limit=5 -> 200[, ]`, "m"),
    );
  });

  it("-H Proxy-Authorization is refused when a proxy is used: its credentials belong in its URL", async () => {
    const result = await listing({ HTTP_PROXY: proxyA.url }, ["-H", "Proxy-Authorization: Basic eDp5"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "msgstat: -H Proxy-Authorization: give the proxy's user name and password in its URL instead (http://user:password@proxy:port)\n",
    });
  });
});

describe("end to end: bin/msgstat.js behind a proxy", () => {
  it("HTTPS_PROXY with credentials, --ca-file and a token: the page arrives, the proxy sees a bare CONNECT", async () => {
    const { result, seen } = await seenBy([guarded], () =>
      runBin(["--base-url", tls.url, "messages", "cmp-tls", "--jsonl", "--ca-file", certs.ca.certFile, "-v"], {
        env: { HTTPS_PROXY: guarded.url, MSGSTAT_TOKEN: TOKEN },
      }),
    );
    expect([result.code, result.stdout]).toEqual([0, TLS_PAGE]);
    expect(result.stderr).toMatch(new RegExp(`via proxy ${guarded.name} -> 200(, [^(]+)? \\(\\d+ ms\\)`));
    expect(result.stderr).not.toMatch(/pr0xy-pa55|proxyuser/);
    expect(seen).toEqual([[`CONNECT 127.0.0.1:${tls.port}`]]);
    expect(guarded.received.at(-1)!.headers.authorization).toBeUndefined();
  });
});

describe("a proxy that takes the connection and never answers the CONNECT", () => {
  // The request waits for a connection that never comes, and Node's client looks at its abort signal only once it has one.
  async function silentProxy(): Promise<{
    url: string;
    connections: () => number;
    open: () => number;
    close: () => Promise<void>;
  }> {
    const open = new Set<Socket>();
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => undefined);
      // Read (and ignore) the CONNECT: a socket that reads nothing never hears its peer close.
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      });
    return { url, connections: () => connections, open: () => open.size, close };
  }

  it("is given up on after --timeout, and the error names the proxy", async () => {
    const proxy = await silentProxy();
    try {
      const result = await runCli(
        ["--timeout", "0.5", "--retries", "0", "--base-url", "https://api.example.com", "messages", "c", "--jsonl"],
        { env: { HTTPS_PROXY: proxy.url } },
      );
      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: `msgstat: GET https://api.example.com/campaigns/c/messages?limit=1000 failed after 1 attempt: no complete response within 0.5 s, through the proxy ${proxy.url.slice("http://".length)}\n  Each attempt may take up to --timeout seconds; a slow service may need a larger --timeout.\n  Nothing was written. Run the same command again once the service recovers.\n`,
      });
      expect(proxy.connections()).toBe(1);
      // msgstat's close ends the tunnel it was still opening: the proxy sees the connection go.
      await waitFor(() => proxy.open() === 0, "msgstat to close its connection to the proxy");
    } finally {
      await proxy.close();
    }
  });

  it("does not hold off an interrupt: the run ends with 143 while the CONNECT is still unanswered", async () => {
    const proxy = await silentProxy();
    const controller = new AbortController();
    try {
      const run = runCli(
        ["--timeout", "3600", "--retries", "0", "--base-url", "https://api.example.com", "messages", "c", "--jsonl"],
        { env: { HTTPS_PROXY: proxy.url }, signal: controller.signal },
      );
      await waitFor(() => proxy.connections() === 1, "the CONNECT to reach the proxy");
      controller.abort(new InterruptedError("SIGTERM"));
      expect(await run).toEqual({ code: 143, stdout: "", stderr: "msgstat: terminated\n" });
      await waitFor(() => proxy.open() === 0, "msgstat to close its connection to the proxy");
    } finally {
      await proxy.close();
    }
  });
});
