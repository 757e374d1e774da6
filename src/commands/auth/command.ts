// `msgstat auth login | status | logout`.
import { Command, Option } from "@commander-js/extra-typings";
import { addGlobalOptions, GLOBAL_OPTIONS_HEADING, globalOptionsOf } from "../shared/global-options.js";
import { addHelpSections, setBriefHelp } from "../shared/help.js";
import { contextFor, type Run } from "../context.js";
import { runLogin, runLogout, runStatus } from "./run.js";

export function defineAuth(auth: Command, run: Run): void {
  const login = addGlobalOptions(
    new Command("login")
      .description("store a token for a profile, with the base URL it belongs to")
      .addOption(
        new Option(
          "--with-token",
          "read the token from standard input (on a terminal msgstat asks for it, without echo)",
        ),
      ),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runLogin({ given: globalOptionsOf(cmd, { defaults: false }), withToken: raw.withToken === true }, ctx);
  });
  addHelpSections(
    login,
    {
      heading: "Where the token goes:",
      text:
        "Never on the command line, where ps and shell history keep it. Into the OS keyring when one is " +
        'available, else into the file "credentials" of the config folder, readable only by you (mode ' +
        "0600). It is sent only to the profile's base URL. msgstat cannot check it: the API has no " +
        "endpoint that says whether a token is valid.",
    },
    {
      heading: "Examples:",
      examples: [
        { command: "msgstat auth login --base-url https://api.example.com/v2", comment: "asks for the token" },
        {
          command:
            "msgstat auth login --profile staging --base-url https://staging.example.com --with-token < token.txt",
        },
      ],
    },
  );

  const status = addGlobalOptions(
    new Command("status").description(
      "show each profile's base URL and where its token comes from (redacted); exit 4 when the " +
        "selected profile lacks either",
    ),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (_raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runStatus({ given: globalOptionsOf(cmd, { defaults: false }) }, ctx);
  });

  const logout = addGlobalOptions(
    new Command("logout").description("remove a profile's stored token (from the keyring and the credentials file)"),
    GLOBAL_OPTIONS_HEADING,
  ).action(async (_raw, cmd) => {
    const ctx = contextFor(cmd, run);
    await runLogout({ given: globalOptionsOf(cmd, { defaults: false }) }, ctx);
  });

  setBriefHelp(status, { topics: ["exit-codes"] });
  auth.addCommand(login).addCommand(status).addCommand(logout);
  setBriefHelp(auth, { topics: ["auth", "exit-codes"] });
  // Run as shown by the help test, one after the other, after msgstat sandbox --save-profile & on a
  // fresh machine (test/e2e/help-examples.test.ts).
  addHelpSections(auth, {
    heading: "Examples:",
    examples: [
      {
        command: "msgstat auth status",
        comment: "each profile's URL and token source (the sandbox's sends none)",
      },
      {
        command: "msgstat auth status --token s3cret-token-1234",
        comment: "the token given shown as ****1234",
      },
      { command: "msgstat auth logout", comment: "the selected profile's stored token removed" },
    ],
  });
}
