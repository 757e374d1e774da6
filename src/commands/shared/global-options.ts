// The global options, declared once: where the service is, how to authenticate, how patient to be,
// and how to talk to a person. The program reads them before a command's name; each command that
// talks to the service also takes them after its name, under their own heading in its help. A
// command whose own option has a global's name (the sandbox's --token) simply does not take that
// global, so its own option is never shadowed.
import { Option, type Command, type OptionValues } from "@commander-js/extra-typings";
import type { CommandUnknownOpts as AnyCommand } from "@commander-js/extra-typings";
import { RETRIES_RANGE, TIMEOUT_RANGE } from "../../core/numbers.js";
import { listOption, numberOption, wholeNumberOption, type NoOptions } from "./option-values.js";

export const GLOBAL_OPTIONS_HEADING = "Global options:";

// Made fresh for each command: an Option belongs to the command it is added to.
const declare = () => ({
  baseUrl: new Option("--base-url <url>", "service base URL, may include a path prefix (env: MSGSTAT_BASE_URL)"),
  token: new Option(
    "--token <token>",
    "sent as Authorization: Bearer <token>; ps and shell history show it to others, so prefer " +
      "MSGSTAT_TOKEN, msgstat auth login or a profile's token-command",
  ),
  header: listOption("-H, --header <header>", 'extra request header "Name: value", repeatable'),
  timeout: numberOption(
    "--timeout <seconds>",
    "time allowed for each request, connect to last byte",
    TIMEOUT_RANGE,
  ).default(30),
  retries: wholeNumberOption(
    "--retries <n>",
    "retries of a failed request (network errors, 408, 429, 5xx)",
    RETRIES_RANGE,
  ).default(3),
  proxy: new Option(
    "--proxy <url>",
    'HTTP proxy for every request, "" for none (default: HTTPS_PROXY, HTTP_PROXY; NO_PROXY applies)',
  ),
  caFile: new Option(
    "--ca-file <pem>",
    "certificates to trust besides the default ones, a PEM file (NODE_EXTRA_CA_CERTS too)",
  ),
  tz: new Option(
    "--tz <zone>",
    "time zone of the times shown, and of --since/--until without an offset: an IANA name " +
      "(Europe/Paris), an offset (+01:00), local or UTC",
  ).default("local"),
  profile: new Option(
    "--profile <name>",
    'settings and token from this profile of the config file (env: MSGSTAT_PROFILE; default "default")',
  ),
  color: new Option("--no-color", "no colour (also NO_COLOR; FORCE_COLOR forces it)"),
  verbose: new Option("-v, --verbose", "one line per request on stderr; stack traces on errors"),
  quiet: new Option("-q, --quiet", "nothing on stderr but errors: no notes, warnings or progress (env: MSGSTAT_QUIET)"),
  allowInsecureHttp: new Option(
    "--allow-insecure-http",
    "allow sending credentials over plain http:// to a host other than this machine",
  ),
});

/** Every Option made by this module, so the values of globals are told apart from a command's own. */
const madeHere = new WeakSet<object>();

/**
 * Adds the global options to a command (the program, or a command after whose name they may come),
 * under `heading` in its help.
 */
export function addGlobalOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  heading?: string,
) {
  const o = declare();
  for (const option of Object.values(o)) {
    madeHere.add(option);
    if (heading !== undefined) option.helpGroup(heading);
  }
  return command
    .addOption(o.baseUrl)
    .addOption(o.token)
    .addOption(o.header)
    .addOption(o.timeout)
    .addOption(o.retries)
    .addOption(o.proxy)
    .addOption(o.caFile)
    .addOption(o.tz)
    .addOption(o.profile)
    .addOption(o.color)
    .addOption(o.verbose)
    .addOption(o.quiet)
    .addOption(o.allowInsecureHttp);
}

/** Only --profile, for the commands about the config file itself (msgstat config). */
export function addProfileOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  heading?: string,
) {
  const { profile } = declare();
  madeHere.add(profile);
  if (heading !== undefined) profile.helpGroup(heading);
  return command.addOption(profile);
}

export type GlobalOptions = ReturnType<ReturnType<typeof addGlobalOptions<[], NoOptions, NoOptions>>["opts"]>;

export function isGlobalOption(option: object): boolean {
  return madeHere.has(option);
}

const given = (source: string | undefined) => source !== undefined && source !== "default" && source !== "implied";

/**
 * The global options in force for a command: a value given after the command's name wins over one
 * given before it; a default applies only when neither was given. Only options made here count, so
 * a command's own option of the same name (sandbox --token) is never read as the global. Without
 * `defaults`, only the values given: what a profile's settings give way to (config/settings.ts).
 */
export function globalOptionsOf(command: AnyCommand, { defaults = true } = {}): GlobalOptions {
  const values: Record<string, unknown> = {};
  const fallbacks: Record<string, unknown> = {};
  // Nearest command first; each option's name is worked out once (commander camel-cases it anew on every call).
  for (let at: AnyCommand | null = command; at; at = at.parent) {
    for (const option of at.options) {
      if (!isGlobalOption(option)) continue;
      const name = option.attributeName();
      if (name in values) continue;
      const value: unknown = at.getOptionValue(name);
      if (given(at.getOptionValueSource(name))) values[name] = value;
      else fallbacks[name] ??= value;
    }
  }
  if (defaults) {
    for (const [name, fallback] of Object.entries(fallbacks)) {
      if (!(name in values) && fallback !== undefined) values[name] = fallback;
    }
  }
  return values as GlobalOptions;
}
