// What `npm run package` makes (scripts/package.mjs): the single executable and the .deb in release/.
// They are built by `npm run package`, not by the tests: where they are missing these tests are
// skipped, saying so, except in CI (MSGSTAT_CI), whose .ci/run builds them first. Running where no
// node can be found takes a mount namespace (scripts/without-node.sh), so root; installing the .deb
// takes root and CI, never a developer's machine.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  version: string;
  config: { seaNode: string };
};
const VERSION = manifest.version;
const EXECUTABLE = path.join(root, "release", `msgstat-${VERSION}-linux-x64`);
const DEB = path.join(root, "release", `msgstat_${VERSION}_amd64.deb`);
const WITHOUT_NODE = path.join(root, "scripts", "without-node.sh");
const CI = process.env.MSGSTAT_CI !== undefined;
const isRoot = process.getuid?.() === 0;

type Skip = { skip: (note: string) => void };

function needArtifacts(context: Skip): void {
  if (CI || (existsSync(EXECUTABLE) && existsSync(DEB))) return;
  context.skip("release/ has no executable and .deb of this version: npm run package builds them");
}

function needTool(context: Skip, command: string, aptPackage: string): void {
  if (spawnSync("sh", ["-c", `command -v ${command}`]).status === 0) return;
  if (CI) throw new Error(`${command} is not installed, and CI (MSGSTAT_CI) installs ${aptPackage}: see .ci/run`);
  context.skip(`${command} is not installed (apt-get install ${aptPackage})`);
}

function needRoot(context: Skip, what: string): void {
  if (isRoot) return;
  if (CI) throw new Error(`CI runs as root, which ${what} needs`);
  context.skip(`${what} needs root`);
}

/** A fresh user's environment: PATH and HOME only, a config folder of the test's own. */
function userEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, MSGSTAT_CONFIG_DIR: path.join(home, "config"), TZ: "UTC" };
}

const result = (run: SpawnSyncReturns<string>) => ({ code: run.status, stdout: run.stdout, stderr: run.stderr });

/**
 * The executable as a user has it: copied out of the clone (inside it, a walk up from the file would
 * find the clone's own files), made once for this file's tests.
 */
let downloaded: string | undefined;
function copied(): string {
  if (downloaded === undefined) {
    const folder = mkdtempSync(path.join(tmpdir(), "msgstat-downloaded-"));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    downloaded = path.join(folder, "msgstat");
    copyFileSync(EXECUTABLE, downloaded);
    chmodSync(downloaded, 0o755);
  }
  return downloaded;
}

/** The executable with these arguments where no node can be found. */
function withoutNode(args: string[], env: Record<string, string>) {
  return result(spawnSync(WITHOUT_NODE, [copied(), ...args], { env, encoding: "utf8", timeout: 30_000 }));
}

/** bin/msgstat.js under this Node, as npm installs it (even where MSGSTAT_E2E_BIN names the executable). */
function viaNode(args: string[], env: Record<string, string>) {
  return result(spawnSync(process.execPath, [BIN, ...args], { env, encoding: "utf8", timeout: 30_000 }));
}

/** `msgstat sandbox --port 0` from the executable where no node can be found; its URL once it serves. */
async function sandboxWithoutNode(env: Record<string, string>): Promise<string> {
  const child = spawn(WITHOUT_NODE, [copied(), "sandbox", "--port", "0", "--seed", "7"], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  onTestFinished(async () => {
    child.kill("SIGTERM");
    await exited;
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (line.startsWith("http://")) return line;
  }
  throw new Error("the sandbox ended before it printed its URL");
}

describe("release/msgstat-<version>-linux-x64", () => {
  it("says package.json's version, where no node can be found", (context) => {
    needArtifacts(context);
    needRoot(context, "hiding node (a mount namespace)");
    const home = scratchFolder("msgstat-sea-");
    // The namespace is real: node itself is not found there.
    expect(result(spawnSync(WITHOUT_NODE, ["sh", "-c", "node --version"], { encoding: "utf8" }))).toEqual({
      code: 127,
      stdout: "",
      stderr: "node is hidden here\n",
    });
    expect(withoutNode(["--version"], userEnv(home))).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("serves the sandbox and lists from it, where no node can be found, as bin/msgstat.js does", async (context) => {
    needArtifacts(context);
    needRoot(context, "hiding node (a mount namespace)");
    const home = scratchFolder("msgstat-sea-");
    const url = await sandboxWithoutNode(userEnv(home));
    const args = ["--base-url", url, "messages", "cmp-spring-sale", "-n", "5", "--status", "failure"];
    const listed = withoutNode(args, userEnv(home));
    expect(listed).toEqual(viaNode(args, userEnv(home)));
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^ID\tRECIPIENT\tSTATUS\t/);
  });

  it("reads its help topics from inside itself, where no node can be found", (context) => {
    needArtifacts(context);
    needRoot(context, "hiding node (a mount namespace)");
    const home = scratchFolder("msgstat-sea-");
    const topic = withoutNode(["help", "exit-codes"], { ...userEnv(home), COLUMNS: "80" });
    expect(topic).toEqual(viaNode(["help", "exit-codes"], { ...userEnv(home), COLUMNS: "80" }));
    expect(topic.stdout).toMatch(/^Exit codes\n/);
  });

  it("leaves NODE_OPTIONS to the machine's Node: its own Node is not told to load a module", (context) => {
    needArtifacts(context);
    const env = { ...userEnv(scratchFolder("msgstat-sea-")), NODE_OPTIONS: "--require ./no-such-module.js" };
    expect(result(spawnSync(copied(), ["--version"], { env, encoding: "utf8" }))).toEqual({
      code: 0,
      stdout: `${VERSION}\n`,
      stderr: "",
    });
  });

  it("carries the pinned Node, package.json's config.seaNode, and no other", (context) => {
    needArtifacts(context);
    // Every Node build names its release in its headers' address, compiled into the binary.
    const named =
      readFileSync(EXECUTABLE)
        .toString("latin1")
        .match(/node-v\d+\.\d+\.\d+-headers/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([`node-v${manifest.config.seaNode}-headers`]));
  });

  it(
    "stores the token in the OS keyring, as the npm install does, which reads it back",
    { timeout: 120_000 },
    (context) => {
      needArtifacts(context);
      needTool(context, "dbus-run-session", "dbus-daemon");
      needTool(context, "gnome-keyring-daemon", "gnome-keyring");
      const home = scratchFolder("msgstat-sea-keyring-");
      const env = { ...userEnv(home), NODE: process.execPath, BIN, EXECUTABLE: copied() };
      // A session bus of its own and an unlocked Secret Service on it, as a desktop session has.
      const script = [
        "printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null",
        'echo token-sea-4e1f | "$EXECUTABLE" auth login --base-url https://api.example.com --with-token',
        'echo "exit=$?"',
        'ls "$MSGSTAT_CONFIG_DIR"',
        '"$NODE" "$BIN" auth status',
        '"$EXECUTABLE" auth logout',
        '"$NODE" "$BIN" auth status',
        'echo "exit=$?"',
      ].join("\n");
      const run = spawnSync("dbus-run-session", ["--", "sh", "-c", script], { env, encoding: "utf8", timeout: 60_000 });
      expect(run.stdout).toBe(
        [
          "exit=0",
          // No credentials file: the token went to the keyring alone.
          "config.json",
          "default",
          "  base-url  https://api.example.com  (profile)",
          "  token     ****4e1f  (keyring)",
          "default",
          "  base-url  https://api.example.com  (profile)",
          "  token     none: requests go without one",
          "exit=4",
          "",
        ].join("\n"),
      );
      // The session bus says what it cannot do as root in a container: only msgstat's lines are held.
      expect(run.stderr.split("\n").filter((line) => !line.startsWith("dbus-daemon["))).toEqual([
        'Stored the token ****4e1f of profile "default" for https://api.example.com in the OS keyring.',
        "Not checked (the API cannot test a token): a wrong one is exit 4 on first use.",
        'Removed the token of profile "default" from the OS keyring.',
        'msgstat: profile "default" is not ready: no token',
        "  To send one: msgstat auth login --profile default (it asks for the token), MSGSTAT_TOKEN, or a token-command.",
        "",
      ]);
    },
  );
});

describe("release/msgstat_<version>_amd64.deb", () => {
  const dpkgDeb = (...args: string[]) => result(spawnSync("dpkg-deb", args, { encoding: "utf8" }));

  it("is package.json's version and holds the executable, the man page, completions and the copyright", (context) => {
    needArtifacts(context);
    needTool(context, "dpkg-deb", "dpkg");
    expect(dpkgDeb("--field", DEB, "Package", "Version", "Architecture")).toEqual({
      code: 0,
      stdout: `Package: msgstat\nVersion: ${VERSION}\nArchitecture: amd64\n`,
      stderr: "",
    });
    const files = dpkgDeb("--contents", DEB)
      .stdout.split("\n")
      .filter((line) => line.startsWith("-"))
      .map((line) => {
        const [mode, owner] = line.split(/\s+/);
        return `${mode} ${owner} ${line.slice(line.indexOf("./") + 1)}`;
      });
    expect(files.sort()).toEqual([
      "-rw-r--r-- root/root /usr/share/bash-completion/completions/msgstat",
      "-rw-r--r-- root/root /usr/share/doc/msgstat/changelog.gz",
      "-rw-r--r-- root/root /usr/share/doc/msgstat/copyright",
      "-rw-r--r-- root/root /usr/share/doc/msgstat/third-party-licenses.gz",
      "-rw-r--r-- root/root /usr/share/fish/vendor_completions.d/msgstat.fish",
      "-rw-r--r-- root/root /usr/share/lintian/overrides/msgstat",
      "-rw-r--r-- root/root /usr/share/man/man1/msgstat.1.gz",
      "-rw-r--r-- root/root /usr/share/zsh/vendor-completions/_msgstat",
      "-rwxr-xr-x root/root /usr/bin/msgstat",
    ]);
  });

  // lintian reads the whole executable: about 20 s on an idle machine.
  it("has no lintian error", { timeout: 300_000 }, (context) => {
    needArtifacts(context);
    needTool(context, "lintian", "lintian");
    const run = spawnSync("lintian", ["--fail-on", "error", DEB], { encoding: "utf8", timeout: 120_000 });
    expect(run.stdout.split("\n").filter((line) => line.startsWith("E:"))).toEqual([]);
    expect(run.status).toBe(0);
  });

  it(
    "installs with dpkg -i: msgstat --version, man msgstat, bash completion; dpkg -r removes every file",
    {
      timeout: 300_000,
    },
    (context) => {
      needArtifacts(context);
      if (!CI) return context.skip("installs a package on the machine: CI only (MSGSTAT_CI)");
      needRoot(context, "dpkg -i");
      needTool(context, "man", "man-db");
      expect(spawnSync("dpkg", ["--status", "msgstat"]).status, "msgstat is installed already").not.toBe(0);
      const dpkg = (...args: string[]) => result(spawnSync("dpkg", args, { encoding: "utf8", timeout: 120_000 }));
      expect(dpkg("--install", DEB).code).toBe(0);
      const installed = dpkg("--listfiles", "msgstat")
        .stdout.split("\n")
        .filter((file) => file !== "" && file !== "/.");
      try {
        const home = scratchFolder("msgstat-deb-");
        const env = { ...userEnv(home), PATH: "/usr/bin:/bin" };
        expect(result(spawnSync("msgstat", ["--version"], { env, encoding: "utf8" }))).toEqual({
          code: 0,
          stdout: `${VERSION}\n`,
          stderr: "",
        });
        expect(result(spawnSync("man", ["-w", "msgstat"], { env, encoding: "utf8" })).stdout).toBe(
          "/usr/share/man/man1/msgstat.1.gz\n",
        );
        const page = spawnSync("man", ["msgstat"], {
          env: { ...env, MANWIDTH: "80", MANPAGER: "cat" },
          encoding: "utf8",
        });
        expect(page.stdout).toMatch(/^NAME\n {7}msgstat - inspect the delivery status of SMS campaigns\n/m);
        // Completion as bash-completion loads it on a first Tab: from its completions folder, by name.
        const completion = [
          ". /usr/share/bash-completion/bash_completion",
          "__load_completion msgstat",
          "complete -p msgstat",
          "COMP_WORDS=(msgstat mess); COMP_CWORD=1; COMP_LINE='msgstat mess'; COMP_POINT=12",
          "_msgstat msgstat mess msgstat",
          'printf "%s\\n" "${COMPREPLY[@]}"',
        ].join("\n");
        expect(result(spawnSync("bash", ["--norc", "-c", completion], { env, encoding: "utf8" }))).toEqual({
          code: 0,
          stdout: "complete -F _msgstat msgstat\nmessages\nmessage\n",
          stderr: "",
        });
        expect(installed).toContain("/usr/bin/msgstat");
      } finally {
        expect(dpkg("--remove", "msgstat").code).toBe(0);
      }
      // Every path it installed is gone, but folders another package still owns.
      const left = installed.filter((file) => existsSync(file) && spawnSync("dpkg", ["--search", file]).status !== 0);
      expect(left).toEqual([]);
    },
  );
});

describe("the executable's code cache (scripts/sea-train.cjs)", () => {
  const trainer = path.join(root, "scripts", "sea-train.cjs");
  const sea = (...args: string[]) =>
    result(spawnSync(process.execPath, [trainer, ...args], { encoding: "utf8", timeout: 30_000 }));

  // V8 compares a cache's source by its length, not its text: the build makes the two together.
  it("is taken for the program it was made from, and refused for one of another length, failing the build", () => {
    const folder = scratchFolder("msgstat-code-cache-");
    const program = path.join(folder, "program.js");
    const other = path.join(folder, "other.js");
    const cache = path.join(folder, "program.cache");
    writeFileSync(program, "(function (require, module) { module.exports = { main: async () => 0 }; })");
    writeFileSync(other, "(function (require, module) { module.exports = { main: async () => 1 + 1 }; })");
    expect(sea("train", program, cache, "[[]]")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(sea("check", program, cache)).toEqual({ code: 0, stdout: "", stderr: "" });
    const refused = sea("check", other, cache);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`V8 rejects ${cache}`);
  });
});
