import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { pgliteDirectory } from "../../src/db/open-database.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { compiledWorkerUrl } from "./compiled-worker.js";
import { leasePgliteStore } from "./pglite-store-pool.js";
import { adminPostgresUrl, copyPgliteTemplate, createTestPostgresDatabase, postgresTemplateDatabase, testStoreDirectory, type TemplateStage } from "./store-templates.js";
import { dropPostgresDatabase, testDatabasePrefix, testStorePrefix } from "./test-database-sweep.js";
import { describeEachNeeding, skippedLegReason, type TestLegName } from "./test-legs.js";

export type StoreKind = "pglite" | "postgres";

/** Every store-touching test runs against both. */
export const storeKinds: StoreKind[] = ["pglite", "postgres"];

/** The machine's legs a store needs: the real Postgres is the `postgres` leg; PGlite needs none. */
export const legsOfStore = (kind: StoreKind): TestLegName[] => (kind === "postgres" ? ["postgres"] : []);

/**
 * `describeEachStore(title, body)`, with the Postgres case skipped (counted as skipped, and
 * named in the end-of-run banner) when the machine has no `postgres` leg.
 */
export const describeEachStore = describeEachNeeding(storeKinds, legsOfStore);

export { adminPostgresUrl };

export interface TestDatabase {
  db: Database;
  /** A connection string for the database, when it is a real Postgres. */
  url: string | null;
  drop(): Promise<void>;
}

/** A test store with no migration applied (for the migrations' own tests): PGlite's empty template copied, or a new Postgres database. */
export async function createEmptyTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  return kind === "pglite" ? copiedPgliteDatabase("empty") : newPostgresDatabase(null);
}

/**
 * A fresh database per test file, migrated: a PGlite data directory of its own (under the system's
 * temporary directory, removed by `drop`) or a new database on the real Postgres, each a copy of a
 * migrated template (store-templates.ts).
 */
export async function createTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const db = await leasePgliteStore(async () => {
      const copied = await copiedPgliteDatabase("migrated");
      return { db: copied.db, dispose: () => copied.drop() };
    });
    return { db, url: null, drop: () => db.close() };
  }
  const skipped = skippedLegReason("postgres");
  if (skipped) throw new Error(`the postgres test leg is skipped (${skipped}): wrap this test in describeEachStore or describeNeeding("postgres")`);
  return newPostgresDatabase(await postgresTemplateDatabase());
}

async function copiedPgliteDatabase(stage: TemplateStage): Promise<TestDatabase> {
  const directory = await mkdtemp(join(testStoreDirectory, testStorePrefix()));
  try {
    const dataDir = join(directory, "pglite");
    await copyPgliteTemplate(dataDir, stage);
    const db = await openPgliteDatabase(dataDir, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    return {
      db,
      url: null,
      async drop() {
        await db.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The migrated database this worker's next test file will take, made while the current file runs:
 * CREATE DATABASE … TEMPLATE is about a second of disk work (copying and logging the template's
 * pages), which no test file then waits for. With `isolate: false` a worker keeps it from file to
 * file; the one left when the worker ends is dropped by the run's teardown (test-database-sweep.ts).
 */
let spareMigrated: Promise<string> | null = null;

async function takeMigratedDatabase(): Promise<string> {
  const template = await postgresTemplateDatabase();
  const taken = spareMigrated ?? newPostgresDatabaseName(template);
  spareMigrated = newPostgresDatabaseName(template);
  // A spare that fails is made again by the file that takes it, which then fails with the error.
  spareMigrated.catch(() => (spareMigrated = null));
  return taken.catch(() => newPostgresDatabaseName(template));
}

/** Creates a database on the machine's Postgres, a copy of `template` (Postgres's own template1 when null), named for this run. */
async function newPostgresDatabaseName(template: string | null): Promise<string> {
  const name = `${testDatabasePrefix()}${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
  try {
    await createTestPostgresDatabase(admin, name, template);
  } finally {
    await admin.end();
  }
  return name;
}

/** A new database on the machine's Postgres (migrated when `template` is given). Dropping it does not hold up the next file. */
async function newPostgresDatabase(template: string | null): Promise<TestDatabase> {
  const name = template === null ? await newPostgresDatabaseName(null) : await takeMigratedDatabase();
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString(), 20);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      // Its connections are closed; the DROP itself (disk work) finishes while the next file starts.
      // One cut short by the worker's end is left to the run's teardown.
      void dropPostgresDatabase(name).catch(() => undefined);
    },
  };
}

/**
 * A new FRONTDESK_DATA_DIR for `bin/frontdesk` processes; on PGlite it already holds the migrated
 * template where the service keeps its store, so the first process to open it runs neither initdb
 * nor the migrations (about 7 s of CPU). For the tests that are not about a first start.
 */
export async function dataDirWithMigratedStore(kind: StoreKind, prefix = "frontdesk-cli-"): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  if (kind === "pglite") await copyPgliteTemplate(pgliteDirectory(dataDir));
  return dataDir;
}
