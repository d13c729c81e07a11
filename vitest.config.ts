import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
    // Probes the test legs (Postgres, Redis) that scripts/provision-test-machine.mjs provisions; tests of a
    // skipped leg are skipped, and the run ends with a banner naming them (FRONTDESK_TEST_REQUIRE_ALL=1 fails).
    // Then makes the migrated stores that each test file's store is copied from (store-templates.ts).
    globalSetup: ["packages/server/test/support/test-legs-global-setup.ts", "packages/server/test/support/store-templates-global-setup.ts"],
  },
});
