// `npm run demo`: a short tour of msgstat against the built-in sandbox, each command shown before its output.
import { spawn, spawnSync } from "node:child_process";
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

function startSandbox() {
  // The sandbox's stderr is kept back (it says how to reach it) and shown only if it fails to start.
  const child = spawn(
    process.execPath,
    [bin, "sandbox", "--port", "0", "--messages", "5000", "--live", "--save-profile", "default"],
    { stdio: ["ignore", "pipe", "pipe"], env },
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

function show(args, env) {
  process.stdout.write(`\n\x1b[1m$ msgstat ${args.map((a) => (/[\s"']/.test(a) ? `'${a}'` : a)).join(" ")}\x1b[0m\n`);
  const result = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit", env });
  if (result.status !== 0) process.stdout.write(`(exit code ${result.status})\n`);
}

/** A live mode runs until Ctrl-C: shown for a few seconds, then interrupted as a user would. */
function showFor(args, env, ms) {
  process.stdout.write(`\n\x1b[1m$ msgstat ${args.join(" ")}\x1b[0m   (Ctrl-C after ${ms / 1000} s)\n`);
  const child = spawn(process.execPath, [bin, ...args], { stdio: "inherit", env });
  const timer = setTimeout(() => child.kill("SIGINT"), ms);
  return new Promise((resolve) => child.on("exit", () => resolve(clearTimeout(timer))));
}

function capture(args, env) {
  return spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" }).stdout;
}

const { child, url, lines } = await startSandbox();
const campaign = lines.find((line) => line.startsWith("campaign "))?.split(" ")[1] ?? "cmp-spring-sale";
const batchLine = lines.find((line) => line.startsWith(`batch ${campaign} `));
const batch = batchLine?.split(" ")[2];
try {
  process.stdout.write(
    `msgstat tour against the sandbox at ${url}, which saved its URL as the default profile\n(msgstat sandbox --save-profile default) in a config folder of the tour's own\n`,
  );
  show(["config", "list"], env);
  show(["messages", campaign, "--limit", "8"], env);
  show(["messages", campaign, "--search", "44 1", "--limit", "5"], env);
  show(["messages", campaign, "--status", "failure", "--since", "7d", "--limit", "5"], env);
  if (batch) show(["batch", campaign, batch, "--limit", "5"], env);
  const failed = capture(
    ["messages", campaign, "--status", "failure", "--limit", "1", "--fields", "id", "--jsonl"],
    env,
  );
  const failedId = failed ? JSON.parse(failed.split("\n")[0]).id : undefined;
  if (failedId) show(["message", campaign, failedId], env);
  show(["messages", campaign, "--limit", "1", "--json"], env);
  show(["messages", campaign, "--status", "failure", "--limit", "4", "--csv"], env);
  show(["stats", campaign], env);
  show(["messages", "no-such-campaign"], env);
  // The live campaign (msgstat sandbox --live) keeps sending: wait for one message, follow, watch.
  const fresh = capture(["messages", "cmp-live", "--limit", "1", "--fields", "id", "--jsonl"], env);
  const freshId = fresh ? JSON.parse(fresh.split("\n")[0]).id : undefined;
  if (freshId) show(["message", "cmp-live", freshId, "--wait", "--every", "1s"], env);
  await showFor(["messages", "cmp-live", "--follow", "--every", "1s", "-n", "5"], env, 5_000);
  await showFor(["stats", "cmp-live", "--watch", "--every", "2s"], env, 6_000);
} finally {
  child.kill("SIGINT");
  rmSync(configDir, { recursive: true, force: true });
}
