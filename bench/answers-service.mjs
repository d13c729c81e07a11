// The service side of `bench/answers.mjs`: what the store holds once seeded. The rest (the service
// as a child process, the admin CLI, a throw-away database, CPU from /proc) is in bench-service.mjs.
import { withStore } from "./bench-service.mjs";

export {
  BenchFailure,
  createBenchDatabase,
  freePort,
  machineCpuTicks,
  postgresBackendCpuSeconds,
  processCpuSeconds,
  readProcessStatus,
  backendCpuBetween,
  runAdmin,
  sleep,
  sourcesClient,
  startService,
} from "./bench-service.mjs";

export function log(message) {
  process.stderr.write(`[answers] ${message}\n`);
}

const STORE_SUMMARY_SQL = `
  SELECT (SELECT count(*)::int FROM chunks) AS chunks,
         (SELECT count(*)::int FROM documents WHERE status = 'indexed') AS documents,
         (SELECT count(*)::int FROM documents WHERE status <> 'indexed') AS not_indexed,
         (SELECT coalesce(round(avg(token_estimate)), 0)::int FROM chunks) AS mean_chunk_tokens`;

/**
 * What the store holds (`{url}` of the Postgres database, or `{dataDir}` of PGlite once `serve` has
 * stopped), and whether the planner has statistics for `chunks` (autovacuum analyses it some time
 * after the bulk insert; `analyze` runs ANALYZE now).
 */
export async function inspectStore(store, { analyze = false } = {}) {
  return withStore(store, async (query) => {
    if (analyze) await query(`ANALYZE`);
    const [row] = await query(STORE_SUMMARY_SQL);
    const tableStatistics = await query(
      `SELECT relname, n_live_tup::int, last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname IN ('chunks', 'messages', 'documents') ORDER BY relname`,
    );
    return { chunks: row.chunks, documents: row.documents, notIndexed: row.not_indexed, meanChunkTokens: row.mean_chunk_tokens, tableStatistics };
  });
}
