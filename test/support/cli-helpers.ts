// Shared by the CLI tests: a sandbox per file, the server's own pages fetched with global fetch (the
// ground truth msgstat's output is compared with), and small readers of what msgstat wrote.
import { afterAll, beforeAll, onTestFinished } from "vitest";
import type { Message, PageData } from "../../src/core/message.js";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { runCli, type CliOptions, type CliResult } from "./run-cli.js";

/** The sandbox's clock and msgstat's: fixed, so createdAt values and --since windows never move. */
export const NOW = Date.parse("2025-05-01T12:00:00.000Z");

export interface Page {
  data: Message[];
  pageData: PageData;
}

export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ messages: 200, now: NOW, ...options });
}

/** A sandbox of the test's own (500 messages, with the faults or transform asked for), closed when the test ends. */
export async function sandboxForTest(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startTestSandbox({ messages: 500, ...options });
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** A sandbox for the test file, started before its tests and closed after them. */
export function useTestSandbox(ready: (sandbox: Sandbox) => void | Promise<void>): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    await ready(sandbox);
  });
  afterAll(() => sandbox?.close());
}

/** The same, with every message of the listing at `path` as the server sends it. */
export function useListingSandbox(path: string, ready: (sandbox: Sandbox, all: Message[]) => void): void {
  useTestSandbox(async (sandbox) => ready(sandbox, await serverListing(sandbox, path)));
}

/** The header of the table when piped: tab-separated column names. */
export const PIPED_TABLE_HEADER = "ID\tRECIPIENT\tSTATUS\tTRIES\tERROR\tCREATED\tBATCH\tFILE\tMESSAGE\n";

/** One page exactly as the server sends it. */
export async function serverPage(
  sandbox: Sandbox,
  path: string,
  params: Record<string, string | number | undefined>,
): Promise<Page> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const response = await fetch(`${sandbox.url}${path}?${query.toString()}`);
  if (response.status !== 200) throw new Error(`GET ${path}?${query.toString()}: ${response.status}`);
  return (await response.json()) as Page;
}

/** Every message of a listing, following endCursor. */
export async function serverListing(
  sandbox: Sandbox,
  path: string,
  pageSize = 1000,
  extra: Record<string, string> = {},
): Promise<Message[]> {
  const messages: Message[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await serverPage(sandbox, path, { limit: pageSize, after, ...extra });
    messages.push(...page.data);
    if (!page.pageData.hasNextPage) return messages;
    after = page.pageData.endCursor;
  }
}

/** The cursor of the message at `index` of a listing (its page's endCursor when the page ends on it). */
export async function cursorAt(sandbox: Sandbox, path: string, index: number): Promise<string> {
  const page = await serverPage(sandbox, path, { limit: index + 1 });
  if (page.data.length !== index + 1 || page.pageData.endCursor === undefined)
    throw new Error(`no message at ${index}`);
  return page.pageData.endCursor;
}

export async function serverMessage(
  sandbox: Sandbox,
  campaignId: string,
  messageId: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/campaigns/${campaignId}/messages/${messageId}`);
  if (response.status !== 200) throw new Error(`message ${messageId}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** runCli at the fixed clock against this sandbox, with the base URL given as a global option. */
export function cli(sandbox: Sandbox, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(["--base-url", sandbox.url, ...args], { now: NOW, ...options });
}

/** Runs msgstat and returns what it did together with the requests the sandbox received meanwhile. */
export async function cliWithRequests(
  sandbox: Sandbox,
  args: string[],
  options: CliOptions = {},
): Promise<CliResult & { urls: string[] }> {
  const before = sandbox.requests.length;
  const result = await cli(sandbox, args, options);
  return { ...result, urls: sandbox.requests.slice(before).map((request) => request.url) };
}

/** What msgstat's JSON output is for these objects when piped: one array, an object per line. */
export function jsonArrayText(objects: readonly unknown[]): string {
  return objects.length === 0 ? "[]\n" : `[\n${objects.map((object) => JSON.stringify(object)).join(",\n")}\n]\n`;
}

export function jsonlText(objects: readonly unknown[]): string {
  return objects.map((object) => JSON.stringify(object) + "\n").join("");
}

/** A word as msgstat's hints quote it for a POSIX shell. */
export function quoted(word: string): string {
  return /^[A-Za-z0-9_=+/.,:@%-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** The words of a line a POSIX shell would see (bare words and single quotes: what msgstat prints). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/(?:[^\s'\\]+|'[^']*'|\\.)+/g)) {
    words.push(
      match[0].replace(
        /'([^']*)'|\\(.)|([^'\\]+)/g,
        (_all, inQuotes: string | undefined, escaped: string | undefined, bare: string | undefined) =>
          inQuotes ?? escaped ?? bare ?? "",
      ),
    );
  }
  return words;
}

/**
 * The continuation hint printed on stderr after a listing cut short by --limit, for msgstat run with
 * `argv` (what main() was given): the whole next command, alone on its line.
 */
export function moreHint(
  argv: readonly string[],
  printed: number,
  direction: "after" | "before",
  cursor: string,
): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--after" || argv[i] === "--before") i++;
    else kept.push(argv[i]!);
  }
  const command = ["msgstat", ...kept, `--${direction}`, cursor].map(quoted).join(" ");
  const more = direction === "after" ? "Or add --all for every message.\n" : "";
  return `Showing ${printed} ${printed === 1 ? "message" : "messages"}; more may follow. For the next ${direction === "after" ? "ones" : "newer ones"}, run:\n${command}\n${more}`;
}

/** The next command of a continuation hint, as words (without "msgstat"). */
export function hintCommand(stderr: string): string[] {
  const line = stderr.split("\n").find((candidate) => candidate.startsWith("msgstat "));
  if (!line) throw new Error(`no command in the hint: ${stderr}`);
  return shellWords(line).slice(1);
}

/** The cursor named in a continuation hint. */
export function hintCursor(stderr: string, direction: "after" | "before"): string {
  const words = hintCommand(stderr);
  const at = words.lastIndexOf(`--${direction}`);
  if (at < 0 || words[at + 1] === undefined) throw new Error(`no --${direction} in the hint: ${stderr}`);
  return words[at + 1]!;
}

/** Newest failed attempt of a listing message, by createdAt: what lastErrorType/lastErrorCode mean. */
export function newestFailedAttempt(
  message: Message,
): { errorType: string | null; errorCode: string | null } | undefined {
  const failed = (message.messageAttempts ?? []).filter(
    (attempt) => attempt.errorType !== null || attempt.errorCode !== null,
  );
  return failed.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
}

export const ids = (messages: readonly { id: string }[]) => messages.map((message) => message.id);
