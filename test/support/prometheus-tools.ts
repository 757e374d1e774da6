// Debian's Prometheus tools, as the tests run them: promtool (package prometheus) checks metrics and
// alerting rules, prometheus-node-exporter serves a textfile collector's folder. CI installs both (.ci/run)
// and sets MSGSTAT_CI: there a missing one fails the test; on a developer's machine the test is skipped,
// saying so.
import { spawnSync } from "node:child_process";

export const PROMTOOL = "promtool";
export const NODE_EXPORTER = "prometheus-node-exporter";

const PACKAGES: Record<string, string> = { [PROMTOOL]: "prometheus", [NODE_EXPORTER]: "prometheus-node-exporter" };

export function installed(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
}

/** Skips the running test without `tool`, except on CI, which installs it: there it fails. */
export function needTool(tool: string, context: { skip: (note: string) => void }, unchecked: string): void {
  if (installed(tool)) return;
  if (process.env.MSGSTAT_CI)
    throw new Error(`${tool} is not installed, and CI (MSGSTAT_CI) installs it: .ci/run's apt-get line failed`);
  context.skip(`${tool} is not installed (apt-get install ${PACKAGES[tool]}); ${unchecked} not checked`);
}

/** `promtool check metrics` of this exposition text: its exit code and what it said (problems, warnings). */
export function promtoolCheckMetrics(text: string): { code: number | null; said: string } {
  const result = spawnSync(PROMTOOL, ["check", "metrics"], { input: text, encoding: "utf8" });
  return { code: result.status, said: `${result.stdout}${result.stderr}` };
}
