import type { Migration } from "./migration.js";

/**
 * A counter per agent that moves whenever one of its chunks is inserted, changed or deleted, kept
 * by a trigger so that no write path can forget it. A process that holds a copy of an agent's
 * knowledge in memory (the lexical index) reads the counter with each question and uses its copy
 * only while the numbers match. The counter moves in the transaction that changes the chunks, so a
 * reader never sees new chunks under an old number. No foreign key: the trigger also fires while an agent's chunks
 * are deleted by its own cascade, and a stray row of a deleted agent is harmless.
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
    `CREATE FUNCTION bump_knowledge_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        INSERT INTO knowledge_revisions AS k (agent_id) VALUES (OLD.agent_id)
          ON CONFLICT (agent_id) DO UPDATE SET revision = k.revision + 1;
      ELSE
        INSERT INTO knowledge_revisions AS k (agent_id) VALUES (NEW.agent_id)
          ON CONFLICT (agent_id) DO UPDATE SET revision = k.revision + 1;
      END IF;
      RETURN NULL;
    END
    $$`,
    // Deferred to commit, so the counter's row lock is held only while the transaction commits and
    // concurrent indexing jobs of one agent do not queue behind each other's HNSW inserts.
    `CREATE CONSTRAINT TRIGGER chunks_bump_knowledge_revision AFTER INSERT OR UPDATE OR DELETE ON chunks
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_knowledge_revision()`,
  ],
};
