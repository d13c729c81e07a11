import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { compiledWorkerUrl } from "./compiled-worker.js";
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

/** The machine's Postgres 15 (with pgvector); override with FRONTDESK_TEST_POSTGRES_URL. */
export const adminPostgresUrl = process.env.FRONTDESK_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  db: Database;
  /** A connection string for the database, when it is a real Postgres. */
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh database per test file, migrated: in-memory PGlite or a new database on the real Postgres. */
export async function createTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const db = await openPgliteDatabase(null, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const skipped = skippedLegReason("postgres");
  if (skipped) throw new Error(`the postgres test leg is skipped (${skipped}): wrap this test in describeEachStore or describeNeeding("postgres")`);
  const name = `frontdesk_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminPostgresUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString(), 20);
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminPostgresUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
