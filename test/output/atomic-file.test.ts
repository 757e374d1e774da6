// The one atomic writer, as each of its users drives it: -o (openOutput), the config and credentials
// files (writeFileAtomic), and export's prepared files (prepareFile, then commit). The file system's
// sync and rename are watched (node:fs wrapped for this file alone): by the rename the temporary file,
// named the same way for all, is complete and flushed to disk, and the target is still what it was; a
// crash at that moment (a rename that fails) leaves the target untouched.
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { writeFileAtomic } from "../../src/config/config-folder.js";
import { AtomicFile } from "../../src/output/atomic-file.js";
import { openOutput, prepareFile } from "../../src/output/sink.js";
import { scratchFolder } from "../support/scratch.js";

const actual = await vi.importActual<typeof import("node:fs")>("node:fs");

/** The steps a replacement takes on disk, as the module under test calls them. */
interface ReplaceSteps {
  sync(descriptor: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** While a test runs its write, the steps it watches; else node:fs as it is. */
const watching: { steps?: ReplaceSteps } = {};

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    fsync: (descriptor: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      if (!watching.steps) return fs.fsync(descriptor, done);
      watching.steps.sync(descriptor).then(
        () => done(null),
        (error: NodeJS.ErrnoException) => done(error),
      );
    },
    promises: {
      ...fs.promises,
      rename: (from: string, to: string) =>
        watching.steps ? watching.steps.rename(from, to) : fs.promises.rename(from, to),
    },
  };
});

/** Runs `write` with the file system's sync and rename replaced by `steps`. */
async function watched<T>(steps: ReplaceSteps, write: () => Promise<T>): Promise<T> {
  watching.steps = steps;
  try {
    return await write();
  } finally {
    watching.steps = undefined;
  }
}

/** `.<target>.msgstat-<pid>-<time>-<n>.tmp`, beside the target. */
const TEMPORARY = /^\.(.+)\.msgstat-(\d+)-[0-9a-z]+-[0-9a-z]+\.tmp$/;

interface AtRename {
  /** The temporary file's name, its text and mode, and whether it was synced, as the rename began. */
  temporary: string;
  temporaryText: string;
  temporaryMode: number;
  syncedBefore: boolean;
  /** The target as the rename began: what a crash at that moment leaves. */
  targetText: string;
  folder: string[];
}

/** Steps that do the real thing, record their order, and look at the folder as the rename begins. */
function watchedSteps(target: string, crashAtRename = false) {
  const order: string[] = [];
  let atRename: AtRename | undefined;
  const steps: ReplaceSteps = {
    async sync(descriptor) {
      await new Promise<void>((resolve, reject) =>
        actual.fsync(descriptor, (error) => (error ? reject(error) : resolve())),
      );
      order.push("sync");
    },
    async rename(from, to) {
      order.push("rename");
      atRename = {
        temporary: path.relative(path.dirname(target), from),
        temporaryText: readFileSync(from, "utf8"),
        temporaryMode: statSync(from).mode & 0o777,
        syncedBefore: order.includes("sync"),
        targetText: readFileSync(target, "utf8"),
        folder: readdirSync(path.dirname(target)).sort(),
      };
      if (crashAtRename) throw Object.assign(new Error("EIO: i/o error, rename"), { code: "EIO" });
      await actual.promises.rename(from, to);
    },
  };
  return { steps, order, atRename: () => atRename! };
}

const TEXT = `${"row,".repeat(40_000)}\n`; // 160 KB: more than one write of the -o sink

const users = [
  {
    name: "the config and credentials files (writeFileAtomic)",
    mode: 0o600,
    write: (target: string, steps: ReplaceSteps) => watched(steps, () => writeFileAtomic(target, TEXT, 0o600)),
    failure: (target: string) => `cannot write ${target} (EIO)`,
  },
  {
    name: "-o (openOutput)",
    mode: 0o640,
    write: (target: string, steps: ReplaceSteps) =>
      watched(steps, async () => {
        const io = { stdout: new PassThrough(), stderr: new PassThrough(), signal: new AbortController().signal };
        const sink = await openOutput(target, io);
        for (let i = 0; i < 40_000; i++) await sink.write("row,");
        await sink.write("\n");
        await sink.finish();
      }),
    failure: (target: string) => `cannot write to ${target}: i/o error (EIO); ${target} was left as it was`,
  },
  {
    name: "export's partitions (prepareFile, then commit)",
    // A prepared file is created 0666, narrowed by the umask.
    mode: 0o666 & ~process.umask(),
    write: (target: string, steps: ReplaceSteps) =>
      watched(steps, async () => {
        const sink = await prepareFile(target, path.dirname(target), new AbortController().signal);
        for (let i = 0; i < 40_000; i++) await sink.write("row,");
        await sink.write("\n");
        await sink.finish();
        await sink.file.commit();
      }),
    failure: () => "EIO: i/o error, rename",
  },
];

describe.each(users)("the atomic writer, used for $name", ({ mode, write, failure }) => {
  function existingTarget(): string {
    const target = path.join(scratchFolder("msgstat-atomic-"), "target.txt");
    writeFileSync(target, "what was there\n");
    chmodSync(target, mode);
    return target;
  }

  it("writes a temporary file named after the target beside it, syncs it, then renames it", async () => {
    const target = existingTarget();
    const watched = watchedSteps(target);
    await write(target, watched.steps);
    expect(watched.order).toEqual(["sync", "rename"]);
    const atRename = watched.atRename();
    const [, name, pid] = TEMPORARY.exec(atRename.temporary) ?? [];
    expect(name).toBe("target.txt");
    expect(Number(pid)).toBe(process.pid);
    expect(atRename).toMatchObject({
      temporaryText: TEXT,
      temporaryMode: mode,
      syncedBefore: true,
      targetText: "what was there\n",
    });
    expect(atRename.folder).toEqual([atRename.temporary, "target.txt"].sort());
    expect(readFileSync(target, "utf8")).toBe(TEXT);
    expect(statSync(target).mode & 0o777).toBe(mode);
    expect(readdirSync(path.dirname(target))).toEqual(["target.txt"]);
  });

  it("a crash before the rename leaves the target untouched, and a failed rename no temporary file", async () => {
    const target = existingTarget();
    const watched = watchedSteps(target, true);
    await expect(write(target, watched.steps)).rejects.toThrow(failure(target));
    // As the rename began (where a crash would have stopped it): the whole new text beside the old target.
    expect(watched.atRename()).toMatchObject({
      temporaryText: TEXT,
      syncedBefore: true,
      targetText: "what was there\n",
    });
    expect(readFileSync(target, "utf8")).toBe("what was there\n");
    expect(readdirSync(path.dirname(target))).toEqual(["target.txt"]);
  });
});

describe("AtomicFile", () => {
  it("streams: what is written reaches the temporary file before the commit", async () => {
    const target = path.join(scratchFolder("msgstat-atomic-"), "out.csv");
    const file = await AtomicFile.open(target, 0o644);
    const { stream } = file;
    await new Promise<void>((resolve, reject) =>
      stream.write("first rows\n", (error) => (error ? reject(error) : resolve())),
    );
    expect(readFileSync(file.temporary, "utf8")).toBe("first rows\n");
    await new Promise<void>((resolve) => stream.end(resolve));
    await file.commit();
    expect(readFileSync(target, "utf8")).toBe("first rows\n");
    expect(readdirSync(path.dirname(target))).toEqual(["out.csv"]);
  });

  it("two replacements of one target at once get two temporary files", async () => {
    const target = path.join(scratchFolder("msgstat-atomic-"), "config.json");
    const [first, second] = await Promise.all([AtomicFile.open(target, 0o600), AtomicFile.open(target, 0o600)]);
    expect(first.temporary).not.toBe(second.temporary);
    await first.abandon();
    await second.abandon();
    expect(readdirSync(path.dirname(target))).toEqual([]);
  });
});
