// The one lock (config folder and dataset). A lock is taken in one step: it appears with its holder's line already in it (a temporary file linked to
// the lock's name), so a second process never reads it empty and takes it over. Seen through inotify
// (fs.watch): the lock's name is created and removed, and never modified; created then written, it was.
// The same for the config folder's lock and a dataset's.
// One staleness rule, seen through the config folder's writers: a writer waits for another a bounded
// time, takes over a lock left by a process that died or one not refreshed for longer than any write,
// and always releases its own.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  watch,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockDataset } from "../../src/commands/export/run.js";
import { LOCK_NAME, withConfigLock } from "../../src/config/config-folder.js";
import { createLockFile, takeLock } from "../../src/output/lock.js";
import { scratchFolder } from "../support/scratch.js";
import { waitFor } from "../support/wait-for.js";

/** What happened to `name` in `dir` while `act` ran, as fs.watch reports it ("rename": created or removed). */
async function eventsOn(dir: string, name: string, act: () => Promise<void>): Promise<string[]> {
  const events: string[] = [];
  let seen!: () => void;
  const done = new Promise<void>((resolve) => (seen = resolve));
  const watcher = watch(dir, (event, file) => {
    if (file === name) events.push(event);
    if (file === "after") seen();
  });
  try {
    await act();
    // inotify reports in order: once this file's creation arrives, every event of `act` has.
    writeFileSync(path.join(dir, "after"), "");
    await done;
  } finally {
    watcher.close();
  }
  return events;
}

describe("a lock taken in one step", () => {
  it("the config folder's lock is created whole, never written after it appears", async () => {
    const dir = path.join(scratchFolder("lock-file-"), "msgstat");
    await withConfigLock(dir, () => Promise.resolve());
    expect(await eventsOn(dir, LOCK_NAME, () => withConfigLock(dir, () => Promise.resolve()))).toEqual([
      "rename",
      "rename",
    ]);
  });

  it("a dataset's lock is created whole, never written after it appears", async () => {
    const dir = scratchFolder("lock-file-");
    const events = await eventsOn(dir, ".msgstat-export.lock", async () => {
      const unlock = await lockDataset(dir);
      await unlock();
    });
    expect(events).toEqual(["rename", "rename"]);
  });

  it("holds the holder's line, leaves no temporary file, and is not taken when anything has its name", async () => {
    const dir = scratchFolder("lock-file-");
    const lock = path.join(dir, "x.lock");
    expect(await createLockFile(lock, "1 here\n")).toBe(true);
    expect(readFileSync(lock, "utf8")).toBe("1 here\n");
    expect(await createLockFile(lock, "2 there\n")).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe("1 here\n");
    // A dangling link is not followed: its target is not created.
    symlinkSync(path.join(dir, "target"), path.join(dir, "y.lock"));
    expect(await createLockFile(path.join(dir, "y.lock"), "3\n")).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["x.lock", "y.lock"]);
  });
});

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

describe("a lock held longer than the staleness bound", () => {
  it("is refreshed by its holder, so no other takes it over", async () => {
    const { lock } = folder();
    const busy = () => new Error("held");
    const options = { waitMs: 0, staleMs: 400, busy, cannotCreate: busy };
    const release = await takeLock(lock, options);
    try {
      // As if it had not been refreshed for far longer than the bound; its holder refreshes it.
      const old = (Date.now() - 120_000) / 1000;
      utimesSync(lock, old, old);
      await waitFor(() => Date.now() - statSync(lock).mtimeMs < 400, "the holder to refresh its lock");
      await expect(takeLock(lock, options)).rejects.toThrow("held");
    } finally {
      await release();
    }
    expect(existsSync(lock)).toBe(false);
  });
});
