// `msgstat auth login | status | logout`: a profile's token, stored where it is safest.
import { CredentialsError, MsgstatError, UsageError } from "../../core/errors.js";
import { inlineSafe } from "../../core/text.js";
import { profileNames } from "../../config/config-file.js";
import { configPaths } from "../../config/paths.js";
import { chosenProfileName, profileFrom, type Profile } from "../../config/profile.js";
import { redact } from "../../config/redact.js";
import { resolveSetting, resolveSettings, type Given } from "../../config/settings.js";
import { profileHasToken, resolveToken, withheldFrom, type TokenChoice } from "../../config/token.js";
import { readStoredToken, removeStoredToken, saveToken } from "../../config/token-store.js";
import type { Context } from "../context.js";
import { readToken } from "./read-token.js";

export interface LoginOptions {
  given: Given;
  withToken: boolean;
}

export async function runLogin(options: LoginOptions, ctx: Context): Promise<void> {
  if (options.given.token !== undefined) {
    throw new UsageError(
      "auth login does not take the token from the command line, where ps and shell history keep it",
    ).withHint("Pipe it in with --with-token, or leave --with-token out on a terminal to be asked for it.");
  }
  const profile = ctx.settings.profile({ create: true });
  const baseUrl = resolveSetting("base-url", options.given, ctx.env, profile);
  if (baseUrl === undefined) {
    throw new UsageError(`auth login needs the base URL the token belongs to: add --base-url <url>`).withHint(
      "The token is sent only to that URL.",
    );
  }
  const url = String(baseUrl.value);
  const token = await readToken(
    ctx,
    options.withToken,
    `Paste the token of profile "${profile.name}" for ${url} (it is not shown): `,
  );
  const stored = await saveToken(profile, url, token, ctx);
  ctx.note(`Stored the token ${redact(token)} of profile "${profile.name}" for ${url} in ${stored.where}.`);
  // One line at 80 columns: why nothing could be checked is in docs/auth.md.
  ctx.note("Not checked (the API cannot test a token): a wrong one is exit 4 on first use.");
  if (profile.values["token-command"] !== undefined) {
    ctx.warn(
      `profile "${profile.name}" also has a token-command, which is used before a stored token; to ` +
        `use this one: msgstat config unset --profile ${profile.name} token-command`,
    );
  }
}

export async function runLogout(options: { given: Given }, ctx: Context): Promise<void> {
  const profile = ctx.settings.profile();
  const hadOne = profile.tokenStore !== undefined;
  const removed = await removeStoredToken(profile, ctx);
  if (removed.length > 0) ctx.note(`Removed the token of profile "${profile.name}" from ${removed.join(" and ")}.`);
  else
    ctx.note(
      hadOne
        ? `Profile "${profile.name}" no longer uses its stored token.`
        : `Profile "${profile.name}" had no stored token.`,
    );
  if (profile.values["token-command"] !== undefined)
    ctx.note(`Its token-command stays; to remove it: msgstat config unset --profile ${profile.name} token-command`);
}

interface ProfileStatus {
  lines: string[];
  ready: boolean;
  missing?: string;
  /** What to do about what is missing. */
  hint?: string;
}

/** Every profile (or the one --profile names): its URL, where its token comes from, the token redacted. */
export async function runStatus(options: { given: Given }, ctx: Context): Promise<void> {
  const paths = configPaths(ctx.env);
  const config = ctx.settings.configFile();
  const flag = options.given.profile as string | undefined;
  const { name: selected, chosenBy } = chosenProfileName(flag, ctx.env);
  const selectedProfile = profileFrom(config, paths, selected, chosenBy);
  const names = flag !== undefined ? [selected] : [...new Set([...profileNames(config), selected])].sort();
  const out: string[] = [];
  let selectedStatus: ProfileStatus | undefined;
  for (const name of names) {
    const isSelected = name === selected;
    const profile = isSelected ? selectedProfile : profileFrom(config, paths, name, { kind: "profile", label: name });
    const status = isSelected
      ? await selectedProfileStatus(profile, options.given, ctx)
      : await storedProfileStatus(profile, ctx);
    if (isSelected) selectedStatus = status;
    out.push(
      `${name}${isSelected && names.length > 1 ? " (selected)" : ""}`,
      ...status.lines.map((line) => `  ${line}`),
    );
  }
  ctx.stdout.write(`${out.map(inlineSafe).join("\n")}\n`);
  if (!selectedStatus!.ready) {
    const error = new CredentialsError(`profile "${selected}" is not ready: ${selectedStatus!.missing}`);
    throw selectedStatus!.hint === undefined ? error : error.withHint(selectedStatus!.hint);
  }
}

async function selectedProfileStatus(profile: Profile, given: Given, ctx: Context): Promise<ProfileStatus> {
  const settings = resolveSettings(given, ctx.env, profile);
  const lines: string[] = [];
  const base = settings.baseUrl;
  lines.push(
    base
      ? `base-url  ${base.value}  (${sourceOf(base.from.kind, base.from.label)})`
      : `base-url  none: msgstat config set --profile ${profile.name} base-url <url>`,
  );
  let choice: TokenChoice;
  try {
    choice = await resolveToken(given, ctx.env, settings, ctx);
  } catch (error) {
    if (!(error instanceof MsgstatError)) throw error;
    lines.push(`token     none: ${error.message}`);
    return { lines, ready: false, missing: error.message };
  }
  // What the next request sends. Without a token it is ready only when the profile was saved for a
  // service that takes none: a URL on this machine may still want one (msgstat sandbox --token).
  lines.push(tokenLine(profile, choice));
  if (choice.source === "file") lines.push(PLAIN_FILE_WARNING);
  if (base === undefined) return { lines, ready: false, missing: "no base URL" };
  if (choice.token !== undefined || choice.takesNone === true) return { lines, ready: true };
  const hint =
    choice.withheld === undefined
      ? `To send one: msgstat auth login --profile ${profile.name} (it asks for the token), MSGSTAT_TOKEN, ` +
        `or a token-command.`
      : undefined;
  return { lines, ready: false, missing: "no token", hint };
}

/** A profile other than the selected one, as the config file has it: its token-command is not run. */
async function storedProfileStatus(profile: Profile, ctx: Context): Promise<ProfileStatus> {
  const own = profile.values["base-url"];
  const lines = [typeof own === "string" ? `base-url  ${own}  (profile)` : "base-url  none"];
  const command = profile.values["token-command"];
  if (typeof command === "string")
    lines.push(
      `token     from token-command: ${command} (not run here; msgstat auth status --profile ${profile.name} runs it)`,
    );
  else lines.push(...(await storedTokenLines(profile, ctx)));
  return { lines, ready: true };
}

async function storedTokenLines(profile: Profile, ctx: Context): Promise<string[]> {
  if (!profileHasToken(profile)) return [profile.takesNoToken === true ? TAKES_NONE : "token     none"];
  const withheld = withheldFrom(profile, undefined);
  if (withheld !== undefined) return [`token     none: ${withheld}`];
  try {
    const stored = await readStoredToken(profile, ctx);
    if (stored === undefined) return ["token     none"];
    const line = tokenLine(profile, { token: stored.token, source: stored.store, where: stored.where });
    return stored.store === "file" ? [line, PLAIN_FILE_WARNING] : [line];
  } catch (error) {
    if (error instanceof MsgstatError) return [`token     none: ${error.message}`];
    throw error;
  }
}

// Within 80 columns as printed (indented by two): a token line is not wrapped.
const NO_TOKEN_SENT = "token     none: requests go without one";
const TAKES_NONE = `${NO_TOKEN_SENT} (saved by msgstat sandbox, no --token)`;

const PLAIN_FILE_WARNING =
  "warning   the token is stored in plain text in a file (mode 0600); an OS keyring, or a " +
  "token-command, keeps it safer";

function sourceOf(kind: string, label: string): string {
  return kind === "profile" ? "profile" : `${kind}: ${label}`;
}

function tokenLine(profile: Profile, choice: TokenChoice): string {
  if (choice.token === undefined) {
    if (choice.withheld !== undefined) return `token     none: ${choice.withheld}`;
    return choice.takesNone === true ? TAKES_NONE : NO_TOKEN_SENT;
  }
  const where =
    choice.source === "keyring"
      ? "keyring"
      : choice.source === "file"
        ? `file: ${choice.where}`
        : `${choice.source}: ${choice.where}`;
  return `token     ${redact(choice.token)}  (${where})`;
}
