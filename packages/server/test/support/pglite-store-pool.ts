import type { Database, Queryable, SqlValue, Transaction } from "../../src/db/database.js";
import { VECTOR_SEARCH_SETTINGS } from "../../src/db/vector-search-settings.js";

/**
 * Migrated PGlite stores kept open by a test worker process from file to file (`isolate: false`),
 * each put back as the template left it when a file is done with it: a store copied from the
 * template and opened costs about 0.6 s of CPU (the copy of 41 MB, a WebAssembly instance, a
 * thread, Postgres's start), putting one back a fraction of it. What a file did to a store is
 * undone: every table's rows (the template's own rows put back), sequences, session settings,
 * prepared statements and LISTENs (`DISCARD ALL`). A store whose schema a file changed (a table,
 * column, index, function or trigger made or dropped) is closed, never handed out again.
 */

/** Stores kept open per worker process; more are closed when given back. */
const MAX_IDLE = 3;

/** The catalog's shape outside the system schemas: a changed schema changes it. */
const SCHEMA_SHAPE = `
  SELECT md5(concat_ws('|',
    (SELECT string_agg(c.oid::text || ':' || c.relkind::text || ':' || c.relname, ',' ORDER BY c.oid)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'),
    (SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND NOT a.attisdropped),
    (SELECT count(*) FROM pg_constraint), (SELECT count(*) FROM pg_proc), (SELECT count(*) FROM pg_trigger),
    (SELECT count(*) FROM pg_type), (SELECT count(*) FROM pg_namespace), (SELECT count(*) FROM pg_db_role_setting)
  )) AS shape`;

/** Every table outside the system schemas that is not a partition (a partitioned table's TRUNCATE covers its partitions). */
const TABLES = `
  SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
     AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
   ORDER BY 1`;

const SEQUENCES = `
  SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS last_value
    FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`;

interface Baseline {
  shape: string;
  /** One statement naming the empty tables that hold rows now. */
  filledNow: string;
  /** Tables the template leaves empty: truncated. */
  emptyTables: string[];
  /** The template's rows of the others (schema_migrations, pg-boss's queues and version), as JSON, with a checksum to see a change. */
  filledTables: { name: string; rows: string; checksum: string }[];
  sequences: { name: string; lastValue: string | null }[];
}

interface PooledStore {
  db: Database;
  baseline: Baseline;
  /** Closes the store and removes its directory. */
  dispose(): Promise<void>;
}

/** The one row a catalog query returns. */
function only<Row>(rows: Row[]): Row {
  const [row] = rows;
  if (row === undefined) throw new Error("a catalog query returned no row");
  return row;
}

const checksumOf = (table: string) => `SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS checksum FROM ${table} t`;

async function readBaseline(db: Database): Promise<Baseline> {
  const { shape } = only((await db.query<{ shape: string }>(SCHEMA_SHAPE)).rows);
  const emptyTables: string[] = [];
  const filledTables: Baseline["filledTables"] = [];
  for (const { name } of (await db.query<{ name: string }>(TABLES)).rows) {
    const { rows } = only((await db.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${name} t`)).rows);
    if (rows === null) emptyTables.push(name);
    else filledTables.push({ name, rows, checksum: only((await db.query<{ checksum: string }>(checksumOf(name))).rows).checksum });
  }
  const sequences = (await db.query<{ name: string; last_value: string | null }>(SEQUENCES)).rows.map((row) => ({ name: row.name, lastValue: row.last_value }));
  const filledNow = `SELECT array_remove(ARRAY[${emptyTables.map((name) => `CASE WHEN EXISTS (SELECT 1 FROM ${name}) THEN '${name}' END`).join(", ")}]::text[], NULL) AS names`;
  return { shape, filledNow, emptyTables, filledTables, sequences };
}

/** Puts `store` back as its baseline; false when its schema changed (it cannot be reused). */
async function restore({ db, baseline }: PooledStore): Promise<boolean> {
  const { shape } = only((await db.query<{ shape: string }>(SCHEMA_SHAPE)).rows);
  if (shape !== baseline.shape) return false;
  await db.exec("DISCARD ALL");
  await db.exec(VECTOR_SEARCH_SETTINGS);
  let emptied: string[] = [];
  await db.transaction(async (tx) => {
    // Rows deleted, not truncated: TRUNCATE makes each table's and index's files anew (120 ms for
    // them all on PGlite, 160-220 ms for what a file fills); deleting a file's few rows takes a
    // few milliseconds, foreign keys unchecked (the replica role) since every referencing row goes
    // too. A VACUUM after it gives the tables back their empty files' size, which the planner reads.
    const { names } = only((await tx.query<{ names: string[] }>(baseline.filledNow)).rows);
    await tx.query("SET LOCAL session_replication_role = replica");
    for (const name of names) await tx.query(`DELETE FROM ${name}`);
    emptied = names;
    for (const table of baseline.filledTables) {
      const { checksum } = only((await tx.query<{ checksum: string }>(checksumOf(table.name))).rows);
      if (checksum === table.checksum) continue;
      await tx.query(`DELETE FROM ${table.name}`);
      await tx.query(`INSERT INTO ${table.name} SELECT * FROM json_populate_recordset(NULL::${table.name}, $1::json)`, [table.rows]);
    }
    for (const { name, lastValue } of baseline.sequences) {
      await tx.query(lastValue === null ? `ALTER SEQUENCE ${name} RESTART` : `SELECT setval('${name}', ${lastValue}, true)`);
    }
  });
  if (emptied.length > 0) await db.exec(`VACUUM ${emptied.join(", ")}`);
  return true;
}

const idle: PooledStore[] = [];

/**
 * A migrated PGlite store for one test file: an idle one of this process's, else `open()`'s. The
 * `Database` handed out is the file's alone: once closed it refuses every call, as a closed store
 * does, even though the store underneath serves the next file.
 */
export async function leasePgliteStore(open: () => Promise<{ db: Database; dispose(): Promise<void> }>): Promise<Database> {
  let store = idle.pop();
  if (!store) {
    const opened = await open();
    try {
      store = { ...opened, baseline: await readBaseline(opened.db) };
    } catch (error) {
      await opened.dispose();
      throw error;
    }
  }
  return leased(store);
}

async function giveBack(store: PooledStore): Promise<void> {
  const reusable = idle.length < MAX_IDLE && (await restore(store).catch(() => false));
  if (reusable) {
    idle.push(store);
    return;
  }
  await store.dispose();
}

function leased(store: PooledStore): Database {
  const { db } = store;
  let closed: Promise<void> | null = null;
  const open = (): void => {
    if (closed) throw new Error("The PGlite worker stopped (the test store was closed)");
  };
  const scoped = (tx: Transaction): Transaction => ({
    query: (sql: string, params?: readonly SqlValue[]) => {
      open();
      return tx.query(sql, params);
    },
    afterCommit: (work) => tx.afterCommit(work),
  });
  const leasedStore: Database = {
    kind: db.kind,
    async query<Row>(sql: string, params?: readonly SqlValue[]) {
      open();
      return db.query<Row>(sql, params);
    },
    async transaction<T>(work: (tx: Transaction) => Promise<T>) {
      open();
      return db.transaction((tx) => work(scoped(tx)));
    },
    async exec(sql) {
      open();
      return db.exec(sql);
    },
    async withAdvisoryLock<T>(key: number, work: (holder: Queryable) => Promise<T>) {
      open();
      return db.withAdvisoryLock(key, () => work(leasedStore));
    },
    async withAdvisoryLockIfFree<T>(key: number, work: (holder: Queryable) => Promise<T>) {
      open();
      return db.withAdvisoryLockIfFree(key, () => work(leasedStore));
    },
    async ping() {
      open();
      return db.ping();
    },
    close() {
      closed ??= giveBack(store);
      return closed;
    },
  };
  return leasedStore;
}
