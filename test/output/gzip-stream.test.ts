// gzipInto: what is written comes out gzipped in the destination, the end waits for the destination's
// last byte (AtomicFile syncs and renames right after it), and the destination's failure is the writer's.
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipInto } from "../../src/output/gzip-stream.js";

/** A destination that takes each chunk only on the next turn of the event loop: a slow disk. */
function slowDestination(failAt?: number) {
  const chunks: Buffer[] = [];
  let writes = 0;
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      writes++;
      setImmediate(() => {
        if (writes === failAt)
          return done(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
        chunks.push(chunk);
        done();
      });
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

const end = (stream: Writable) =>
  new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
  });

describe("gzipInto", () => {
  it("ends only once the destination holds every byte, and they gunzip to what was written", async () => {
    const destination = slowDestination();
    const writer = gzipInto(destination.stream);
    // Text that compresses badly, so the gzip output is several chunks of the slow destination.
    const pieces = Array.from({ length: 2000 }, (_, i) => `${i},${Math.sin(i).toString(36)}\r\n`);
    for (const piece of pieces) if (!writer.write(piece)) await new Promise((resolve) => writer.once("drain", resolve));
    await end(writer);
    expect(destination.stream.writableFinished).toBe(true);
    expect(gunzipSync(destination.bytes()).toString("utf8")).toBe(pieces.join(""));
  });

  it("the destination's write error is the writer's error", async () => {
    const destination = slowDestination(1);
    const writer = gzipInto(destination.stream);
    writer.write("x".repeat(100_000) + Math.random().toString(36).repeat(10_000));
    await expect(end(writer)).rejects.toMatchObject({ code: "ENOSPC" });
    expect(writer.destroyed).toBe(true);
  });
});
