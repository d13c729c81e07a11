import type { Database } from "./database.js";
import { migrations } from "./migrations/index.js";

/**
 * The advisory lock under which a process changes the schema: our migrations (as a transaction
 * lock) and the job queue's own tables and queues (as a session lock, see job-queue.ts). Taken one
 * after the other, never nested.
 */
export const SCHEMA_LOCK = 7_263_554_110;

/**
 * Applies every pending migration in one transaction that first takes the schema lock, so that any
 * number of processes starting at once against one Postgres wait for each other (the bookkeeping
 * table included) and apply each migration once; a failing migration leaves the schema as it was.
 * Returns the names applied.
 */
export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}
