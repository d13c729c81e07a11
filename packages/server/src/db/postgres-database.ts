import { createHash } from "node:crypto";
import pg from "pg";
import { afterCommitQueue, type Database, type Queryable, type QueryResult, type SqlValue, type Transaction } from "./database.js";
import { VECTOR_SEARCH_OPTIONS } from "./vector-search-settings.js";

const statementNames = new Map<string, string>();

/** A stable name per SQL text, for prepared statements (migrations run before any of them). */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `fd_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** Any Postgres with pgvector, through a connection pool. */
export async function openPostgresDatabase(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: VECTOR_SEARCH_OPTIONS });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const client = await pool.connect().catch(async (error: unknown) => {
    await pool.end().catch(() => undefined);
    throw error;
  });
  client.release();

  const query = async <Row>(runner: pg.Pool | pg.PoolClient, sql: string, params?: readonly SqlValue[]) => {
    // With parameters, a named (prepared) statement: Postgres parses and plans each SQL text once per connection.
    const result = params && params.length > 0 ? await runner.query({ name: statementName(sql), text: sql, values: [...params] }) : await runner.query(sql);
    return { rows: result.rows as Row[] } satisfies QueryResult<Row>;
  };

  const health = healthConnection(url);
  return {
    kind: "postgres",
    ping: health.ping,
    query: (sql, params) => query(pool, sql, params),
    transaction: async (work) => {
      const connection = await pool.connect();
      const afterCommit = afterCommitQueue();
      let result;
      try {
        await connection.query("BEGIN");
        const scoped: Transaction = { query: (sql, params) => query(connection, sql, params), afterCommit: afterCommit.register };
        result = await work(scoped);
        await connection.query("COMMIT");
      } catch (error) {
        await connection.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
      await afterCommit.run();
      return result;
    },
    exec: async (sql) => {
      const result = (await pool.query(sql)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as Record<string, unknown>[];
    },
    withAdvisoryLock: async (key, work) => (await withLockSession(url, true, key, work))!.value,
    withAdvisoryLockIfFree: async (key, work) => (await withLockSession(url, false, key, work))?.value ?? null,
    close: async () => {
      await health.close();
      await pool.end();
    },
  };
}

/**
 * Runs `work` on a connection of its own, outside the pool (`work` may need every pooled
 * connection), once it holds the advisory lock `key`, waiting for it (`wait`) or not; null when
 * another session held it. The lock ends with the session.
 */
async function withLockSession<T>(url: string, wait: boolean, key: number, work: (holder: Queryable) => Promise<T>): Promise<{ value: T } | null> {
  const holder = new pg.Client({ connectionString: url });
  holder.on("error", () => undefined);
  await holder.connect();
  try {
    if (wait) await holder.query("SELECT pg_advisory_lock($1)", [key]);
    else if (!(await holder.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [key])).rows[0]?.locked) return null;
    return { value: await work({ query: async (sql, params) => ({ rows: (await holder.query(sql, params ? [...params] : undefined)).rows }) }) };
  } finally {
    await holder.end().catch(() => undefined);
  }
}

/**
 * The connection of `ping`, apart from the pool: opened at the first ping, kept, and opened again
 * after a failure. A ping while one is out shares it.
 */
function healthConnection(url: string): { ping: () => Promise<void>; close: () => Promise<void> } {
  let client: pg.Client | null = null;
  let inFlight: Promise<void> | null = null;
  const drop = async (): Promise<void> => {
    const dropped = client;
    client = null;
    await dropped?.end().catch(() => undefined);
  };
  const check = async (): Promise<void> => {
    try {
      if (!client) {
        const fresh = new pg.Client({ connectionString: url });
        fresh.on("error", () => undefined);
        client = fresh;
        await fresh.connect();
      }
      await client.query("SELECT 1");
    } catch (error) {
      await drop();
      throw error;
    }
  };
  return {
    ping: () => {
      inFlight ??= check().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    close: async () => {
      await inFlight?.catch(() => undefined);
      await drop();
    },
  };
}
