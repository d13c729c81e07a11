import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { Database, Queryable, QueryResult, SqlValue } from "./database.js";
import { VECTOR_SEARCH_SETTINGS } from "./vector-search-settings.js";

/** PGlite (Postgres in WebAssembly) with pgvector, on disk under `dataDir`, or in memory when `dataDir` is null. */
export async function openPgliteDatabase(dataDir: string | null): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const pglite = dataDir
    ? await PGlite.create(dataDir, { extensions: { vector } })
    : await PGlite.create({ extensions: { vector } });

  await pglite.exec(VECTOR_SEARCH_SETTINGS);

  const query = async <Row>(runner: Pick<PGlite, "query">, sql: string, params?: readonly SqlValue[]) => {
    const result = await runner.query<Row>(sql, params ? [...params] : undefined);
    return { rows: result.rows } satisfies QueryResult<Row>;
  };

  return {
    kind: "pglite",
    query: (sql, params) => query(pglite, sql, params),
    transaction: (work) =>
      pglite.transaction((tx) => {
        const scoped: Queryable = { query: (sql, params) => query(tx, sql, params) };
        return work(scoped);
      }),
    exec: async (sql) => {
      const results = await pglite.exec(sql);
      return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
    },
    close: () => pglite.close(),
  };
}
