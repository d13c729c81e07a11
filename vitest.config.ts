import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { HeaviestFirstSequencer } from "./packages/server/test/support/heaviest-first-sequencer.js";

const TESTS = "packages/*/test/**/*.test.ts";
/** Files that need a module graph of their own: vi.mock replaces a module that other files import. */
const OWN_MODULE_GRAPH = ["packages/widget/test/markdown-memo.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files more than the cores: with one per core a fifth of the CPU sat idle while files waited
    // on child processes, timers and sockets (20 % idle with 2 on 2 cores, 6 % with 3; 622 s → 549 s).
    // With Chromium's headless shell a browser file waits more than it computes: with 3 on 2 cores
    // 8 % sat idle, with 4 3 % (the same 793 s of CPU; 435 s → 411 s, 29 Nov).
    maxWorkers: Number(process.env.FRONTDESK_TEST_WORKERS ?? availableParallelism() + 2),
    reporters: ["default"],
    // The longest files first, in a fresh clone too (where Vitest has no durations of a last run).
    sequence: { sequencer: HeaviestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "shared-modules",
          include: [TESTS],
          exclude: [...configDefaults.exclude, ...OWN_MODULE_GRAPH],
          // A worker process runs file after file and imports the server's modules once, not once per file
          // (about 3 s of CPU each); every file still builds its own app, store and children, and closes them.
          isolate: false,
          // Probes the test legs (Postgres, Redis, Chromium) that scripts/provision-test-machine.mjs provisions; tests
          // of a skipped leg are skipped, and the run ends with a banner naming them (FRONTDESK_TEST_REQUIRE_ALL=1
          // fails). Then makes the migrated stores that each test file's store is copied from (store-templates.ts).
          globalSetup: ["packages/server/test/support/test-legs-global-setup.ts", "packages/server/test/support/store-templates-global-setup.ts"],
        },
      },
      // Unit tests needing no leg and no store (the global setup above is this project's alone).
      { extends: true, test: { name: "own-modules", include: OWN_MODULE_GRAPH } },
    ],
  },
});
