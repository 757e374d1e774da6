// Makes the HTML report's screenshots in docs/images/ again: `node scripts/report-screenshots.mjs`
// (after `npm run build`). It starts the sandbox, writes `msgstat stats cmp-spring-sale -o report.html`
// as a user would, opens the file in headless Chromium with every request refused, and saves four PNGs:
// 1280 px wide, 390 px (a phone), print (A4) and dark. The figures move with the date the sandbox is
// anchored to; the layout does not.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromiumAvailable, CHROMIUM_PATH, launchChromium, offlinePage } from "./chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "bin", "msgstat.js");
const images = path.join(root, "docs", "images");

const SHOTS = [
  { file: "report-1280.png", viewport: { width: 1280, height: 1100 }, colorScheme: "light" },
  { file: "report-390.png", viewport: { width: 390, height: 1200 }, colorScheme: "light", deviceScaleFactor: 1 },
  { file: "report-print.png", viewport: { width: 794, height: 1123 }, colorScheme: "light", media: "print" },
  { file: "report-dark.png", viewport: { width: 1280, height: 1100 }, colorScheme: "dark" },
];

function startSandbox(env) {
  const child = spawn(process.execPath, [bin, "sandbox", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"], env });
  return new Promise((resolve, reject) => {
    const reader = createInterface({ input: child.stdout });
    reader.once("line", (url) => resolve({ url: url.trim(), stop: () => child.kill() }));
    child.once("exit", (code) => reject(new Error(`the sandbox stopped (exit ${code})`)));
  });
}

async function main() {
  if (!chromiumAvailable()) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium`);
  const scratch = mkdtempSync(path.join(tmpdir(), "msgstat-shots-"));
  const env = { ...process.env, MSGSTAT_CONFIG_DIR: scratch, TZ: "UTC", NO_COLOR: "1" };
  for (const name of ["MSGSTAT_BASE_URL", "MSGSTAT_TOKEN", "MSGSTAT_PROFILE"]) delete env[name];
  const sandbox = await startSandbox(env);
  const browser = await launchChromium();
  try {
    const report = path.join(scratch, "report.html");
    const made = spawnSync(process.execPath, [bin, "stats", "cmp-spring-sale", "-o", report], {
      env: { ...env, MSGSTAT_BASE_URL: sandbox.url },
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`msgstat stats failed (${made.status}): ${made.stderr}`);
    for (const shot of SHOTS) {
      const { context, page, requests } = await offlinePage(browser, {
        viewport: shot.viewport,
        colorScheme: shot.colorScheme,
        deviceScaleFactor: shot.deviceScaleFactor ?? 1,
      });
      if (shot.media) await page.emulateMedia({ media: shot.media });
      await page.goto(pathToFileURL(report).href);
      await page.screenshot({ path: path.join(images, shot.file) });
      await context.close();
      if (requests.length > 0) throw new Error(`the page asked for ${requests.join(", ")}`);
      process.stderr.write(`wrote docs/images/${shot.file}\n`);
    }
  } finally {
    await browser.close();
    sandbox.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
