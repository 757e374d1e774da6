import { defineConfig } from "vitest/config";

// The test files that drive the whole CLI in-process (runCli): the "bundle" project runs them again
// against the built dist/cli.js, so what users run is tested, not only the source.
const CLI_SUITES = [
  "test/cli/*.test.ts",
  "test/hardening/*.test.ts",
  "test/stats/stats.test.ts",
  "test/service/*.test.ts",
  "test/core/tolerance.test.ts",
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
      // bin-end-to-end spawns the built bin already; it needs no second run.
      {
        extends: true,
        test: {
          name: "bundle",
          include: CLI_SUITES,
          exclude: ["test/cli/bin-end-to-end.test.ts"],
          env: { TZ: "UTC", MSGSTAT_TEST_BUNDLE: "1" },
        },
      },
    ],
  },
});
