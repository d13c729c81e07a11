import type { Migration } from "./migration.js";

/**
 * Knowledge: sources pushed through the Sources API, the documents (pages) they yield, and the
 * chunks that answers retrieve: a pgvector embedding (cosine HNSW, for 384-dimension embedders)
 * and a full-text vector (GIN), both filtered by agent.
 */
export const sources: Migration = {
  name: "0002-sources",
  statements: [
    `CREATE TABLE sources (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('url', 'sitemap', 'text')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'indexed', 'failed')),
      config jsonb NOT NULL DEFAULT '{}',
      target_url text,
      content_hash text,
      error jsonb,
      sync_requested_at timestamptz NOT NULL DEFAULT now(),
      last_synced_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX sources_workspace_recent_idx ON sources (workspace_id, created_at DESC, id DESC)`,
    `CREATE UNIQUE INDEX sources_agent_text_hash_idx ON sources (agent_id, content_hash) WHERE kind = 'text'`,
    `CREATE UNIQUE INDEX sources_agent_target_idx ON sources (agent_id, kind, target_url) WHERE kind IN ('url', 'sitemap')`,
    `CREATE TABLE source_texts (
      source_id text PRIMARY KEY REFERENCES sources (id) ON DELETE CASCADE,
      content text NOT NULL
    )`,
    `CREATE TABLE documents (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      url text NOT NULL,
      title text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'indexed', 'failed')),
      content_hash text,
      error jsonb,
      chunk_count integer NOT NULL DEFAULT 0,
      indexed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX documents_source_url_idx ON documents (source_id, url)`,
    `CREATE INDEX documents_agent_idx ON documents (agent_id)`,
    `CREATE TABLE chunks (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      chunk_index integer NOT NULL,
      title text NOT NULL DEFAULT '',
      heading text,
      content text NOT NULL,
      token_estimate integer NOT NULL,
      embedder text NOT NULL,
      dimensions integer NOT NULL,
      embedding vector NOT NULL,
      search_vector tsvector NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX chunks_document_idx ON chunks (document_id, chunk_index)`,
    `CREATE INDEX chunks_agent_embedder_idx ON chunks (agent_id, embedder)`,
    `CREATE INDEX chunks_embedding_384_idx ON chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE dimensions = 384`,
    `CREATE INDEX chunks_search_idx ON chunks USING gin (search_vector)`,
  ],
};
