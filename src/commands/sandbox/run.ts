import { UsageError } from "../../core/errors.js";
import { checkProfileName, readConfigFile, updateConfigFile } from "../../config/config-file.js";
import { isLoopback } from "../../config/keys.js";
import { configPaths } from "../../config/paths.js";
import { profileFrom } from "../../config/profile.js";
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
  try {
    if (run.saveProfile !== undefined) await saveProfile(run.saveProfile, sandbox, options.token, ctx);
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
  const pointAt =
    run.saveProfile !== undefined
      ? `saved as profile "${run.saveProfile}"; try: msgstat --profile ${run.saveProfile} messages ${campaign}`
      : `point msgstat at it: export ` +
        `MSGSTAT_BASE_URL=${sandbox.url}${options.token !== undefined ? " MSGSTAT_TOKEN=<the --token value>" : ""}`;
  ctx.note(`sandbox serving at ${sandbox.url} (Ctrl-C to stop); ${pointAt}`);
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

/**
 * The profile gets the sandbox's URL and, given --token, that token through the same storage as
 * `auth login`. A profile that points at a real service is never overwritten: its token could
 * otherwise end up sent to the sandbox, or the sandbox's to it.
 */
async function saveProfile(name: string, sandbox: Sandbox, token: string | undefined, ctx: Context): Promise<void> {
  const paths = configPaths(ctx.env);
  const config = await readConfigFile(paths.configFile);
  const profile = profileFrom(config, paths, name, { kind: "flag", label: "--save-profile" }, { create: true });
  const existing = profile.values["base-url"];
  if (typeof existing === "string" && !isLoopback(new URL(existing).hostname)) {
    throw new UsageError(`profile "${name}" points at ${existing}; the sandbox does not overwrite it`).withHint(
      "Name another profile: --save-profile <name>.",
    );
  }
  // A listener on every address is reached on this machine's loopback.
  const url = sandbox.url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
  if (profile.tokenStore !== undefined) await removeStoredToken(profile, ctx);
  profile.config = await updateConfigFile(paths.configFile, (fresh) => {
    fresh.profiles[name] = { "base-url": url };
  });
  if (token !== undefined) await saveToken(profile, url, token, ctx);
}
