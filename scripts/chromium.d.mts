// Types of scripts/chromium.mjs, for the TypeScript tests that import it.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: readonly string[];
export function chromiumAvailable(): boolean;
export function launchChromium(): Promise<Browser>;
export function offlinePage(
  browser: Browser,
  options?: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page; requests: string[] }>;
