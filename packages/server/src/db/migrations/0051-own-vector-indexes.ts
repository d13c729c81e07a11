import type { Migration } from "./migration.js";

/**
 * A large agent's vectors get an HNSW index of their own, built in bulk (issue 35).
 *
 * Inserting vectors one by one into the shared HNSW index (migration 0022) costs more as the graph
 * grows and outgrows the buffer pool: at a 100,000-page sitemap it was most of Postgres's work.
 * pgvector builds an index in memory, in parallel, far faster than row by row, so an agent whose
 * first sync brings at least `FRONTDESK_VECTOR_OWN_INDEX_MIN_CHUNKS` chunks keeps them out of every
 * index while it syncs and then gets `CREATE INDEX CONCURRENTLY … WHERE agent_id = '<id>'`
 * (ingest/own-vector-index.ts). `own_vector_index` names it once claimed; such an agent is never
 * promoted into the shared index, and retrieval searches its own (the agent read by primary key).
 * `agents_own_vector_index_idx` lists such agents when the workers start (a build a stopped
 * process left unfinished is made again).
 */
export const ownVectorIndexes: Migration = {
  name: "0051-own-vector-indexes",
  statements: [`ALTER TABLE agents ADD COLUMN own_vector_index text`, `CREATE INDEX agents_own_vector_index_idx ON agents (id) WHERE own_vector_index IS NOT NULL`],
};
