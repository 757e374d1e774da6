// `msgstat config list | get | set | unset | profiles`.
import { Command } from "@commander-js/extra-typings";
import { addProfileOption, GLOBAL_OPTIONS_HEADING, globalOptionsOf } from "../shared/global-options.js";
import { addHelpSections, type HelpSection } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { SETTING_KEYS } from "../../config/keys.js";
import { runGet, runList, runProfiles, runSet, runUnset } from "./run.js";

// The keys from the list `config set` checks against, so that a new setting is never missing here.
const KEYS: HelpSection = {
  heading: "Keys:",
  text:
    `${SETTING_KEYS.map((key) => key.name).join(", ")}, and ` +
    "headers.<Name> (a header that is not a secret). Each gives way to its flag and its environment " +
    "variable. The token is never kept in the config file: msgstat auth login stores it. " +
    "token-command runs the program directly, without a shell; to use a shell, say so: sh -c '...'.",
};

export function defineConfig(config: Command, run: Run): void {
  const given = (cmd: Parameters<typeof globalOptionsOf>[0]) => ({
    given: globalOptionsOf(cmd, { defaults: false }),
  });

  const list = addProfileOption(
    new Command("list").description("print the settings of a profile, key=value, as the config file holds them"),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (_raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runList(given(cmd), ctx);
  });
  const get = addProfileOption(
    new Command("get").description("print one setting of a profile").argument("<key>", "a key, or headers.<Name>"),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (key, _raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runGet(key, given(cmd), ctx);
  });
  const set = addProfileOption(
    new Command("set")
      .description("set one setting of a profile (the profile is created if need be)")
      .argument("<key>", "a key, or headers.<Name>")
      .argument("<value>", "its value, checked as the flag's would be"),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (key, value, _raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runSet(key, value, given(cmd), ctx);
  });
  const unset = addProfileOption(
    new Command("unset")
      .description("remove one setting of a profile")
      .argument("<key>", "a key, headers, or headers.<Name>"),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (key, _raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runUnset(key, given(cmd), ctx);
  });
  const profiles = new Command("profiles")
    .description("print the names of the saved profiles, one a line")
    .action(async (_raw, cmd) => {
      const ctx = contextFor(cmd, run);
      await runProfiles(given(cmd), ctx);
    });
  for (const command of [get, set, unset]) addHelpSections(command, KEYS);
  config.addCommand(list).addCommand(get).addCommand(set).addCommand(unset).addCommand(profiles);
  // Run as shown by the help test, one after the other.
  addHelpSections(config, KEYS, {
    heading: "Examples:",
    examples: [
      { command: "msgstat config set --profile staging base-url https://staging.example.com" },
      { command: 'msgstat config set --profile staging token-command "pass show msgstat"' },
      { command: "msgstat config set --profile staging headers.X-Team support" },
      { command: "msgstat config list --profile staging" },
      { command: "msgstat config profiles" },
      { command: "msgstat config unset --profile staging headers" },
    ],
  });
}
