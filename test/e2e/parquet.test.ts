// Parquet from the built program: to a pipe (stdout is data: binary is fine there), the same bytes as
// -o writes, and a file DuckDB reads; several row groups of a long listing, in order.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { ROW_GROUP_MESSAGES } from "../../src/formats/parquet.js";
import { duckdb, sqlText } from "../support/duckdb.js";
import { programCommand, runBin } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

let sandbox: Sandbox;
const MESSAGES = 2 * ROW_GROUP_MESSAGES + 345;
beforeAll(async () => {
  sandbox = await startSandbox({ messages: MESSAGES });
});
afterAll(() => sandbox.close());

/** stdout as bytes, from the executable with stdout a pipe. */
function pipedBytes(args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...programCommand(args), { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

describe("--format parquet from bin/msgstat.js", () => {
  it("piped: the bytes -o writes; DuckDB reads every message in order, in row groups of the documented size", async () => {
    const args = ["--base-url", sandbox.url, "messages", "cmp-spring-sale", "--all"];
    const piped = await pipedBytes([...args, "--format", "parquet"]);
    expect({ code: piped.code, stderr: piped.stderr }).toEqual({ code: 0, stderr: "" });
    const target = path.join(scratchFolder("msgstat-parquet-e2e-"), "all.parquet");
    const written = await runBin([...args, "-o", target]);
    expect(written).toMatchObject({
      code: 0,
      stdout: "",
      stderr: `wrote ${MESSAGES.toLocaleString("en-US")} messages to ${target}\n`,
    });
    const file = readFileSync(target);
    expect(piped.stdout.equals(file)).toBe(true);
    expect(file.subarray(0, 4).toString("latin1")).toBe("PAR1");

    const groups = await duckdb(
      `SELECT row_group_id, any_value(row_group_num_rows) AS n FROM parquet_metadata(${sqlText(target)}) GROUP BY 1 ORDER BY 1`,
    );
    expect(groups.map((group) => Number(group.n))).toEqual([ROW_GROUP_MESSAGES, ROW_GROUP_MESSAGES, 345]);
    const jsonl = await runBin([...args, "--jsonl"]);
    const ids = jsonl.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const read = await duckdb(
      `SELECT id FROM read_parquet(${sqlText(target)}, file_row_number = true) ORDER BY file_row_number`,
    );
    expect(read.map((row) => row.id)).toEqual(ids);
  });
});
