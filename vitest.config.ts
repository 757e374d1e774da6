import { defineConfig } from "vitest/config";

// Three projects: "unit" runs every test beside its unit (test/** but e2e) on the source; "e2e" runs
// test/e2e/, which spawns the built bin/msgstat.js as a user runs it; "bundle" runs a few in-process
// tests a second time against dist/cli.js.
// The bundle differs from src/ in how code is loaded, not in what it does: dist/ loads chunks lazily
// (the commands, cli-table3, chalk, ora, the proxy transport) and carries its dependencies inside.
// e2e/same-as-source.test.ts holds the built bin to the source's output for each command and format;
// the bundle project covers what a child process on a pipe does not reach: a terminal (the table, its
// colours and the spinner, each loaded on first use), and the proxy and TLS cases, whose transport is
// loaded on demand and built from bundled dependencies.
const BUNDLE_SUITES = [
  "test/commands/messages/table.test.ts",
  "test/commands/messages/proxy.test.ts",
  "test/commands/messages/tls-trust.test.ts",
];

// Against the single executable (MSGSTAT_E2E_BIN, .ci/run), the end-to-end files that run this Node
// itself are left out: the export's step hook (held-bin.cjs), the memory probe (--import), npm's install
// of the tarball and the demo script. Tests of that kind in other files are marked nodeOnly.
const NODE_ONLY_E2E = [
  "test/e2e/export-kill.test.ts",
  "test/e2e/huge-page-memory.test.ts",
  "test/e2e/man-install.test.ts",
  "test/e2e/demo.test.ts",
  "test/e2e/startup-modules.test.ts",
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
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], env: { TZ: "UTC" } },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          exclude: process.env.MSGSTAT_E2E_BIN ? NODE_ONLY_E2E : [],
          env: { TZ: "UTC" },
        },
      },
      {
        extends: true,
        test: {
          name: "bundle",
          include: BUNDLE_SUITES,
          env: { TZ: "UTC", MSGSTAT_TEST_BUNDLE: "1" },
        },
      },
    ],
  },
});
