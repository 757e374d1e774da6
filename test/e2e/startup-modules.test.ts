// What a run loads of Node's own modules: `msgstat message` against an http:// service loads neither
// TLS nor zlib nor child processes, each loaded only by the run that needs it, since loading them was a
// large share of its start-up (docs/bench.md, "The executable's start-up"). The built program, as npm
// installs it, under a -r script that lists Node's loaded modules as the process exits.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { useTestSandbox } from "../support/cli-helpers.js";
import { BIN } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

let sandbox: Sandbox;
useTestSandbox((started) => {
  sandbox = started;
});

/** Node's own modules that `msgstat ...args` loaded, and what it wrote on stderr. */
async function loadedBy(
  args: string[],
  extraEnv: Record<string, string>,
): Promise<{ stderr: string; modules: string[] }> {
  const folder = scratchFolder("msgstat-modules-");
  const list = path.join(folder, "modules.txt");
  const lister = path.join(folder, "list-modules.cjs");
  writeFileSync(
    lister,
    'process.on("exit", () => require("node:fs").writeFileSync(process.env.MODULES_FILE, ' +
      'process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13)).join("\\n")));\n',
  );
  // Not spawnSync: the sandbox answers from this process's event loop.
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ["-r", lister, BIN, ...args],
      { env: { PATH: process.env.PATH, HOME: folder, TZ: "UTC", MODULES_FILE: list, ...extraEnv }, encoding: "utf8" },
      (error, _stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stderr)),
    ),
  );
  return { stderr, modules: readFileSync(list, "utf8").split("\n") };
}

const ON_DEMAND = ["tls", "https", "zlib", "child_process", "internal/crypto/x509", "fs/promises"];

describe("Node's modules a run loads", () => {
  it("message over http:// loads no TLS, zlib, child process or promised fs", async () => {
    const { stderr, modules } = await loadedBy(["message", "cmp-spring-sale", "msg-spring-0000030", "--json"], {
      MSGSTAT_BASE_URL: sandbox.url,
    });
    expect(stderr).toBe("");
    expect(modules).toContain("http");
    expect(modules.filter((name) => ON_DEMAND.includes(name))).toEqual([]);
  });

  it("a listing, whose pages come compressed, loads zlib, and still no TLS", async () => {
    const { stderr, modules } = await loadedBy(["messages", "cmp-spring-sale", "--limit", "5", "--json"], {
      MSGSTAT_BASE_URL: sandbox.url,
    });
    expect(stderr).toMatch(/^Showing 5 messages; more may follow\./);
    expect(modules).toContain("zlib");
    expect(modules.filter((name) => ["tls", "https"].includes(name))).toEqual([]);
  });
});
