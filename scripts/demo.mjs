// `npm run demo`: a short tour of msgstat against the built-in sandbox, each command shown before its output.
// However the tour ends (its end, a reader that closes early as `| head`, Ctrl-C, SIGTERM, SIGHUP, an
// error), its sandbox and the command running then end with it, and its config folder is removed.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/msgstat.js", import.meta.url));

// The tour's settings live in a profile of a config folder of its own, as a user's would after
// `msgstat sandbox --save-profile`: nothing of the user's own configuration is read or changed.
const configDir = mkdtempSync(path.join(tmpdir(), "msgstat-demo-"));
// The tour is laid out for 80 columns, the width support staff often have, whatever this terminal's.
const env = { ...process.env, MSGSTAT_CONFIG_DIR: configDir, COLUMNS: "80" };
for (const name of ["MSGSTAT_BASE_URL", "MSGSTAT_TOKEN", "MSGSTAT_PROFILE"]) delete env[name];

/** Every process the tour started that may still run: the sandbox, and the command being shown. */
const running = new Set();

function started(child) {
  running.add(child);
  child.on("exit", () => running.delete(child));
  return child;
}

// Runs however the process exits (process.exit included): a signal is sent at once, so nothing outlives it.
process.on("exit", () => {
  for (const child of running) child.kill("SIGTERM");
  rmSync(configDir, { recursive: true, force: true });
});
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
])
  process.on(signal, () => process.exit(code));
// A reader that closed early (`npm run demo | head -5`) ends the tour quietly; another write error says why.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") process.stderr.write(`demo: cannot write to stdout: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? 0 : 1);
});

function startSandbox() {
  // The sandbox's stderr is kept back (it says how to reach it) and shown only if it fails to start.
  const child = started(
    spawn(
      process.execPath,
      [bin, "sandbox", "--port", "0", "--messages", "5000", "--live", "--save-profile", "default"],
      { stdio: ["ignore", "pipe", "pipe"], env },
    ),
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const lines = [];
    const reader = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error("the sandbox did not start within 15 s")), 15_000);
    reader.on("line", (line) => {
      lines.push(line);
      // The URL comes first, then one line per campaign and batch; a pause means it has said all.
      clearTimeout(timer);
      setTimeout(() => resolve({ child, url: lines[0], lines }), 200);
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited with ${code}\n${stderr}`)));
  });
}

/** msgstat with these arguments, its exit code once it ended; not spawnSync, which would hold signals off. */
function msgstat(args, stdio, ms) {
  const child = started(spawn(process.execPath, [bin, ...args], { stdio, env }));
  const timer = ms === undefined ? undefined : setTimeout(() => child.kill("SIGINT"), ms);
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    }),
  );
}

async function show(args) {
  process.stdout.write(`\n\x1b[1m$ msgstat ${args.map((a) => (/[\s"']/.test(a) ? `'${a}'` : a)).join(" ")}\x1b[0m\n`);
  const { code } = await msgstat(args, "inherit");
  if (code !== 0) process.stdout.write(`(exit code ${code})\n`);
}

/** A live mode runs until Ctrl-C: shown for a few seconds, then interrupted as a user would. */
async function showFor(args, ms) {
  process.stdout.write(`\n\x1b[1m$ msgstat ${args.join(" ")}\x1b[0m   (Ctrl-C after ${ms / 1000} s)\n`);
  await msgstat(args, "inherit", ms);
}

async function capture(args) {
  return (await msgstat(args, ["ignore", "pipe", "ignore"])).stdout;
}

try {
  const { url, lines } = await startSandbox();
  const campaign = lines.find((line) => line.startsWith("campaign "))?.split(" ")[1] ?? "cmp-spring-sale";
  const batchLine = lines.find((line) => line.startsWith(`batch ${campaign} `));
  const batch = batchLine?.split(" ")[2];
  process.stdout.write(
    `msgstat tour against the sandbox at ${url}, which saved its URL as the default profile\n(msgstat sandbox --save-profile default) in a config folder of the tour's own\n`,
  );
  await show(["config", "list"]);
  await show(["messages", campaign, "--limit", "8"]);
  await show(["messages", campaign, "--search", "44 1", "--limit", "5"]);
  await show(["messages", campaign, "--status", "failure", "--since", "7d", "--limit", "5"]);
  if (batch) await show(["batch", campaign, batch, "--limit", "5"]);
  const failed = await capture([
    "messages",
    campaign,
    "--status",
    "failure",
    "--limit",
    "1",
    "--fields",
    "id",
    "--jsonl",
  ]);
  const failedId = failed ? JSON.parse(failed.split("\n")[0]).id : undefined;
  if (failedId) await show(["message", campaign, failedId]);
  await show(["messages", campaign, "--limit", "1", "--json"]);
  await show(["messages", campaign, "--status", "failure", "--limit", "4", "--csv"]);
  await show(["stats", campaign]);
  await show(["messages", "no-such-campaign"]);
  // The live campaign (msgstat sandbox --live) keeps sending: wait for one message, follow, watch.
  const fresh = await capture(["messages", "cmp-live", "--limit", "1", "--fields", "id", "--jsonl"]);
  const freshId = fresh ? JSON.parse(fresh.split("\n")[0]).id : undefined;
  if (freshId) await show(["message", "cmp-live", freshId, "--wait", "--every", "1s"]);
  await showFor(["messages", "cmp-live", "--follow", "--every", "1s", "-n", "5"], 5_000);
  await showFor(["stats", "cmp-live", "--watch", "--every", "2s"], 6_000);
} catch (error) {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
// The sandbox ends with the tour (the exit handler above), as it does when the tour is cut short.
process.exit();
