// Everything a run needs once a command is named on the command line, as one module: every command's
// definition, options and run, and what cli.ts builds their context from. Loaded by one import, where
// a module per command and per part of one made 34 files for `msgstat message --json`, and Node's
// loader spends more on each file than on most of their code (docs/bench.md). `msgstat --help` loads
// none of it. Heavy dependencies a run may not need stay behind their own imports: ora, chalk,
// string-width (each view for a person imports it), undici (proxies only), the OS keyring, the sandbox's server.
export { messagesCommand, batchCommand } from "./list/command.js";
export { messageCommand } from "./message/command.js";
export { statsCommand } from "./stats/command.js";
export { sandboxCommand } from "./sandbox/command.js";
export { authCommand } from "./auth/command.js";
export { configCommand } from "./config/command.js";
export { completionCommand } from "./completion/command.js";
export { chosenTimeZone } from "./shared/time-zone.js";
export { stderrLine } from "./stderr-line.js";
export { clientSettings } from "./shared/client-config.js";
export { advise } from "./shared/advice.js";
export { ApiClient } from "../http/client.js";
export { sleep } from "../core/timer.js";
