import type { Migration } from "./migration.js";

/**
 * BM25's lexeme statistics of an agent, kept once computed (issue 35). A process computed them on
 * an agent's first question with one pass over its chunks (16 s at 1,000,000 chunks), and every
 * process did it again after each start, so the first visitor after a deploy waited for it. The
 * pass's result is now stored with the knowledge revision it was taken at; a process reads it
 * (by primary key) when the revision is still the agent's, and computes otherwise
 * (answering/retrieve/lexeme-statistics.ts). `document_frequencies` holds [lexeme, chunks holding
 * it] pairs in the order of the pass that counted them. Deleted with the agent.
 */
export const storedLexemeStatistics: Migration = {
  name: "0052-stored-lexeme-statistics",
  statements: [
    `CREATE TABLE lexeme_statistics (
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      embedder text NOT NULL,
      revision bigint NOT NULL,
      chunk_count integer NOT NULL,
      average_length double precision NOT NULL,
      document_frequencies jsonb NOT NULL,
      computed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (agent_id, embedder)
    )`,
  ],
};
