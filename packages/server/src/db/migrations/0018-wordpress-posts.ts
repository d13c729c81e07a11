import type { Migration } from "./migration.js";

/**
 * WordPress bulk sync (src/wordpress/): sources of kind `wordpress`, at most one per agent, and
 * the posts a plugin pushed, keyed by (agent, WordPress post ID). A published post has a document
 * of that source (`document_id`); an unpublished one has none and keeps no content. The content
 * hash (title, URL and HTML) decides whether a push re-indexes the post.
 * Query paths: a batch's posts by (agent_id, post_id) (the primary key); an agent's counts by
 * agent_id (its prefix); the indexing job's post by document_id; the cascades from a source, a
 * workspace (and an agent: the primary key) and a document (SET NULL) by their indexes.
 */
export const wordpressPosts: Migration = {
  name: "0018-wordpress-posts",
  statements: [
    `ALTER TABLE sources DROP CONSTRAINT sources_kind_check`,
    `ALTER TABLE sources ADD CONSTRAINT sources_kind_check CHECK (kind IN ('url', 'sitemap', 'text', 'wordpress'))`,
    `CREATE UNIQUE INDEX sources_agent_wordpress_idx ON sources (agent_id) WHERE kind = 'wordpress'`,
    `CREATE TABLE wordpress_posts (
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      post_id bigint NOT NULL CHECK (post_id > 0),
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
      document_id bigint REFERENCES documents (id) ON DELETE SET NULL,
      url text NOT NULL,
      title text NOT NULL,
      post_type text NOT NULL,
      post_status text NOT NULL,
      modified_at timestamptz NOT NULL,
      content_hash text NOT NULL,
      content text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (agent_id, post_id)
    )`,
    `CREATE UNIQUE INDEX wordpress_posts_document_idx ON wordpress_posts (document_id) WHERE document_id IS NOT NULL`,
    `CREATE INDEX wordpress_posts_source_idx ON wordpress_posts (source_id)`,
    `CREATE INDEX wordpress_posts_workspace_idx ON wordpress_posts (workspace_id)`,
  ],
};
