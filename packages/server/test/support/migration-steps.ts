import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../src/db/database.js";
import { migrations } from "../../src/db/migrations/index.js";
import { createEmptyTestDatabase, describeEachStore, type TestDatabase } from "./test-database.js";

/**
 * Applies the migrations before the one named `name` (or from it on), as migrate does: statement
 * by statement in one transaction. A migration's test writes the rows it must convert in between.
 */
export async function applyMigrations(db: Database, which: "before" | "from", name: string): Promise<void> {
  const index = migrations.findIndex((migration) => migration.name === name);
  if (index < 0) throw new Error(`no migration ${name}`);
  const chosen = which === "before" ? migrations.slice(0, index) : migrations.slice(index);
  await db.transaction(async (tx) => {
    for (const migration of chosen) for (const statement of migration.statements) await tx.query(statement);
  });
}

/**
 * A migration's tests on each store: `store()` is an empty database of the test's own (no migration
 * applied; `applyMigrations` brings it to the point the test needs), dropped after.
 */
export function describeMigration(name: string, tests: (store: () => Database) => void): void {
  describeEachStore(`migration ${name} on %s`, (kind) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createEmptyTestDatabase(kind);
    });
    afterAll(() => database.drop());
    tests(() => database.db);
  });
}
