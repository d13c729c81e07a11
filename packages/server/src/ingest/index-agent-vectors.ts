import type { Database } from "../db/database.js";
import { promoteAgentToVectorIndex } from "../tenants/agents.js";

/** Chunks flagged per statement: on PGlite each costs 5–10 ms of HNSW insertion, so a batch holds the store for a quarter to half a second. */
export const VECTOR_FLAG_BATCH = 50;

/**
 * The value of `chunks.vector_indexed` for a chunk of the agent `agentParam` (a SQL parameter)
 * inserted now: whether the agent's vectors are in the HNSW index (migration 0022).
 */
export function vectorIndexedOf(agentParam: string): string {
  return `coalesce((SELECT a.vectors_indexed_at IS NOT NULL FROM agents a WHERE a.id = ${agentParam}), false)`;
}

export interface VectorIndexing {
  /** The agent's vectors are (now) meant to be in the HNSW index. */
  indexed: boolean;
  /** It passed the threshold in this call. */
  promoted: boolean;
  /** Chunks this call put into the index. */
  flagged: number;
}

/**
 * Puts an agent's 384-dimension vectors into the HNSW index once it has at least `minChunks` of
 * them outside it (0: at once), and then every such chunk, `VECTOR_FLAG_BATCH` per statement, so
 * that other statements run between the batches. Chunks inserted after the promotion are flagged
 * when inserted (`vectorIndexedOf`); what an insert that raced the promotion left out is flagged
 * by the next call (as are those left when `signal` stopped it between batches). Retrieval is exact for unflagged chunks, so answers do not depend on progress.
 */
export async function indexAgentVectors(db: Database, agentId: string, minChunks: number, signal?: AbortSignal): Promise<VectorIndexing> {
  const state = await promoteAgentToVectorIndex(db, agentId, minChunks);
  if (!state.indexed) return { indexed: false, promoted: false, flagged: 0 };
  let flagged = 0;
  for (;;) {
    const { rows: batch } = await db.query<{ flagged: number }>(
      `WITH flagged AS (
         UPDATE chunks SET vector_indexed = true
         WHERE id IN (
           SELECT id FROM chunks WHERE agent_id = $1 AND dimensions = 384 AND NOT vector_indexed
           ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
         )
         RETURNING 1
       )
       SELECT count(*)::int AS flagged FROM flagged`,
      [agentId, VECTOR_FLAG_BATCH],
    );
    const count = batch[0]?.flagged ?? 0;
    flagged += count;
    if (count < VECTOR_FLAG_BATCH || signal?.aborted) break;
  }
  return { indexed: true, promoted: state.promoted, flagged };
}

/**
 * The promoted agents that still have chunks outside the index (a process stopped between batches,
 * or an insert raced the promotion): the workers finish them when they start.
 */
export async function listAgentsWithVectorsToIndex(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT a.id FROM agents a
     WHERE a.vectors_indexed_at IS NOT NULL
       AND EXISTS (SELECT 1 FROM chunks c WHERE c.agent_id = a.id AND c.dimensions = 384 AND NOT c.vector_indexed)
     ORDER BY a.id`,
  );
  return rows.map((row) => row.id);
}
