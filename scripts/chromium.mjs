// Headless Chromium for the HTML report's browser tests and screenshots: Debian's `chromium` (installed
// by .ci/run), driven by playwright-core, which brings no browser of its own. The flags keep the browser
// from reaching out by itself (updates, sync, component downloads); the page's own requests are
// refused by whoever opens it (see test/e2e/report-browser.test.ts).
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.MSGSTAT_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function chromiumAvailable() {
  return existsSync(CHROMIUM_PATH);
}

/** The browser, launched headless; the caller closes it. */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A page that may make no request but the file it opens: every other one is aborted and remembered in
 * `requests`, so a test can fail on it and the screenshot script can refuse to save.
 */
export async function offlinePage(browser, options) {
  const context = await browser.newContext({ ...options, offline: false, serviceWorkers: "block" });
  const requests = [];
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith("file://") && route.request().resourceType() === "document") return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  return { context, page, requests };
}
