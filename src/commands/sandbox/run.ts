import { UsageError } from "../../core/errors.js";
import { isDeepStrictEqual } from "node:util";
import { checkProfileName, DEFAULT_PROFILE, updateConfigFile, type ConfigFile } from "../../config/config-file.js";
import { checkCampaigns, isLoopback, isLoopbackUrl, NO_TOKEN, TOKEN_STORE_KEY } from "../../config/keys.js";
import { configPaths, type Env } from "../../config/paths.js";
import { chosenProfileName, defaultProfileUnset, profileFrom } from "../../config/profile.js";
import { removeStoredToken, saveToken } from "../../config/token-store.js";
import type { Context } from "../context.js";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/index.js";

export interface SandboxRun {
  /** Save the sandbox's URL (and token) as this profile before serving. */
  saveProfile?: string;
}

/** Serves until SIGINT or SIGTERM, then closes cleanly: stopping the sandbox is its normal end. */
export async function runSandbox(options: SandboxOptions, ctx: Context, run: SandboxRun = {}): Promise<void> {
  if (run.saveProfile !== undefined) checkProfileName(run.saveProfile);
  const sandbox = await listen(options);
  let saved: Saved | undefined;
  try {
    if (run.saveProfile !== undefined) saved = await saveProfile(run.saveProfile, sandbox, options.token, ctx);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const lines = [sandbox.url];
  for (const campaign of sandbox.campaigns) {
    lines.push(`campaign ${campaign.id} ${campaign.live ? "live" : campaign.size}`);
    for (const batch of campaign.batches) lines.push(`batch ${campaign.id} ${batch.id} ${batch.size}`);
  }
  ctx.stdout.write(lines.join("\n") + "\n");
  const campaign = sandbox.campaigns[0]?.id ?? "<campaignId>";
  ctx.note(`sandbox serving at ${sandbox.url} (Ctrl-C to stop)`);
  if (saved === undefined)
    ctx.note(
      `point msgstat at it: export MSGSTAT_BASE_URL=${sandbox.url}` +
        `${options.token !== undefined ? " MSGSTAT_TOKEN=<the --token value>" : ""}`,
    );
  else for (const line of savedLines(saved, campaign, ctx.env)) ctx.note(line);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await sandbox.close();
}

async function listen(options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UsageError(
        `port ${options.port} of ${options.host ?? "127.0.0.1"} is taken (another sandbox?)`,
      ).withHint("Pass --port 0 for a free port, or --port <n> for another one.");
    if (code === "EADDRNOTAVAIL" || code === "EACCES")
      throw new UsageError(`cannot listen on ${options.host ?? "127.0.0.1"}:${options.port} (${code})`);
    throw error;
  }
}

/** What --save-profile wrote, for the lines that say how to use it. */
interface Saved {
  name: string;
  /** The default profile was made (or kept) a copy of it: none was set, or it was such a copy already. */
  asDefault: "made" | "kept up" | "left";
  /** How many campaigns its `campaigns` lists; or why it lists none (more than a profile holds). */
  campaigns: number | { reason: string };
}

/**
 * The profile gets the sandbox's URL, the campaigns it serves as `campaigns` (what find and export read
 * when no campaign is named: the API cannot list them) and, given --token, that token through the same
 * storage as `auth login`. A profile that points at a real service is never overwritten: its token could
 * otherwise end up sent to the sandbox, or the sandbox's to it. When no default profile is set, the
 * same goes into "default" too, so that the commands of the README and of --help, which name no
 * profile, work on a fresh machine; a default profile a person set is left alone.
 */
async function saveProfile(name: string, sandbox: Sandbox, token: string | undefined, ctx: Context): Promise<Saved> {
  const paths = configPaths(ctx.env);
  const config = ctx.settings.configFile();
  const profile = profileFrom(config, paths, name, { kind: "flag", label: "--save-profile" }, { create: true });
  const existing = profile.values["base-url"];
  if (typeof existing === "string" && !isLoopback(new URL(existing).hostname)) {
    throw new UsageError(`profile "${name}" points at ${existing}; the sandbox does not overwrite it`).withHint(
      "Name another profile: --save-profile <name>.",
    );
  }
  const asDefault = name === DEFAULT_PROFILE ? "left" : defaultProfileFate(config, name);
  const targets = [profile];
  if (asDefault !== "left")
    targets.push(profileFrom(config, paths, DEFAULT_PROFILE, { kind: "default", label: "the default" }));
  // A listener on every address is reached on this machine's loopback.
  const url = sandbox.url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
  // Checked as config set checks it: past the longest list a profile holds, none is saved, and that is said.
  const campaigns = checkCampaigns(sandbox.campaigns.map((campaign) => campaign.id).join(","));
  for (const target of targets) if (target.tokenStore !== undefined) await removeStoredToken(target, ctx);
  // Without --token the sandbox takes none, and the profile says so: auth status then knows it.
  const entries = {
    "base-url": url,
    ...(token === undefined ? { [TOKEN_STORE_KEY]: NO_TOKEN } : {}),
    ...("value" in campaigns ? { campaigns: campaigns.value } : {}),
  };
  await updateConfigFile(paths.configFile, (fresh) => {
    for (const target of targets) fresh.profiles[target.name] = { ...entries };
  });
  // Stored once per profile; what is said about where it went, once.
  const said = new Set<string>();
  const once = (say: (line: string) => void) => (line: string) => {
    if (!said.has(line)) say(line);
    said.add(line);
  };
  const io = { ...ctx, note: once(ctx.note), log: ctx.log && once(ctx.log) };
  if (token !== undefined) for (const target of targets) await saveToken(target, url, token, io);
  return {
    name,
    asDefault,
    campaigns: "value" in campaigns ? sandbox.campaigns.length : { reason: campaigns.reason },
  };
}

/**
 * Whether the default profile becomes a copy of the one saved: when there is none (or an empty one), or when it is
 * the copy an earlier --save-profile of the same name made (a sandbox on another port, or with another token, is
 * followed). Any other default profile is a person's, and stays.
 */
function defaultProfileFate(config: ConfigFile, name: string): Saved["asDefault"] {
  if (defaultProfileUnset(config)) return "made";
  const current = config.profiles[DEFAULT_PROFILE]!;
  const own = config.profiles[name];
  const url = current["base-url"];
  const copy = own !== undefined && isDeepStrictEqual(current, own) && typeof url === "string" && isLoopbackUrl(url);
  return copy ? "kept up" : "left";
}

/** What was saved, and the next command: without --profile when the profile it picks by itself is the sandbox's. */
function savedLines(saved: Saved, campaign: string, env: Env): string[] {
  const next = chosenProfileName(undefined, env).name;
  const picked = next === saved.name || (next === DEFAULT_PROFILE && saved.asDefault !== "left");
  const what =
    saved.asDefault === "made"
      ? `saved as profile "${saved.name}", and as the default profile (none was set)`
      : saved.asDefault === "kept up"
        ? `saved as profile "${saved.name}", and as the default profile, as before`
        : saved.name === DEFAULT_PROFILE
          ? `saved as the default profile`
          : `saved as profile "${saved.name}"; the default profile is left as it was`;
  const campaigns =
    typeof saved.campaigns === "number"
      ? `its ${saved.campaigns} campaigns saved too: find and export read them when none is named`
      : `its campaigns not saved: a profile's list ${saved.campaigns.reason}`;
  const tryThis = picked
    ? `try: msgstat messages ${campaign}`
    : `try: msgstat --profile ${saved.name} messages ${campaign} (or export MSGSTAT_PROFILE=${saved.name})`;
  return [what, campaigns, tryThis];
}
