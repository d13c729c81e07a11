import { pgliteTemplateDir, postgresTemplateDatabase } from "./store-templates.js";
import { startTestDatabaseRun, sweepRunDatabases, sweepRunStores } from "./test-database-sweep.js";

/**
 * Makes the store templates (store-templates.ts: the migrated ones, and PGlite's empty one that the
 * migration tests start from) before the test files start, once per run,
 * so that no test file's first hook pays for them (or two workers for the same one).
 */
export default async function setup() {
  // A template that cannot be made (a migration that fails, no Postgres) does not stop the run: the
  // tests that need it try again in their own process and fail there, naming the error.
  const attempt = (making: Promise<string>) => making.catch(() => undefined);
  startTestDatabaseRun();
  await Promise.all([attempt(pgliteTemplateDir("empty")), attempt(pgliteTemplateDir("migrated")), attempt(postgresTemplateDatabase())]);
  // The databases the workers left: each worker's spare, and drops its end cut short.
  return async () => {
    await sweepRunDatabases().catch(() => undefined);
    await sweepRunStores().catch(() => undefined);
  };
}
