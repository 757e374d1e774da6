// Options every command accepts, before or after its name: where the service is, how to
// authenticate, how patient to be, and how to talk to a person.
import { Option, type Command } from "commander";
import { collect } from "./arguments.js";

export interface RawGlobalOptions {
  baseUrl?: string;
  token?: string;
  header?: string[];
  timeout?: string;
  retries?: string;
  color?: boolean;
  verbose?: boolean;
  allowInsecureHttp?: boolean;
  tz?: string;
}


export function globalOptions(): Option[] {
  return [
    new Option("--base-url <url>", "service base URL, may include a path prefix (env: MSGSTAT_BASE_URL)"),
    new Option("--token <token>", "sent as Authorization: Bearer <token> (env: MSGSTAT_TOKEN)"),
    new Option("-H, --header <header>", 'extra request header "Name: value", repeatable').argParser(collect),
    new Option("--timeout <seconds>", "time allowed for each request, connect to last byte").default("30"),
    new Option("--retries <n>", "retries of a failed request (network errors, 408, 429, 5xx)").default("3"),
    new Option("--tz <zone>", "time zone of the times shown, and of --since/--until without an offset: an IANA name (Europe/Paris), local or UTC").default("local"),
    new Option("--no-color", "no colour (also NO_COLOR; FORCE_COLOR forces it)"),
    new Option("-v, --verbose", "one line per request on stderr; stack traces on errors"),
    new Option("--allow-insecure-http", "allow sending credentials over plain http:// to a host other than this machine"),
  ];
}

export function addGlobalOptions(command: Command): Command {
  for (const option of globalOptions()) command.addOption(option);
  return command;
}
