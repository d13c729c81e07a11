import { pgliteTemplateDir, postgresTemplateDatabase } from "./store-templates.js";

/**
 * Makes the store templates (store-templates.ts: the migrated ones, and PGlite's empty one that the
 * migration tests start from) before the test files start, once per run,
 * so that no test file's first hook pays for them (or two workers for the same one). Without a
 * Postgres the template is not made; the tests needing it are skipped (test-legs-global-setup.ts).
 */
export default async function setup() {
  await Promise.all([pgliteTemplateDir("empty"), pgliteTemplateDir("migrated"), postgresTemplateDatabase().catch(() => undefined)]);
}
