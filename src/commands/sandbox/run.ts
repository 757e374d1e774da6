import type { Context } from "../context.js";
import { startSandbox, type SandboxOptions } from "../../sandbox/index.js";

/** Serves until SIGINT or SIGTERM, then closes cleanly: stopping the sandbox is its normal end. */
export async function runSandbox(options: SandboxOptions, ctx: Context): Promise<void> {
  const sandbox = await startSandbox(options);
  const lines = [sandbox.url];
  for (const campaign of sandbox.campaigns) {
    lines.push(`campaign ${campaign.id} ${campaign.live ? "live" : campaign.size}`);
    for (const batch of campaign.batches) lines.push(`batch ${campaign.id} ${batch.id} ${batch.size}`);
  }
  ctx.stdout.write(lines.join("\n") + "\n");
  if (ctx.stderrIsTTY) ctx.note(`sandbox serving at ${sandbox.url} (Ctrl-C to stop); try: msgstat --base-url ${sandbox.url} messages ${sandbox.campaigns[0]?.id ?? "<campaignId>"}`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await sandbox.close();
}
