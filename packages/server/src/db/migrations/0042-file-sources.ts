import type { Migration } from "./migration.js";

/**
 * Files as sources (issue 32): a source of kind `file` keeps its original file in
 * `source_files` (a bytea in the store, so that a backup of the store holds it, on PGlite and
 * Postgres alike), served to visitors under its unguessable `public_id`. A file's bytes are
 * deduplicated per agent by their SHA-256 (`sources.content_hash`, as texts are). A chunk may say
 * which page of its document it came from (`chunks.page`, a PDF's), so that a citation can point
 * at it. A CSV's rows made curated answers carry their source (`curated_answers.source_id`), and go
 * with it. Query paths: a source's file by its primary key, a served file by `public_id`, a
 * source's curated answers by `curated_answers_source_idx`; the cascades from a source, an agent
 * and a workspace by their keys and indexes.
 */
export const fileSources: Migration = {
  name: "0042-file-sources",
  statements: [
    `ALTER TABLE sources DROP CONSTRAINT sources_kind_check`,
    `ALTER TABLE sources ADD CONSTRAINT sources_kind_check CHECK (kind IN ('url', 'sitemap', 'text', 'wordpress', 'file'))`,
    `CREATE UNIQUE INDEX sources_agent_file_hash_idx ON sources (agent_id, content_hash) WHERE kind = 'file'`,
    `CREATE TABLE source_files (
      source_id text PRIMARY KEY REFERENCES sources (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      public_id text NOT NULL,
      filename text NOT NULL,
      media_type text NOT NULL,
      bytes integer NOT NULL CHECK (bytes >= 0),
      sha256 text NOT NULL,
      content bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX source_files_public_idx ON source_files (public_id)`,
    `CREATE INDEX source_files_workspace_idx ON source_files (workspace_id)`,
    `ALTER TABLE chunks ADD COLUMN page integer`,
    `ALTER TABLE curated_answers ADD COLUMN source_id text REFERENCES sources (id) ON DELETE CASCADE`,
    `CREATE INDEX curated_answers_source_idx ON curated_answers (source_id) WHERE source_id IS NOT NULL`,
  ],
};
