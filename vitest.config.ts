import { defineConfig } from "vitest/config";

// The test files that drive the whole CLI in-process (runCli): the "bundle" project runs them again
// against the built dist/cli.js, so what users run is tested, not only the source.
const CLI_SUITES = [
  "test/cli/errors-and-requests.test.ts",
  "test/cli/global-options.test.ts",
  "test/cli/help.test.ts",
  "test/commands/completion/scripts.test.ts",
  "test/commands/list/bad-responses.test.ts",
  "test/commands/list/credentials.test.ts",
  "test/commands/list/deep-and-wide.test.ts",
  "test/commands/list/edge-cases.test.ts",
  "test/commands/list/exact-numbers.test.ts",
  "test/commands/list/faults.test.ts",
  "test/commands/list/first-rows.test.ts",
  "test/commands/list/follow.test.ts",
  "test/commands/list/formats.test.ts",
  "test/commands/list/header-values.test.ts",
  "test/commands/list/hints.test.ts",
  "test/commands/list/hostile-paging.test.ts",
  "test/commands/list/hostile-text.test.ts",
  "test/commands/list/options.test.ts",
  "test/commands/list/page-in-parts.test.ts",
  "test/commands/list/paging.test.ts",
  "test/commands/list/proxy.test.ts",
  "test/commands/list/table.test.ts",
  "test/commands/list/time-zone.test.ts",
  "test/commands/list/tls-trust.test.ts",
  "test/commands/list/tolerance.test.ts",
  "test/commands/message/run.test.ts",
  "test/commands/shared/output-file.test.ts",
  "test/commands/stats/run.test.ts",
  "test/e2e/huge-page-memory.test.ts",
  "test/e2e/profiles.test.ts",
  "test/e2e/signals.test.ts",
  "test/service/follow-listing.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: forks keep child processes and servers of one file apart from another's.
    pool: "forks",
    reporters: ["default", "./test/support/plain-summary.ts"],
    projects: [
      { extends: true, test: { name: "source", include: ["test/**/*.test.ts"], env: { TZ: "UTC" } } },
      {
        extends: true,
        test: {
          name: "bundle",
          include: CLI_SUITES,
          env: { TZ: "UTC", MSGSTAT_TEST_BUNDLE: "1" },
        },
      },
    ],
  },
});
