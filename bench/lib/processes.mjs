// The processes the benchmark runs: a command to its end (wall time, peak RSS, what it wrote), a
// command until its first row (piped or on a pseudo-terminal), and the servers the rows talk to
// (the sandbox, the replay server), each in a process of its own and stopped when the run ends.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = path.join(root, "bin", "msgstat.js");
const REPLAY = path.join(root, "bench", "replay-server.mjs");
const DATASET_SANDBOX = path.join(root, "bench", "dataset-sandbox.mjs");
const PROBE = path.join(root, "bench", "lib", "peak-rss.mjs");
const GNU_TIME = "/usr/bin/time";
/** A message id as the sandbox writes it (`msg-spring-0000042`): how a data line is told from a header. */
const MESSAGE_ID = /msg-[a-z]+-\d{7,}/;
/** The size of the pseudo-terminal of the terminal rows: a wide terminal, so no column is dropped. */
const TERMINAL = { columns: 160, rows: 50 };

/** Whether a command is on the PATH. */
export const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;

/** Everything here shares one scratch folder and one environment for the children. */
export function processes({ scratch, childEnv }) {
  const servers = new Set();
  const rssMethod = detectRssMethod();
  let runCount = 0;

  function detectRssMethod() {
    const probe = spawnSync(
      GNU_TIME,
      ["-f", "%M", "-o", path.join(scratch, "time-check"), process.execPath, "-e", "0"],
      { stdio: "ignore" },
    );
    if (probe.status === 0 && /^\d+\s*$/.test(readFileSync(path.join(scratch, "time-check"), "utf8"))) {
      return {
        kind: "time",
        describe: "GNU time: /usr/bin/time -f %M around the process (its ru_maxrss, the kernel's peak RSS)",
      };
    }
    return {
      kind: "probe",
      describe:
        "VmHWM of /proc/self/status read at exit by a preloaded module (node --import bench/lib/peak-rss.mjs); GNU time was not found",
    };
  }

  /**
   * Runs one process to its end: wall time from spawn to exit, peak RSS, the CPU time it used (user and
   * system, with GNU time only), and what it wrote to stdout.
   */
  function measure(command, args, { env = {}, rss = true, capture = false, timeoutMs = 20 * 60_000 } = {}) {
    let file = command;
    let argv = args;
    const extraEnv = { ...env };
    let rssFile;
    if (rss) {
      rssFile = path.join(scratch, `rss-${++runCount}`);
      if (rssMethod.kind === "time") {
        file = GNU_TIME;
        argv = ["-f", "%M %U %S", "-o", rssFile, command, ...args];
      } else if (command === process.execPath) {
        argv = ["--import", pathToFileURL(PROBE).href, ...args];
        extraEnv.BENCH_PEAK_RSS_FILE = rssFile;
      } else {
        rssFile = undefined;
      }
    }
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const child = spawn(file, argv, { env: { ...childEnv, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
      let bytes = 0;
      let lines = 0;
      const kept = [];
      let stderr = "";
      let wallMs;
      child.stdout.on("data", (chunk) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        if (capture) kept.push(chunk);
      });
      child.stderr.setEncoding("utf8").on("data", (text) => {
        if (stderr.length < 20_000) stderr += text;
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.on("error", reject);
      child.on("exit", () => {
        wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        if (code !== 0) {
          reject(
            new Error(
              `${path.basename(command)} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr.trim()}`,
            ),
          );
          return;
        }
        let peakRssKB = null;
        let cpuMs = null;
        if (rssFile && existsSync(rssFile)) {
          // GNU time's line: "%M %U %S"; the probe's: the peak alone.
          const [rssText, user, system] = readFileSync(rssFile, "utf8").trim().split("\n").pop().trim().split(/\s+/);
          const value = Number.parseInt(rssText, 10);
          peakRssKB = Number.isFinite(value) ? value : null;
          const cpu = (Number(user) + Number(system)) * 1000;
          cpuMs = user !== undefined && Number.isFinite(cpu) ? cpu : null;
        }
        resolve({
          wallMs,
          peakRssKB,
          cpuMs,
          bytes,
          lines,
          stdout: capture ? Buffer.concat(kept).toString("utf8") : undefined,
          stderr,
        });
      });
    });
  }

  /**
   * msgstat from spawn until its stdout holds a whole line with a message id in it (a header is not
   * a row), then stopped: the time a user waits for the first row. `terminal` runs it on a
   * pseudo-terminal of util-linux `script` (stdout and stderr on the terminal, as a user has them).
   */
  function firstRow(args, { env = {}, terminal = false, timeoutMs = 120_000 } = {}) {
    const direct = [process.execPath, BIN, ...args];
    const [file, argv] = terminal
      ? [
          "script",
          [
            "-q",
            "-e",
            "-c",
            `stty cols ${TERMINAL.columns} rows ${TERMINAL.rows}; exec ${direct.map(shellWord).join(" ")}`,
            "/dev/null",
          ],
        ]
      : [direct[0], direct.slice(1)];
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      // Its own process group, so that stopping it early stops everything it started.
      const child = spawn(file, argv, {
        env: { ...childEnv, ...(terminal ? { TERM: "xterm-256color" } : {}), ...env },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let seen = "";
      let stderr = "";
      let firstRowMs;
      const stop = () => {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(stop, timeoutMs);
      child.stdout.setEncoding("latin1").on("data", (text) => {
        if (firstRowMs !== undefined) return;
        seen = (seen + text).slice(-256 * 1024);
        const match = MESSAGE_ID.exec(seen);
        if (match && seen.indexOf("\n", match.index) !== -1) {
          firstRowMs = Number(process.hrtime.bigint() - started) / 1e6;
          stop();
        }
      });
      child.stderr.setEncoding("utf8").on("data", (text) => {
        if (stderr.length < 20_000) stderr += text;
      });
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        if (firstRowMs !== undefined) resolve({ wallMs: firstRowMs, peakRssKB: null });
        else
          reject(
            new Error(
              `msgstat ${args.join(" ")}${terminal ? " (on a terminal)" : ""} ended (${signal ?? `exit ${code}`}) without a row:\n${(stderr || seen).trim().slice(-2000)}`,
            ),
          );
      });
    });
  }

  /**
   * A server in a process of its own that prints its URL (and more lines) when ready; `ready` says when it
   * has. With `commands`, its stdin is a pipe and `command(line, answer)` writes a line there and waits
   * for a line of stdout that matches `answer` (the dataset sandbox's rules).
   */
  async function startServer(args, what, ready, { commands = false } = {}) {
    const child = spawn(process.execPath, args, {
      env: childEnv,
      stdio: [commands ? "pipe" : "ignore", "pipe", "pipe"],
    });
    const stop = async () => {
      servers.delete(stop);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    };
    servers.add(stop);
    let text = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what} was not ready within 5 minutes`)), 5 * 60_000);
        child.stdout.setEncoding("utf8").on("data", (chunk) => {
          text += chunk;
          if (ready(text)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`${what} exited (${code}) before it was ready:\n${stderr.trim()}`));
        });
      });
    } catch (error) {
      await stop();
      throw error;
    }
    /** The server's own peak resident set (VmHWM), read while it still runs; null off Linux. */
    const peakRssKB = () => {
      try {
        const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        return match ? Number(match[1]) : null;
      } catch {
        return null;
      }
    };
    const lines = text.trim().split("\n");
    /** Writes `line` to the server's stdin and resolves with the first line it prints after that matching `answer`. */
    const command = (line, answer) =>
      new Promise((resolve, reject) => {
        let printed = "";
        const timer = setTimeout(() => done(new Error(`${what} did not answer "${line}" within a minute`)), 60_000);
        const onData = (chunk) => {
          printed += chunk;
          // Whole lines only: a chunk may end inside one.
          const found = printed
            .split("\n")
            .slice(0, -1)
            .find((printedLine) => answer.test(printedLine));
          if (found !== undefined) done(undefined, found);
          else if (/^unknown /m.test(printed)) done(new Error(`${what} refused "${line}": ${printed.trim()}`));
        };
        const onExit = (code) =>
          done(new Error(`${what} exited (${code}) before answering "${line}":\n${stderr.trim()}`));
        function done(error, found) {
          clearTimeout(timer);
          child.stdout.off("data", onData);
          child.off("exit", onExit);
          if (error) reject(error);
          else resolve(found);
        }
        child.stdout.on("data", onData);
        child.on("exit", onExit);
        child.stdin.write(`${line}\n`);
      });
    return { lines, stop, peakRssKB, command };
  }

  /**
   * The sandbox (`msgstat sandbox`, with `options` such as --latency, --bandwidth); it prints its URL,
   * then `campaign <id> <size>` lines, in one write. The largest campaign is the one measured.
   */
  async function startSandbox(messages, options = []) {
    const args = [BIN, "sandbox", "--messages", String(messages), "--port", "0", ...options];
    const server = await startServer(
      args,
      "the sandbox",
      (text) => /\ncampaign \S+ \d+\n/.test(text) && text.endsWith("\n"),
    );
    const url = server.lines[0].trim();
    const campaigns = server.lines
      .filter((line) => line.startsWith("campaign "))
      .map((line) => {
        const [, id, size] = line.split(" ");
        return { id, size: Number(size) };
      });
    const largest = campaigns.reduce((best, campaign) => (campaign.size > best.size ? campaign : best));
    if (largest.size !== messages)
      throw new Error(`asked the sandbox for ${messages} messages, its largest campaign has ${largest.size}`);
    const response = await fetch(`${url}/campaigns/${encodeURIComponent(largest.id)}/messages?limit=1`);
    const first = await response.json();
    const messageId = first?.data?.[0]?.id;
    if (typeof messageId !== "string") throw new Error("the sandbox's first page has no message id");
    return { url, campaign: largest.id, size: largest.size, messageId, stop: server.stop, peakRssKB: server.peakRssKB };
  }

  /** bench/replay-server.mjs, having captured every page of `campaign` from the sandbox at `sandboxUrl`. */
  async function startReplay(sandboxUrl, campaign, size, { pageSizes = "1000", latencyMs = 0 } = {}) {
    const args = [REPLAY, sandboxUrl, campaign, pageSizes, String(latencyMs)];
    const server = await startServer(args, "the replay server", (text) => /\ncaptured \d+ \d+ \d+\n$/.test(text));
    const [, pages, bytes, messages] = server.lines[1].split(" ").map(Number);
    if (messages !== size) throw new Error(`the replay server captured ${messages} messages, not ${size}`);
    return {
      url: server.lines[0].trim(),
      campaign,
      size,
      pages,
      bytes,
      stop: server.stop,
      peakRssKB: server.peakRssKB,
    };
  }

  /**
   * bench/dataset-sandbox.mjs: `campaigns` campaigns of `size` messages whose listings show 1 % of the
   * messages changed when told (`change("newest" | "spread" | "none")`).
   */
  async function startDatasetSandbox(size, campaigns) {
    const args = [DATASET_SANDBOX, String(size), String(campaigns)];
    const server = await startServer(args, "the dataset sandbox", (text) => text.endsWith("\nready\n"), {
      commands: true,
    });
    const ids = server.lines
      .filter((line) => line.startsWith("campaign "))
      .map((line) => {
        const [, id, messages] = line.split(" ");
        if (Number(messages) !== size)
          throw new Error(`the dataset sandbox's ${id} has ${messages} messages, not ${size}`);
        return id;
      });
    if (ids.length !== campaigns)
      throw new Error(`the dataset sandbox serves ${ids.length} campaigns, not ${campaigns}`);
    /** Applies a rule; for "newest", resolves with how many messages it flips. */
    const change = async (rule) => {
      const answer = await server.command(rule, new RegExp(`^changed ${rule}\\b`));
      const count = /^changed newest (\d+)$/.exec(answer);
      return count ? Number(count[1]) : undefined;
    };
    return {
      url: server.lines[0].trim(),
      ids,
      messages: size * campaigns,
      change,
      stop: server.stop,
      peakRssKB: server.peakRssKB,
    };
  }

  const stopAll = () => Promise.all([...servers].map((stop) => stop()));

  return {
    rssMethod,
    measure,
    firstRow,
    startSandbox,
    startReplay,
    startDatasetSandbox,
    stopAll,
    terminalAvailable: has("script"),
  };
}

/** One word for sh -c: quoted unless it is plainly safe. */
function shellWord(word) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
