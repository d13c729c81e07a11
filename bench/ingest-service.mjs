// The service side of `bench/ingest.mjs`: the service's memory read from /proc, and the store's own
// account of what was indexed (documents and chunks), read once the measurement is over. The rest
// (the service as a child process, the admin CLI, a throw-away database, CPU) is in bench-service.mjs.
import { readProcessStatus, withStore } from "./bench-service.mjs";

export { BenchFailure, createBenchDatabase, runAdmin, sampleMemory, sourcesClient, startService } from "./bench-service.mjs";

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** VmRSS and VmHWM (peak RSS) of a process, in MiB, from /proc/<pid>/status. */
export function readMemory(pid) {
  const { rssMiB, peakMiB } = readProcessStatus(pid);
  return { rssMiB, hwmMiB: peakMiB };
}

const INDEX_SUMMARY_SQL = `
  SELECT s.kind,
         count(*) FILTER (WHERE d.status = 'indexed')::int AS documents,
         coalesce(sum(d.chunk_count) FILTER (WHERE d.status = 'indexed'), 0)::int AS chunks,
         coalesce(array_agg(extract(epoch FROM d.indexed_at)::float8 ORDER BY d.indexed_at)
                  FILTER (WHERE d.indexed_at IS NOT NULL), '{}') AS indexed_at,
         extract(epoch FROM min(d.created_at))::float8 AS first_created_at
  FROM documents d JOIN sources s ON s.id = d.source_id
  GROUP BY s.kind`;

/**
 * What the store says was indexed, per source kind: `{url}` of the Postgres database, or `{dataDir}`
 * of PGlite once `serve` has stopped.
 */
export async function readIndexSummary(store) {
  return withStore(store, async (query) => {
    const rows = await query(INDEX_SUMMARY_SQL);
    const [count] = await query(`SELECT count(*)::int AS n FROM chunks`);
    const byKind = {};
    for (const row of rows) {
      byKind[row.kind] = {
        documents: row.documents,
        chunks: row.chunks,
        indexedAt: row.indexed_at.map((value) => Number(value) * 1000),
        firstCreatedAt: Number(row.first_created_at) * 1000,
      };
    }
    return { byKind, chunkRows: Number(count.n) };
  });
}
