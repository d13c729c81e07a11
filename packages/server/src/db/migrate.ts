import type { Database } from "./database.js";
import { migrations } from "./migrations/index.js";

const MIGRATION_LOCK = 7_263_554_110;

/**
 * Applies every pending migration, each in its own transaction, under an advisory lock so
 * that several processes starting at once against one Postgres apply each migration once.
 * Returns the names applied.
 */
export async function migrate(db: Database): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const existing = await tx.query("SELECT 1 FROM schema_migrations WHERE name = $1", [migration.name]);
      if (existing.rows.length > 0) return false;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}
