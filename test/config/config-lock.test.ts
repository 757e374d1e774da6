// The config folder's lock (item 5 of issue 25): a writer waits for another a bounded time, takes over
// a lock left by a process that died or one older than any write, and always releases its own.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_NAME, withConfigLock } from "../../src/config/config-lock.js";
import { scratchFolder } from "../support/scratch.js";

function folder(): { dir: string; lock: string } {
  const dir = path.join(scratchFolder("msgstat-lock-"), "msgstat");
  mkdirSync(dir, { mode: 0o700 });
  return { dir, lock: path.join(dir, LOCK_NAME) };
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid;
}

describe("withConfigLock", () => {
  it("holds the lock file while the change runs, and removes it after, even when the change fails", async () => {
    const { dir, lock } = folder();
    expect(await withConfigLock(dir, () => Promise.resolve(existsSync(lock)))).toBe(true);
    expect(existsSync(lock)).toBe(false);
    await expect(withConfigLock(dir, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });

  it("a second writer waits for the first, then runs", async () => {
    const { dir } = folder();
    const order: string[] = [];
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withConfigLock(dir, async () => {
      order.push("first in");
      entered();
      await new Promise<void>((resolve) => (release = resolve));
      order.push("first out");
    });
    await inside;
    const second = withConfigLock(dir, () => Promise.resolve(order.push("second")));
    // However long this takes, the second cannot run before the first releases: the wait only gives a
    // broken lock the chance to show.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(order).toEqual(["first in"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first in", "first out", "second"]);
  });

  it("a lock held by a live process past the bounded wait is a clear error naming it and what to do", async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname() }));
    await expect(withConfigLock(dir, () => Promise.resolve(), { waitMs: 100 })).rejects.toThrow(
      new RegExp(
        `^another msgstat is changing the config folder: ${lock} has been held for \\d+ s by process ${process.pid}$`,
      ),
    );
    expect(existsSync(lock)).toBe(true);
  });

  it("a lock left by a process that is gone is stale and taken over", async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname() }));
    expect(await withConfigLock(dir, () => Promise.resolve("ran"), { waitMs: 100 })).toBe("ran");
    expect(existsSync(lock)).toBe(false);
  });

  it("a lock older than any write (another machine's, or unreadable) is stale and taken over", async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, "");
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(lock, old, old);
    expect(await withConfigLock(dir, () => Promise.resolve("ran"), { waitMs: 100 })).toBe("ran");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: "another-machine" }));
    utimesSync(lock, old, old);
    expect(await withConfigLock(dir, () => Promise.resolve("ran again"), { waitMs: 100 })).toBe("ran again");
  });

  it("a fresh lock of another machine is not judged by its pid here", async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: "another-machine" }));
    await expect(withConfigLock(dir, () => Promise.resolve(), { waitMs: 50 })).rejects.toThrow(/has been held/);
  });
});
