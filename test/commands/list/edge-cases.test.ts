// Edge cases found in review: advice after a failure that must not mislead, cursors pasted into a
// shell, -o targets, odd input that must be a usage error before anything is sent.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTimeBound, TimeZone } from "../../../src/core/time.js";
import { normaliseSearch } from "../../../src/commands/shared/filters.js";
import { shellWord } from "../../../src/core/text.js";
import { startProgress } from "../../../src/render/spinner.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { runCli } from "../../support/run-cli.js";
import { hintCursor } from "../../support/cli-helpers.js";

const UTC = TimeZone.named("UTC")!;

const NOW = Date.parse("2025-05-01T12:00:00.000Z");
let folder: string;
const started: Sandbox[] = [];

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), "msgstat-edge-"));
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
  rmSync(folder, { recursive: true, force: true });
});

async function serve(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ messages: 500, now: NOW, ...options });
  started.push(sandbox);
  return sandbox;
}

describe("advice after a failure part way", () => {
  it("with -o, says the file is unchanged instead of offering a cursor past messages it never kept", async () => {
    const s = await serve({ faults: [{ path: "after=", kind: "status", status: 500 }] });
    const target = path.join(folder, "kept.csv");
    writeFileSync(target, "old\n");
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      "cmp-spring-sale",
      "--all",
      "--page-size",
      "100",
      "--csv",
      "-o",
      target,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[1]).toBe(
      `  ${target} was left as it was. Run the same command again once the service recovers.`,
    );
    expect(result.stderr).not.toContain("--after");
    expect(readFileSync(target, "utf8")).toBe("old\n");
  });

  it("a walk back that fails prints nothing and offers no cursor", async () => {
    const clean = await serve();
    const first = (await (await fetch(`${clean.url}/campaigns/cmp-spring-sale/messages?limit=300`)).json()) as {
      pageData: { endCursor: string };
    };
    const s = await serve({ faults: [{ request: 2, kind: "status", status: 503 }] });
    const result = await runCli([
      "--base-url",
      s.url,
      "--retries",
      "0",
      "messages",
      "cmp-spring-sale",
      "--before",
      first.pageData.endCursor,
      "-n",
      "250",
      "--page-size",
      "100",
      "--jsonl",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[1]).toBe(
      "  Nothing was printed: a walk back prints only once it is complete. Run the same command again once the service recovers.",
    );
  });

  it("a failure that would happen again (HTTP 400) gets no 'run it again': a refused cursor is a usage error", async () => {
    const s = await serve();
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "1", "--page-size", "1"]);
    const bogus = await runCli([
      "--base-url",
      s.url,
      "messages",
      "cmp-spring-sale",
      "--after",
      `${hintCursor(result.stderr, "after")}x`,
    ]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("the cursor does not belong to this listing or query");
    expect(bogus.stderr).not.toMatch(/again/);
  });
});

describe("cursors in hints are safe to paste into a shell", () => {
  it("quotes a cursor holding shell syntax", () => {
    expect(shellWord("WyJj-YW_1=")).toBe("WyJj-YW_1=");
    expect(shellWord("x $(touch /tmp/p)|3")).toBe("'x $(touch /tmp/p)|3'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("a\u001b[2Jb")).toBe("'a\\x1b[2Jb'");
  });

  it("in the continuation hint", async () => {
    const s = await serve({
      transform: (body) => {
        const page = body as { pageData?: Record<string, unknown> };
        return page.pageData ? { ...page, pageData: { ...page.pageData, endCursor: "x $(touch pwned)|3" } } : body;
      },
    });
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "2", "--jsonl"]);
    expect(result.stderr).toContain("--after 'x $(touch pwned)|3'");
  });
});

describe("-o targets", () => {
  it("a folder is a usage error before any request", async () => {
    const s = await serve();
    const target = path.join(folder, "a-folder");
    mkdirSync(target);
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "--csv", "-o", target]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: `msgstat: -o ${target} is a folder; name a file\n` });
    expect(s.requests).toHaveLength(0);
  });

  it("message -o into a folder that does not exist sends nothing", async () => {
    const s = await serve();
    const result = await runCli([
      "--base-url",
      s.url,
      "message",
      "cmp-spring-sale",
      "msg-spring-0000001",
      "-o",
      path.join(folder, "missing", "m.txt"),
    ]);
    expect(result.code).toBe(2);
    expect(s.requests).toHaveLength(0);
  });

  it("a replaced file keeps its permissions", async () => {
    const s = await serve();
    const target = path.join(folder, "private.csv");
    writeFileSync(target, "old\n");
    chmodSync(target, 0o600);
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale", "-n", "3", "--csv", "-o", target]);
    expect(result.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, "utf8")).toMatch(/^id,recipient,/);
    expect(readdirSync(folder).filter((name) => name.includes(".msgstat-"))).toEqual([]);
  });
});

describe("input that is refused before anything is sent", () => {
  it.each(["2026-02-30", "2026-11-31", "2026-11-30T24:00", "2026-11-30T23:60", "2026-13-01"])(
    "the impossible time %s",
    (text) => {
      expect(parseTimeBound(text, "since", NOW, UTC)).toBeUndefined();
    },
  );

  it("still reads real ones, leap days included", () => {
    expect(parseTimeBound("2024-02-29", "since", NOW, UTC)).toBe(Date.parse("2024-02-29T00:00:00Z"));
    expect(parseTimeBound("2026-11-30T23:59:59+02:00", "until", NOW, UTC)).toBe(Date.parse("2026-11-30T21:59:59Z"));
  });

  it("a token with a line break", async () => {
    const s = await serve();
    const result = await runCli(["--base-url", s.url, "--token", "secret\nX", "messages", "cmp-spring-sale"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "msgstat: the token may not contain control characters or line breaks (check --token)\n",
    });
    expect(s.requests).toHaveLength(0);
  });

  it("a plus inside brackets is formatting too", () => {
    expect(normaliseSearch("(+44) 7700")).toBe("447700");
    expect(normaliseSearch("+1 (555) 010-99.1")).toBe("1555010991");
  });
});

describe("odd servers and terminals", () => {
  it("a redirect to something that is not a URL is a clear error", async () => {
    const s = await serve({ faults: [{ request: 1, kind: "redirect", location: "http://[::1" }] });
    const result = await runCli(["--base-url", s.url, "messages", "cmp-spring-sale"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `msgstat: GET ${s.url}/campaigns/cmp-spring-sale/messages?limit=50 redirected to something that is not a URL: http://[::1\n`,
    );
  });

  it("no spinner on a terminal that reports no width (ora would spin forever)", async () => {
    const stderr = Object.assign(new PassThrough(), { columns: 0, isTTY: true });
    let written = "";
    stderr.on("data", (chunk: Buffer) => (written += chunk.toString()));
    const progress = await startProgress(
      { stderr, stderrIsTTY: true, stderrColor: false, env: {}, now: () => 0 },
      "Loading…",
    );
    progress.update("more");
    progress.stop();
    expect(written).toBe("");
  });

  it("stats does not colour a pipe, even with FORCE_COLOR", async () => {
    const s = await serve();
    const result = await runCli(["--base-url", s.url, "stats", "cmp-spring-sale"], { env: { FORCE_COLOR: "1" } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });
});
