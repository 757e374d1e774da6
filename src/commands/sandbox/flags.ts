// Flags of `msgstat sandbox`, for commander. The sandbox talks to no service, so it takes none of the
// global options after its name: its own --token (the token it requires) can never be taken for the
// global one (the token msgstat sends).
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import { listOption, numberOption, textOption, wholeNumberOption, type NoOptions } from "../shared/option-values.js";

/** The sandbox's own port, fixed so a saved profile or an exported URL keeps working from one start to the next. */
export const SANDBOX_PORT = 12180;

export function addSandboxOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return command
    .addOption(textOption("--host <host>", "address to listen on", "an address").default("127.0.0.1"))
    .addOption(
      wholeNumberOption("--port <port>", "port (0 picks a free one)", { min: 0, max: 65535 }).default(SANDBOX_PORT),
    )
    .addOption(wholeNumberOption("--seed <n>", "seed of the generated data").default(1))
    .addOption(
      wholeNumberOption("--messages <n>", "messages in the largest campaign", { min: 0, max: 100_000_000 }).default(
        5000,
      ),
    )
    .addOption(
      wholeNumberOption(
        "--campaigns <n>",
        "also serve n generated campaigns, cmp-many-01 .., each of --messages messages, their times interleaving",
        { min: 1, max: 1000 },
      ),
    )
    .addOption(textOption("--token <token>", "require Authorization: Bearer <token>", "a token"))
    .addOption(
      numberOption("--latency <ms>", "delay every response by this many milliseconds", { min: 0, max: 600_000 }),
    )
    .addOption(
      textOption(
        "--bandwidth <rate>",
        "pace every response to a link of this speed, e.g. 50mbit, 512kbit, 2MB/s",
        "a rate such as 50mbit, 512kbit or 2MB/s",
      ),
    )
    .addOption(
      new Option(
        "--no-compression",
        "never compress responses (by default gzip, br or deflate when the request accepts it)",
      ),
    )
    .option("--cache-pages", "send pages again from memory once built (benchmarks)")
    .addOption(numberOption("--fail-rate <0..1>", "answer this share of requests with 500 or 503", { min: 0, max: 1 }))
    .addOption(numberOption("--rate-limit <n>", "requests per second; past it 429 with Retry-After", { above: 0 }))
    .option(
      "--live",
      "add cmp-live, a campaign that keeps sending (new messages settle on success or failure within seconds)",
    )
    .addOption(
      numberOption("--live-rate <n>", "new messages per second in cmp-live (default 5)", { above: 0, max: 1000 }),
    )
    .addOption(
      listOption(
        "--fault <spec>",
        'scripted faults by request number, e.g. "2:503,3:reset,4:stall=5000" (msgstat help sandbox)',
      ),
    )
    .option(
      "--save-profile [name]",
      'save its URL and campaigns (and --token, stored as auth login stores one) as a profile, "sandbox" unless ' +
        "named, and as the default profile while none is set",
    );
}

export type SandboxFlags = ReturnType<ReturnType<typeof addSandboxOptions<[], NoOptions, NoOptions>>["opts"]>;
