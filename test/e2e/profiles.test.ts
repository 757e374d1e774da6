// Tier 3 for profiles: the built bin/msgstat.js in a fresh environment with nothing of msgstat's
// exported (only PATH and a HOME of the test's own): `sandbox --save-profile`, then
// `--profile sandbox messages`; a login from a pipe; the sandbox's fixed port.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { programCommand, runBin, type CliResult } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

/** A shell with nothing exported but PATH and HOME: no MSGSTAT_*, no XDG_CONFIG_HOME. */
function freshShell(home: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TZ: undefined,
    MSGSTAT_CONFIG_DIR: undefined,
  };
}

interface RunningSandbox {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/**
 * `msgstat sandbox ...` as a user starts it; ready once it printed its URL (after saving any profile) and said on
 * stderr how to reach it (a line with "try: ..." or "point msgstat at it: ..."). Stopped, and a failure, if it
 * exits first or is not ready within 20 s.
 */
function startBinSandbox(args: string[], env: Record<string, string | undefined>): Promise<RunningSandbox> {
  const child = spawn(...programCommand(["sandbox", ...args]), { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let url: string | undefined;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = () => (child.kill("SIGTERM"), exited);
  return new Promise((resolve, reject) => {
    const giveUp = setTimeout(() => {
      void stop();
      reject(new Error(`the sandbox was not ready within 20 s; its stderr: ${stderr}`));
    }, 20_000);
    const whenReady = () => {
      if (url === undefined || !/(try|point msgstat at it): [^\n]*\n/.test(stderr)) return;
      clearTimeout(giveUp);
      resolve({ child, url, stderr: () => stderr, stop });
    };
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      whenReady();
    });
    child.on("error", reject);
    void exited.then((code) => {
      clearTimeout(giveUp);
      reject(new Error(`the sandbox exited with ${code} before it was ready: ${stderr}`));
    });
    createInterface({ input: child.stdout }).once("line", (line) => {
      url = line;
      whenReady();
    });
  });
}

/** What --save-profile saves as the profile's campaigns: every campaign the default sandbox serves, as it lists them. */
const SAVED_CAMPAIGNS = "cmp-spring-sale,cmp-loyalty-es,cmp-otp-alerts,cmp-empty";
const configFileIn = (home: string) => path.join(home, ".config", "msgstat", "config.json");
const readConfig = (home: string) =>
  JSON.parse(readFileSync(configFileIn(home), "utf8")) as { profiles: Record<string, Record<string, unknown>> };

describe("profiles, end to end with the built bin", () => {
  it("on a fresh machine `msgstat sandbox --save-profile` is also the default profile, its campaigns saved: `messages cmp-spring-sale --search 11` and `find <number>` work as shown", async () => {
    const home = scratchFolder("msgstat-home-");
    const env = freshShell(home);
    const sandbox = await startBinSandbox(["--port", "0", "--messages", "300", "--save-profile"], env);
    try {
      expect(sandbox.stderr()).toBe(
        `sandbox serving at ${sandbox.url} (Ctrl-C to stop)\n` +
          `saved as profile "sandbox", and as the default profile (none was set)\n` +
          "its 4 campaigns saved too: find and export read them when none is named\n" +
          "try: msgstat messages cmp-spring-sale\n",
      );
      // The platform's config folder (env-paths): on Linux ~/.config/msgstat.
      // Without --token the profile says the service takes none, so auth status need not guess it.
      const saved = { "base-url": sandbox.url, "token-store": "none", campaigns: SAVED_CAMPAIGNS };
      expect(readConfig(home)).toEqual({ profiles: { sandbox: saved, default: saved } });
      expect(await runBin(["auth", "status"], { env })).toEqual({
        code: 0,
        stdout:
          `default (selected)\n  base-url  ${sandbox.url}  (profile)\n` +
          "  token     none: requests go without one (saved by msgstat sandbox, no --token)\n" +
          `sandbox\n  base-url  ${sandbox.url}  (profile)\n` +
          "  token     none: requests go without one (saved by msgstat sandbox, no --token)\n",
        stderr: "",
      });
      // find with no campaign named reads the saved ones: a recipient of the second campaign is found there.
      const loyalty = (await (await fetch(`${sandbox.url}/campaigns/cmp-loyalty-es/messages?limit=1`)).json()) as {
        data: Array<{ id: string; recipient: string }>;
      };
      const { id, recipient } = loyalty.data[0]!;
      const found = await runBin(["find", `+${recipient}`, "--jsonl"], { env });
      expect({ code: found.code, stderr: found.stderr }).toEqual({ code: 0, stderr: "" });
      const foundIds = found.stdout
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { id: string }).id);
      expect(foundIds).toContain(id);
      const searched = await runBin(["messages", "cmp-spring-sale", "--search", "11", "-n", "3"], { env });
      expect(searched.code).toBe(0);
      const rows = searched.stdout.trimEnd().split("\n").slice(1);
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.split("\t")[1]).toContain("11");
      // --profile sandbox picks the same service: the first three messages as the sandbox itself lists them.
      const result = await runBin(["--profile", "sandbox", "messages", "cmp-spring-sale", "-n", "3"], { env });
      expect(result.code).toBe(0);
      const page = (await (await fetch(`${sandbox.url}/campaigns/cmp-spring-sale/messages?limit=3`)).json()) as {
        data: Array<{ id: string }>;
      };
      const lines = result.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^ID\tRECIPIENT\tSTATUS\t/);
      expect(lines.slice(1).map((line) => line.split("\t")[0])).toEqual(page.data.map((message) => message.id));
      expect(result.stderr).toMatch(/^Showing 3 messages; more may follow\./);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
    // Started again (on another port): the default it made follows it.
    const again = await startBinSandbox(["--port", "0", "--messages", "300", "--save-profile"], env);
    try {
      expect(again.url).not.toBe(sandbox.url);
      expect(again.stderr()).toBe(
        `sandbox serving at ${again.url} (Ctrl-C to stop)\n` +
          `saved as profile "sandbox", and as the default profile, as before\n` +
          "its 4 campaigns saved too: find and export read them when none is named\n" +
          "try: msgstat messages cmp-spring-sale\n",
      );
      const savedAgain = { "base-url": again.url, "token-store": "none", campaigns: SAVED_CAMPAIGNS };
      expect(readConfig(home)).toEqual({ profiles: { sandbox: savedAgain, default: savedAgain } });
      expect((await runBin(["messages", "cmp-spring-sale", "-n", "1"], { env })).code).toBe(0);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it("a default profile a person set is left as it was; the sandbox says to add --profile sandbox, and so does a command without a URL", async () => {
    const home = scratchFolder("msgstat-home-");
    const env = freshShell(home);
    expect((await runBin(["config", "set", "timeout", "45"], { env })).code).toBe(0);
    const sandbox = await startBinSandbox(["--port", "0", "--messages", "300", "--save-profile"], env);
    try {
      expect(sandbox.stderr()).toBe(
        `sandbox serving at ${sandbox.url} (Ctrl-C to stop)\n` +
          `saved as profile "sandbox"; the default profile is left as it was\n` +
          "its 4 campaigns saved too: find and export read them when none is named\n" +
          "try: msgstat --profile sandbox messages cmp-spring-sale (or export MSGSTAT_PROFILE=sandbox)\n",
      );
      expect(readConfig(home)).toEqual({
        profiles: {
          default: { timeout: 45 },
          sandbox: { "base-url": sandbox.url, "token-store": "none", campaigns: SAVED_CAMPAIGNS },
        },
      });
      expect(await runBin(["messages", "cmp-spring-sale", "-n", "1"], { env })).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "msgstat: no service URL: pass --base-url <url>, set MSGSTAT_BASE_URL, or save one in a profile (msgstat config set base-url <url>)\n" +
          '  Profile "sandbox" has one: add --profile sandbox (or export MSGSTAT_PROFILE=sandbox).\n',
      });
      const picked = await runBin(["messages", "cmp-spring-sale", "-n", "1"], {
        env: { ...env, MSGSTAT_PROFILE: "sandbox" },
      });
      expect(picked.code).toBe(0);
      expect(picked.stdout).toMatch(/^ID\tRECIPIENT\t.*\nmsg-spring-\d+\t/);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  });

  it("`--save-profile <name> --token <t>` stores the token as auth login does (keyring, else the 0600 file), and the profile sends it", async () => {
    const home = scratchFolder("msgstat-home-");
    const env = freshShell(home);
    const sandbox = await startBinSandbox(
      ["--port", "0", "--messages", "50", "--token", "box-token-3c9e71a0", "--save-profile", "box"],
      env,
    );
    try {
      const result = await runBin(["--profile", "box", "messages", "cmp-otp-alerts", "--all", "--jsonl"], { env });
      expect(result.code).toBe(0);
      const dir = path.join(home, ".config", "msgstat");
      const file = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as {
        profiles: Record<string, Record<string, unknown>>;
      };
      const store = file.profiles.box!["token-store"];
      // CI has no keyring: there the token is in the file, after a one-line note.
      if (store === "file") {
        expect(statSync(path.join(dir, "credentials")).mode & 0o777).toBe(0o600);
        expect(sandbox.stderr()).toBe(
          "no OS keyring to use; the token is in plain text in a file only you can read\n" +
            `sandbox serving at ${sandbox.url} (Ctrl-C to stop)\n` +
            'saved as profile "box", and as the default profile (none was set)\n' +
            "its 4 campaigns saved too: find and export read them when none is named\n" +
            "try: msgstat messages cmp-spring-sale\n",
        );
      } else {
        expect(store).toBe("keyring");
      }
      // The default profile the sandbox made holds the same token: out of the keyring too.
      expect((await runBin(["auth", "logout", "--profile", "box"], { env })).code).toBe(0);
      expect((await runBin(["auth", "logout"], { env })).code).toBe(0);
      expect(sandbox.stderr()).not.toContain("box-token-3c9e71a0");
      // Logged out, the sandbox on this machine still wants its token: auth status does not say it needs none.
      expect(await runBin(["auth", "status", "--profile", "box"], { env })).toEqual({
        code: 4,
        stdout: `box\n  base-url  ${sandbox.url}  (profile)\n  token     none: requests go without one\n`,
        stderr:
          'msgstat: profile "box" is not ready: no token\n' +
          "  To send one: msgstat auth login --profile box (it asks for the token), MSGSTAT_TOKEN, or a token-command.\n",
      });
      expect(await runBin(["--profile", "box", "messages", "cmp-otp-alerts"], { env })).toEqual({
        code: 4,
        stdout: "",
        stderr:
          `msgstat: not authorised: GET ${sandbox.url}/campaigns/cmp-otp-alerts/messages?limit=50 answered ` +
          "HTTP 401: Missing Authorization: Bearer <token>. (unauthorized)\n" +
          "  No token was sent: store one with msgstat auth login --profile box (it asks for it), or set " +
          "MSGSTAT_TOKEN.\n",
      });
    } finally {
      await sandbox.stop();
    }
  });

  it("a sandbox of more campaigns than a profile's list holds saves no campaigns, and says so", async () => {
    const home = scratchFolder("msgstat-home-");
    const env = freshShell(home);
    const sandbox = await startBinSandbox(
      ["--port", "0", "--messages", "3", "--campaigns", "197", "--save-profile"],
      env,
    );
    try {
      expect(sandbox.stderr()).toBe(
        `sandbox serving at ${sandbox.url} (Ctrl-C to stop)\n` +
          `saved as profile "sandbox", and as the default profile (none was set)\n` +
          "its campaigns not saved: a profile's list holds at most 200 campaign ids\n" +
          "try: msgstat messages cmp-spring-sale\n",
      );
      expect(readConfig(home)).toEqual({
        profiles: {
          sandbox: { "base-url": sandbox.url, "token-store": "none" },
          default: { "base-url": sandbox.url, "token-store": "none" },
        },
      });
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  });

  it("auth login from a pipe writes the credentials file 0600 even under umask 000 (created with its mode, not chmod-ed)", async () => {
    const dir = path.join(scratchFolder("msgstat-umask-"), "msgstat");
    const result = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(
        "sh",
        [
          "-c",
          'umask 000; exec "$0" "$@"',
          ...programCommand(["auth", "login", "--base-url", "https://api.example.com", "--with-token"]).flat(),
        ],
        {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, MSGSTAT_CONFIG_DIR: dir, MSGSTAT_KEYRING: "off" },
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end("piped-token-8b1d4e\n");
    });
    expect(result.code).toBe(0);
    expect(statSync(path.join(dir, "credentials")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, "config.json")).mode & 0o777).toBe(0o600); // issue 25, item 10: config.json is created 0600
    expect(readFileSync(path.join(dir, "config.json"), "utf8")).not.toContain("piped-token-8b1d4e");
  });

  it("the sandbox listens on 12180 unless told otherwise; a port that is taken is a usage error saying how to pick another", async () => {
    // The default is read from the help rather than tried: 12180 may be in use by a person's own sandbox.
    const help = await runBin(["sandbox", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain("--port <port> port (0 picks a free one) (default: 12180)");
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const result = await runBin(["sandbox", "--port", String(port), "--messages", "10"]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: `msgstat: port ${port} of 127.0.0.1 is taken (another sandbox?)\n  Pass --port 0 for a free port, or --port <n> for another one.\n`,
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("--help points to msgstat help options, which names the profile commands and says why --token is the last resort", async () => {
    expect((await runBin(["--help"])).stdout).toContain("msgstat help options");
    const { code, stdout } = await runBin(["help", "options"]);
    expect(code).toBe(0);
    for (const text of [
      "auth",
      "config",
      "--profile <name>",
      "MSGSTAT_PROFILE",
      "ps and shell history show it to others, so prefer MSGSTAT_TOKEN, msgstat auth login or a profile's token-command",
    ]) {
      expect(stdout.replace(/\s+/g, " ")).toContain(text);
    }
  });
});
