import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    env: { TZ: "UTC" },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: forks keep child processes and servers of one file apart from another's.
    pool: "forks",
    reporters: ["default", "./test/support/plain-summary.ts"],
  },
});
