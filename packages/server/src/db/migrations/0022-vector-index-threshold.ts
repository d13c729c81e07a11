import type { Migration } from "./migration.js";

/**
 * The HNSW index holds the vectors of agents past a size, put into it in batches (issue 15).
 *
 * Inserting a vector into the HNSW index costs far more than the row itself (on PGlite 5–10 ms a
 * chunk against under 1 ms without the index, docs/benchmarks.md "Ingest"). So chunks are inserted
 * outside the index, and an agent's chunks enter it once the agent has
 * `FRONTDESK_VECTOR_INDEX_MIN_CHUNKS` of them: `agents.vectors_indexed_at` says it passed that size,
 * and `chunks.vector_indexed` which chunks the index holds (the ingest workers flag them in batches,
 * ingest/index-agent-vectors.ts; a promoted agent's new chunks are flagged when inserted).
 * Retrieval searches the index for the flagged chunks and scans the others exactly
 * (`chunks_exact_vectors_idx` finds them), so answers never depend on how far that got.
 * `agents_vectors_indexed_idx` lists the promoted agents when the workers start (those a stopped
 * process left half-flagged are finished). The chunks and agents already stored are in the index:
 * they keep it.
 */
export const vectorIndexThreshold: Migration = {
  name: "0022-vector-index-threshold",
  statements: [
    `ALTER TABLE agents ADD COLUMN vectors_indexed_at timestamptz`,
    `UPDATE agents SET vectors_indexed_at = now() WHERE EXISTS (SELECT 1 FROM chunks WHERE chunks.agent_id = agents.id)`,
    `ALTER TABLE chunks ADD COLUMN vector_indexed boolean NOT NULL DEFAULT true`,
    `ALTER TABLE chunks ALTER COLUMN vector_indexed SET DEFAULT false`,
    `DROP INDEX chunks_embedding_384_idx`,
    `CREATE INDEX chunks_embedding_384_idx ON chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE dimensions = 384 AND vector_indexed`,
    `CREATE INDEX chunks_exact_vectors_idx ON chunks (agent_id, embedder) WHERE NOT vector_indexed`,
    `CREATE INDEX agents_vectors_indexed_idx ON agents (id) WHERE vectors_indexed_at IS NOT NULL`,
  ],
};
