// Issue 25: the built bin ends once a token-command printed its token and exited, though a child it left in the
// background still holds the pipe (before, msgstat waited for that child, or for token-command-timeout).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

describe("token-command with a background child, end to end", () => {
  it("auth status runs it and exits, leaving the child behind", async () => {
    const folder = scratchFolder("msgstat-token-bin-");
    const dir = path.join(folder, "msgstat");
    const pidFile = path.join(folder, "background.pid");
    mkdirSync(dir, { mode: 0o700 });
    const command = `sh -c 'sleep 60 & echo $! > ${pidFile}; echo tok-background-0123456789'`;
    writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({ profiles: { ci: { "base-url": "http://127.0.0.1:9", "token-command": command } } }),
    );
    try {
      // Killed at 20 s (exit 128) if it waited for the child's 60 s or the 30 s token-command-timeout.
      const result = await runBin(["auth", "status", "--profile", "ci"], {
        env: { MSGSTAT_CONFIG_DIR: dir },
        timeoutMs: 20_000,
      });
      expect(result).toEqual({
        code: 0,
        stdout: `ci\n  base-url  http://127.0.0.1:9  (profile)\n  token     ****6789  (token-command: ${command})\n`,
        stderr: "",
      });
    } finally {
      process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    }
  });
});
