import type { Database } from "../db/database.js";
import { findVectorIndexOf, promoteAgentToVectorIndex } from "../tenants/agents.js";
import { buildOwnVectorIndex, ownVectorIndexIsValid, planVectorIndex, type OwnIndexBuild, type OwnVectorIndexOptions } from "./own-vector-index.js";

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
  /** The agent's vectors are (now) meant to be in the HNSW index, the shared one or its own. */
  indexed: boolean;
  /** It passed the shared index's threshold in this call. */
  promoted: boolean;
  /** Chunks this call put into the shared index. */
  flagged: number;
  /** What this call did about the agent's own index (absent: nothing). */
  own?: OwnIndexBuild | "waiting";
}

/** Which agents go into the shared index and when, and which get one of their own. */
export interface VectorIndexOptions {
  /** An agent's vectors enter the shared index once it has this many chunks outside it (0: at once). */
  minChunks: number;
  /** A large agent's own index (Postgres only); absent: every agent uses the shared one. */
  own?: OwnVectorIndexOptions;
}

/**
 * Puts an agent's 384-dimension vectors into an HNSW index. A large agent (`options.own`, Postgres)
 * gets an index of its own, built in bulk once the sync that brings its chunks has ended (they
 * stay outside every index until then), and kept by Postgres as chunks come and go. Any other
 * agent enters the shared index once it has at least `minChunks` chunks outside it (0: at once),
 * and then every such chunk, `VECTOR_FLAG_BATCH` per statement, so that other statements run
 * between the batches. Chunks inserted after the promotion are flagged when inserted
 * (`vectorIndexedOf`); what an insert that raced the promotion left out is flagged by the next
 * call (as are those left when `signal` stopped it between batches). Retrieval is exact for
 * chunks in no index, so answers do not depend on progress.
 */
export async function indexAgentVectors(db: Database, agentId: string, options: VectorIndexOptions, signal?: AbortSignal): Promise<VectorIndexing> {
  if (options.own && db.kind === "postgres") {
    const own = await indexOwnVectors(db, agentId, options.own, signal);
    if (own) return own;
  }
  const state = await promoteAgentToVectorIndex(db, agentId, options.minChunks);
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

/** The own-index half of indexAgentVectors; null when the agent belongs in the shared index. */
async function indexOwnVectors(db: Database, agentId: string, options: OwnVectorIndexOptions, signal?: AbortSignal): Promise<VectorIndexing | null> {
  const where = await findVectorIndexOf(db, agentId);
  if (where.shared) return null;
  if (where.own !== null) {
    if (await ownVectorIndexIsValid(db, where.own)) return { indexed: true, promoted: false, flagged: 0 };
  } else {
    const plan = await planVectorIndex(db, agentId, options.minChunks);
    if (plan === "shared") return null;
    if (plan === "wait") return { indexed: false, promoted: false, flagged: 0, own: "waiting" };
  }
  const built = await buildOwnVectorIndex(db, agentId, options.buildMemoryMb, signal);
  if (built === "refused") return null;
  return { indexed: built === "built" || built === "exists", promoted: false, flagged: 0, own: built };
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
