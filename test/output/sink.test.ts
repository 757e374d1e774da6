// The sink gathers text and bytes into large writes: whatever the mix and the sizes, the reader gets
// every byte in order, and a write is handed to the stream only at about 64 KB (at the end of a line) or
// on flush.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { streamSink } from "../../src/output/sink.js";

function collected() {
  const stream = new PassThrough();
  const writes: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => writes.push(chunk));
  return { stream, writes, text: () => Buffer.concat(writes).toString("utf8") };
}

describe("streamSink", () => {
  it("text alone: held until 64 KB or a flush, then written whole", async () => {
    const out = collected();
    const sink = streamSink(out.stream, new AbortController().signal);
    expect(sink.write("é,😀\r\n")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual([]);
    await sink.finish();
    expect(out.text()).toBe("é,😀\r\n");
  });

  it("text and bytes mixed, of every size, come out in order and exact", async () => {
    const out = collected();
    const sink = streamSink(out.stream, new AbortController().signal);
    const expected: string[] = [];
    const text = (piece: string) => {
      expected.push(piece);
      return sink.write(piece);
    };
    const bytes = (piece: string) => {
      expected.push(piece);
      const buffer = Buffer.from(`<<${piece}>>`);
      return sink.writeBytes(buffer, 2, buffer.length - 2);
    };
    const sizes = [0, 1, 7, 8, 16, 17, 1000, 10_922, 21_845, 21_846, 32_768, 65_535, 65_536, 100_000];
    let step = 0;
    for (const size of sizes) {
      for (const unit of ["a", "é", "😀", "\n"]) {
        const piece = unit.repeat(size);
        await (step++ % 3 === 0 ? bytes(piece) : text(piece));
        await (step++ % 2 === 0 ? bytes(`{"n":${step}}`) : text(","));
      }
    }
    await sink.finish();
    expect(out.text()).toBe(expected.join(""));
    // Large writes: no more writes than 64 KB pieces of the whole, plus the pieces larger than that.
    expect(out.writes.length).toBeLessThan(Buffer.byteLength(expected.join("")) / 65_536 + 2 * sizes.length);
  });

  it("a write for size waits for the end of a line: the stream is handed whole lines only (issue 25, 17)", async () => {
    const out = collected();
    const sink = streamSink(out.stream, new AbortController().signal);
    // Records of 30 kB as bytes, each followed by its newline as text (as JSONL is written): the third
    // does not fit the 64 kB chunk, yet nothing goes out until its newline is there.
    const record = (n: number) => Buffer.from(`{"n":${n},"pad":"${"y".repeat(30_000)}"}`);
    for (let n = 0; n < 3; n++) {
      const bytes = record(n);
      expect(sink.writeBytes(bytes, 0, bytes.length)).toBeUndefined();
      if (n < 2) expect(sink.write("\n")).toBeUndefined();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual([]);
    await sink.write("\n");
    await new Promise((resolve) => setImmediate(resolve));
    const handed = Buffer.concat(out.writes).toString("utf8");
    expect(handed.endsWith("\n")).toBe(true);
    expect(
      handed
        .split("\n")
        .slice(0, -1)
        .map((line) => (JSON.parse(line) as { n: number }).n),
    ).toEqual([0, 1, 2]);
  });

  it("bytes are copied: the caller may reuse its buffer at once", async () => {
    const out = collected();
    const sink = streamSink(out.stream, new AbortController().signal);
    const buffer = Buffer.from("first");
    await sink.writeBytes(buffer, 0, buffer.length);
    buffer.write("XXXXX");
    await sink.write("|");
    await sink.finish();
    expect(out.text()).toBe("first|");
  });
});
