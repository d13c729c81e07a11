import type { Migration } from "./migration.js";

/**
 * A counter per agent that moves in every transaction that inserts, changes or deletes one of its
 * chunks (`ingest/knowledge-revision-repository.ts`). A process that holds a copy of an agent's knowledge in
 * memory (the lexical index) reads the counter with each question and uses its copy only while
 * the numbers match. Moved by the write paths rather than a row trigger: a trigger per chunk row
 * cost PGlite about a third of its indexing throughput (20.0 against 28.8 pages/s in
 * bench/ingest.mjs). No foreign key: a stray row of a deleted agent is harmless.
 */
export const knowledgeRevisions: Migration = {
  name: "0003-knowledge-revisions",
  statements: [
    // The lexical index reads an agent's chunks in id order, a batch at a time.
    `DROP INDEX chunks_agent_embedder_idx`,
    `CREATE INDEX chunks_agent_embedder_id_idx ON chunks (agent_id, embedder, id)`,
    `CREATE TABLE knowledge_revisions (
      agent_id text PRIMARY KEY,
      revision bigint NOT NULL DEFAULT 1
    )`,
  ],
};
