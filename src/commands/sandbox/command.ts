// `msgstat sandbox`: the built-in local service, for trying msgstat, for the tests and for the benchmark.
import { Command } from "commander";
import { collect } from "../shared/arguments.js";
import type { CommandSetup } from "../shared/setup.js";
import type { RawSandboxOptions } from "./options.js";


export function sandboxCommand(setup: CommandSetup): Command {
  return new Command("sandbox")
    .description("run a local delivery-status service with generated campaigns (prints its URL, then the ids it serves)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", "0")
    .option("--seed <n>", "seed of the generated data", "1")
    .option("--messages <n>", "messages in the largest campaign", "5000")
    .option("--token <token>", "require Authorization: Bearer <token>")
    .option("--latency <ms>", "delay every response by this many milliseconds")
    .option("--bandwidth <rate>", "pace every response to a link of this speed, e.g. 50mbit, 512kbit, 2MB/s")
    .option("--no-compression", "never compress responses (by default gzip, br or deflate when the request accepts it)")
    .option("--fail-rate <0..1>", "answer this share of requests with 500 or 503")
    .option("--rate-limit <n>", "requests per second; past it 429 with Retry-After")
    .option("--live", "add cmp-live, a campaign that keeps sending (new messages settle on success or failure within seconds)")
    .option("--live-rate <n>", "new messages per second in cmp-live (default 5)")
    .option("--fault <spec>", 'scripted faults by request number, e.g. "2:503,3:reset,4:stall=5000" (see README)', collect)
    .addHelpText("after", `
Examples:
  msgstat sandbox                       # then: msgstat --base-url <printed URL> messages cmp-spring-sale
  msgstat sandbox --port 8080 --messages 1000000 --latency 20`)
    .action(async (raw: RawSandboxOptions, cmd: Command) => {
      const ctx = setup.context(cmd);
      const [{ parseSandboxOptions }, { runSandbox }] = await Promise.all([import("./options.js"), import("./run.js")]);
      await runSandbox(parseSandboxOptions(raw), ctx);
    });
}
