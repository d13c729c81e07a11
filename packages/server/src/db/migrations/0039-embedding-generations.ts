import type { Migration } from "./migration.js";

/**
 * A workspace's choice of embedder, and the re-embedding of its knowledge when it changes (issue 31).
 *
 * A generation is one choice: `active` is the one answers use (none: the instance's default), and
 * at most one other, `reembedding` or `failed`, is being built beside it. Its vectors are written
 * as chunk rows of their own embedder id next to the active ones (retrieval already filters chunks
 * by embedder id), so answers keep using the old vectors until the new generation has every chunk;
 * then it becomes active in one transaction and the old vectors are deleted after. A change during
 * a re-embedding replaces the pending row. The API key of an OpenAI-compatible server is sealed
 * (auth/secret-box.ts, the generation's id as associated data), never returned.
 *
 * `chunks_document_embedder_idx` finds a chunk's counterpart of another embedder (the re-embedding
 * copies chunk by chunk, and deletes old vectors only where the new ones exist);
 * `documents_workspace_idx` walks a workspace's documents.
 */
export const embeddingGenerations: Migration = {
  name: "0039-embedding-generations",
  statements: [
    `CREATE TABLE embedding_generations (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('default', 'hashing', 'local', 'openai-compatible')),
      base_url text,
      model text,
      dimensions integer,
      api_key_ciphertext text,
      embedder_id text NOT NULL,
      state text NOT NULL CHECK (state IN ('reembedding', 'failed', 'active')),
      done integer NOT NULL DEFAULT 0,
      total integer NOT NULL DEFAULT 0,
      error jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      activated_at timestamptz
    )`,
    `CREATE UNIQUE INDEX embedding_generations_active_idx ON embedding_generations (workspace_id) WHERE state = 'active'`,
    `CREATE UNIQUE INDEX embedding_generations_pending_idx ON embedding_generations (workspace_id) WHERE state <> 'active'`,
    `CREATE INDEX embedding_generations_workspace_idx ON embedding_generations (workspace_id, state)`,
    `CREATE INDEX chunks_document_embedder_idx ON chunks (document_id, embedder, chunk_index)`,
    `CREATE INDEX documents_workspace_idx ON documents (workspace_id, id)`,
  ],
};
