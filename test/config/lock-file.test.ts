// A lock is taken in one step: it appears with its holder's line already in it (a temporary file linked to
// the lock's name), so a second process never reads it empty and takes it over. Seen through inotify
// (fs.watch): the lock's name is created and removed, and never modified; created then written, it was.
// The same for the config folder's lock and a dataset's.
import { readdirSync, readFileSync, symlinkSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockDataset } from "../../src/commands/export/lock.js";
import { LOCK_NAME, withConfigLock } from "../../src/config/config-lock.js";
import { createLockFile } from "../../src/config/lock-file.js";
import { scratchFolder } from "../support/scratch.js";

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
